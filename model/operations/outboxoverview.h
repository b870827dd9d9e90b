// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/metricsrepository.h"
#include "operations/auditrepository.h"
#include "operations/relaynode.h"
#include "operations/waitcause.h"
#include "outbox/failuregroup.h"
#include "outbox/outboxrows.h"

#include <QDateTime>
#include <QList>
#include <optional>

class DbSession;

// A count read through an index up to a cap: exact below the cap, "cap+" at it. At the cap, where the planner's
// statistics know the table, also an estimate of the real number (never exact: it is as old as the last ANALYZE).
struct CappedCount {
    qint64 value = 0;
    bool capped = false;
    std::optional<qint64> estimate; // only when capped
};

// An unpublished row and why it waits.
struct WaitingRow {
    OutboxRowSummary row;
    WaitCause cause = WaitCause::Queued;
};

// What the on-call operator sees first: the counts, and what explains them. Every figure reads an index, the
// maintained failure-group sizes or the metric rollups, never a scan of the whole outbox.
struct OutboxOverview {
    static constexpr int CountCap = 10'000;
    static constexpr int ExplainedRows = 5; // groups, oldest rows and operator actions shown

    CappedCount pending;
    CappedCount inFlight;
    CappedCount failed;
    CappedCount dead;
    CappedCount stuck; // see StuckRowClassifier
    std::optional<qint64> oldestUnpublishedAgeMs; // nullopt when nothing waits
    double publishedPerMinute = 0; // over the last hour, from the rollups
    std::optional<double> duplicateHitRate; // over the last hour; nullopt without requests
    QDateTime serverNow;
    QList<RelayNode> relays; // the most recently seen (RelayFleet)
    QList<FailureGroup> failureGroups; // the largest, largest first
    QList<WaitingRow> oldestUnpublished; // oldest first
    QList<MetricPoint> lastHour; // one point per minute
    QList<AuditEntry> recentActions; // newest first

    bool anyRelayAlive() const;
    // Rows wait to be published and no relay is alive to publish them.
    bool nothingPublishing() const;

    static OutboxOverview load(DbSession& session, qint64 stuckThresholdMs);
};
