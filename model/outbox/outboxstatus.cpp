// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxstatus.h"

#include "outbox/outboxlogbounds.h"

#include <QVariant>
#include <limits>

QList<SqlFragment> outboxStatusBranches(
    const QList<OutboxStatus>& statuses, const OutboxLogBounds* logBounds, bool inIdOrder)
{
    QList<SqlFragment> branches;
    bool pendingOfLog = false;
    bool inFlightOfLog = false;
    bool publishedOfLog = false;
    for (const OutboxStatus status : statuses) {
        branches.append(SqlFragment(QStringLiteral("stored_status = '%1'").arg(OutboxStatusNames.name(status))));
        pendingOfLog = pendingOfLog || status == OutboxStatus::Pending;
        inFlightOfLog = inFlightOfLog || status == OutboxStatus::InFlight;
        publishedOfLog = publishedOfLog || status == OutboxStatus::Published;
    }
    if (!logBounds || !(pendingOfLog || inFlightOfLog || publishedOfLog))
        return branches;
    // Every state a row of the log can have: its rows need no state read.
    if (pendingOfLog && inFlightOfLog && publishedOfLog) {
        branches.append(SqlFragment(QStringLiteral("stored_status IS NULL")));
        return branches;
    }
    Q_ASSERT(logBounds->read);
    // Published: every row below the floor (every row when none is left to publish), and above it those whose lane
    // has moved past them, which are at most outbox_log_published_through(). In id order, newest first, the walk
    // starts there, below a backlog written while no relay runs, and reads the state of the few rows between the two
    // bounds. In created_at order both bounds stay in one condition, tested on each row of the range before its
    // state is read.
    if (publishedOfLog) {
        const qint64 belowFloor = logBounds->floor.value_or(std::numeric_limits<qint64>::max());
        branches.append(inIdOrder
                ? SqlFragment(QStringLiteral("stored_status IS NULL AND id <= ?::bigint AND (id < ?::bigint "
                                             "OR status = 'published')"),
                    { logBounds->publishedThrough, belowFloor })
                : SqlFragment(QStringLiteral("stored_status IS NULL AND (id < ?::bigint OR (id <= ?::bigint "
                                             "AND status = 'published'))"),
                    { belowFloor, logBounds->publishedThrough }));
    }
    // Pending: only at or above the floor; none with none left to publish.
    if (pendingOfLog && logBounds->floor) {
        branches.append(SqlFragment(
            QStringLiteral("stored_status IS NULL AND id >= ?::bigint AND status = 'pending'"), { *logBounds->floor }));
    }
    // In flight: only within the ranges the lanes have leased, whatever the backlog above them (bounded by the floor
    // instead, a list of stuck rows read the state and lease of each of a backlog of 300,000 rows: 4-8 s).
    if (inFlightOfLog && logBounds->leasedFrom && logBounds->leasedThrough) {
        branches.append(SqlFragment(QStringLiteral("stored_status IS NULL AND id >= ?::bigint AND id <= ?::bigint "
                                                   "AND status = 'in_flight'"),
            { *logBounds->leasedFrom, *logBounds->leasedThrough }));
    }
    return branches;
}
