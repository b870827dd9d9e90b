// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/latencyhistogram.h"
#include "outbox/backlogsample.h"
#include "relay/leaseprotocol.h"

#include <QString>
#include <optional>

// What one relay process did since it started.
struct RelayTotals {
    qint64 claimed = 0;
    qint64 published = 0;
    qint64 failed = 0; // publish attempts that failed (of which `dead` reached max attempts)
    qint64 dead = 0; // rows dead-lettered, by failed publishes or by rescues
    qint64 fenced = 0; // completions rejected because the lease had been taken over meanwhile
    qint64 rescued = 0; // expired leases of other (or earlier) workers taken back
    qint64 handedBack = 0; // rows returned unpublished because the broker was unavailable
    LatencyTally publishLatency; // from a row's commit to its publish being recorded
    LatencyTally batchDuration; // from a batch's claim to its outcome being committed
};

// A relay's view of itself, as its /metrics and /healthz endpoint report it.
struct RelayStatus {
    RelayTotals totals;
    bool databaseUp = true;
    QString databaseProblem;
    bool sinkUp = true;
    QString sinkProblem;
    // As of the last registry heartbeat: the sink is unreachable, or over the heartbeat interval publishes failed
    // and none succeeded (OutboxRelay judges it; relay_nodes.failing_since). `failingProblem` says why.
    bool failing = false;
    QString failingProblem;
    std::optional<BacklogSample> backlog; // the last sample; none before the first
    std::optional<RelayPause> pause; // an operator paused the relay: it claims nothing
};
