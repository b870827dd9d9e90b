// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/outagetracker.h"

class OutboxError;

// The two peers a long-running process depends on, the database and the message broker (the relay's sink, the
// consumer's queue), each with its OutageTracker, and the one rule of which error concerns which. Thread-safe.
class PeerOutages final {
    Q_DISABLE_COPY_MOVE(PeerOutages)
public:
    // `brokerName` starts the broker's log lines ("sink", "broker").
    PeerOutages(const QString& brokerName, OutageTracker::Log log);

    OutageTracker& database() { return m_database; }
    const OutageTracker& database() const { return m_database; }
    OutageTracker& broker() { return m_broker; }
    const OutageTracker& broker() const { return m_broker; }

    // Files `error` under its peer: a lost connection under the database, a broker error under the broker; a
    // transient error (a serialization failure, a lock timeout) is logged as retried, without an outage. False for
    // any other error, which no retry fixes: the caller gives up on it.
    bool report(const OutboxError& error);

private:
    OutageTracker::Log m_log;
    OutageTracker m_database;
    OutageTracker m_broker;
};
