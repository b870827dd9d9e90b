// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/metricsrepository.h"
#include "operations/auditrepository.h"
#include "operations/cappedcount.h"
#include "operations/publishpause.h"
#include "operations/relaynode.h"
#include "operations/waitcause.h"
#include "outbox/backlogsample.h"
#include "outbox/failuregroup.h"
#include "outbox/outboxrows.h"

#include <QDateTime>
#include <QList>
#include <optional>

class DbSession;

// An unpublished row and why it waits.
struct WaitingRow {
    OutboxRowSummary row;
    WaitCause cause = WaitCause::Queued;
    std::optional<OutboxRowSummary> blocker; // for BehindOlderRow: the key's oldest unpublished row, if still there
};

// What the on-call operator sees first: the counts, and what explains them. Every figure reads an index, the
// maintained failure-group sizes or the metric rollups, never a scan of the whole outbox.
struct OutboxOverview {
    static constexpr int CountCap = BacklogSample::CountCap;
    static constexpr int ExplainedRows = 5; // groups, oldest rows and operator actions shown
    static constexpr int RecentMinutes = 5; // the rates are over this many complete minutes

    CappedCount pending;
    CappedCount inFlight;
    CappedCount failed;
    CappedCount dead;
    CappedCount waiting; // behind an older row of their ordering key
    CappedCount paused; // of a paused event type
    CappedCount blockedKeys; // dead rows with an ordering key: each blocks its key until an operator acts
    // Stuck and not dead (StuckRowClassifier): leases past expiry, and pending or failed rows due for longer than
    // the threshold. Dead rows have a tile of their own.
    CappedCount stuck;
    std::optional<qint64> oldestUnpublishedAgeMs; // nullopt when nothing waits
    std::optional<qint64> lastPublishedAgeMs; // since the newest publish on record; nullopt if none
    // Over the last RecentMinutes complete minutes (the minute in progress is not judged), from the rollups; on a
    // young system over the rateMinutes of them from the first with data (MetricPoint::hasData) on, since the
    // minutes before it are not zeros but minutes in which nothing ran.
    double publishedPerMinute = 0;
    std::optional<double> duplicateHitRate; // nullopt without requests
    int rateMinutes = 0; // RecentMinutes, fewer on a young system; 0 while none of them has data
    MetricCounters lastHourTotals; // the last 60 minutes, the one in progress included
    QDateTime serverNow;
    QList<RelayNode> relays; // the most recently seen (RelayFleet)
    QList<FailureGroup> failureGroups; // the largest, largest first
    QList<WaitingRow> oldestUnpublished; // oldest first
    QList<MetricPoint> lastHour; // one point per minute
    QList<AuditEntry> recentActions; // newest first
    QList<PublishPause> pauses; // every relay name and event type paused

    bool anyRelayAlive() const; // alive or failing: it runs and heartbeats
    FleetCondition fleetCondition() const;
    // The running relay failing for the longest time; nullptr unless one is.
    const RelayNode* longestFailing() const;
    // Rows have waited longer than `afterMs` and nothing was published for as long, whatever the relays'
    // states say; fleetCondition() and longestFailing() say why.
    bool nothingPublishing(qint64 afterMs) const;

    static OutboxOverview load(DbSession& session, qint64 stuckThresholdMs);
};
