// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/relaynode.h"

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

// What the on-call operator sees first. Every figure reads an index or the metric rollups, never a scan
// of the whole outbox.
struct OutboxOverview {
    static constexpr int CountCap = 10'000;

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

    // Rows wait to be published and no relay is alive to publish them.
    bool nothingPublishing() const;

    static OutboxOverview load(DbSession& session, qint64 stuckThresholdMs);
};
