// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxstatus.h"

#include <QVariant>

QList<SqlFragment> outboxStatusBranches(
    const QList<OutboxStatus>& statuses, std::optional<qint64> firstId, bool inIdOrder)
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
    // Every state a row of the log can have: its rows need no state read.
    if (pendingOfLog && inFlightOfLog && publishedOfLog) {
        branches.append(SqlFragment(QStringLiteral("stored_status IS NULL")));
        return branches;
    }
    const QVariant from = firstId ? QVariant(*firstId) : QVariant(QMetaType::fromType<qint64>());
    // Published: every row below the floor (none left to publish, the floor NULL: every row), and above it those
    // whose lane has moved past them, which are at most outbox_log_published_through(). In id order, newest first,
    // the walk starts there, below a backlog written while no relay runs, and reads the state of the few rows between
    // the two bounds. In created_at order the bound stays in the condition, where a row of the backlog fails it
    // before its state is read: as a condition of its own it was an index bound whose unknown value made the planner
    // sort a whole created range (0.5 s for a week of 2 million rows) instead of walking it in order.
    if (publishedOfLog) {
        const QString belowFloor
            = QStringLiteral("id < (SELECT coalesce(outbox_log_floor(?::bigint), '9223372036854775807'::bigint))");
        branches.append({ inIdOrder
                ? QStringLiteral("stored_status IS NULL AND id <= (SELECT outbox_log_published_through()) AND (%1 "
                                 "OR status = 'published')")
                      .arg(belowFloor)
                : QStringLiteral("stored_status IS NULL AND (%1 OR (id <= (SELECT outbox_log_published_through()) "
                                 "AND status = 'published'))")
                      .arg(belowFloor),
            { from } });
    }
    // Pending: only at or above the floor, which reads the rows written since each lane's tick (its cost is the
    // backlog's: 0.24 s at 300,000 rows). In id order the floor is a bound of the index walk, read once; with none
    // left to publish (NULL) the walk starts past the last id and reads nothing. In created_at order it is a
    // condition tested on each row of the range, so a condition on the floor alone, decided once before any row is
    // read, skips the walk when there is none left to publish ("id >= NULL" tested on every row of a created-range
    // walk took 5.4 s for a week of 2 million rows).
    if (pendingOfLog) {
        branches.append(inIdOrder
                ? SqlFragment(QStringLiteral("stored_status IS NULL AND id >= (SELECT coalesce(outbox_log_floor("
                                             "?::bigint), '9223372036854775807'::bigint)) AND status = 'pending'"),
                    { from })
                : SqlFragment(QStringLiteral("stored_status IS NULL AND (SELECT outbox_log_floor(?::bigint)) IS NOT "
                                             "NULL AND id >= (SELECT outbox_log_floor(?::bigint)) AND status = "
                                             "'pending'"),
                    { from, from }));
    }
    // In flight: only within the ranges the lanes have leased, which the 16 rows of outbox_lanes bound, whatever the
    // backlog above them (bounded by the floor instead, a list of stuck rows read the state and lease of each of a
    // backlog of 300,000 rows: 4-8 s).
    if (inFlightOfLog) {
        branches.append(SqlFragment(
            QStringLiteral("stored_status IS NULL AND (SELECT max(l.claimed_through) FROM outbox_lanes l) IS NOT NULL "
                           "AND id >= (SELECT min(l.range_first_id) FROM outbox_lanes l "
                           "WHERE l.claimed_through IS NOT NULL) "
                           "AND id <= (SELECT max(l.claimed_through) FROM outbox_lanes l) AND status = 'in_flight'")));
    }
    return branches;
}
