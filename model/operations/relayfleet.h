// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/relaynode.h"

#include <QList>

class DbSession;

// The read side of the relay registry (relay_nodes), which the relays themselves write through RelayRegistry.
class RelayFleet final {
public:
    static constexpr int DefaultLimit = 200;

    explicit RelayFleet(DbSession& session);

    // The `limit` relays seen most recently, most recent first: every live relay is among them, since a live
    // relay heartbeats every few seconds and a dead or stopped one does not.
    QList<RelayNode> recent(int limit = DefaultLimit);

    // Deletes up to `batchSize` stopped or stale rows last seen more than `olderThanMs` ago; returns how many.
    int purgeGone(qint64 olderThanMs, int batchSize);

private:
    DbSession& m_session;
};
