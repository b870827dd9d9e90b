// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxstatus.h"

#include <QVariant>

QList<SqlFragment> outboxStatusBranches(const QList<OutboxStatus>& statuses, std::optional<qint64> firstId)
{
    QList<SqlFragment> branches;
    QStringList unpublishedOfLog;
    bool publishedOfLog = false;
    for (const OutboxStatus status : statuses) {
        const QString name = OutboxStatusNames.name(status);
        branches.append(SqlFragment(QStringLiteral("stored_status = '%1'").arg(name)));
        if (status == OutboxStatus::Pending || status == OutboxStatus::InFlight)
            unpublishedOfLog.append(QStringLiteral("'%1'").arg(name));
        publishedOfLog = publishedOfLog || status == OutboxStatus::Published;
    }
    // Every state a row of the log can have: its rows need no state read.
    if (publishedOfLog && unpublishedOfLog.size() == 2) {
        branches.append(SqlFragment(QStringLiteral("stored_status IS NULL")));
        return branches;
    }
    const QVariant from = firstId ? QVariant(*firstId) : QVariant(QMetaType::fromType<qint64>());
    // Published: every row below the floor (none left to publish, the floor NULL: every row), and above it those
    // whose lane has moved past them, which are at most outbox_log_published_through(). Newest first, the walk starts
    // there, below a backlog written while no relay runs, and reads the state of the few rows between the two bounds.
    if (publishedOfLog) {
        branches.append({ QStringLiteral("stored_status IS NULL AND id <= (SELECT outbox_log_published_through()) "
                                         "AND (id < (SELECT coalesce(outbox_log_floor(?::bigint), "
                                         "'9223372036854775807'::bigint)) OR status = 'published')"),
            { from } });
    }
    // Pending and in flight: only at or above the floor. With none left to publish (the floor NULL) the branch reads
    // nothing: a condition on the floor alone is decided once, before any row is read, where "id >= NULL" was tested
    // on every row of a created-range walk (5.4 s for a week of 2 million rows).
    if (!unpublishedOfLog.isEmpty()) {
        branches.append({ QStringLiteral("stored_status IS NULL AND (SELECT outbox_log_floor(?::bigint)) IS NOT NULL "
                                         "AND id >= (SELECT outbox_log_floor(?::bigint)) AND status IN (%1)")
                              .arg(unpublishedOfLog.join(QStringLiteral(", "))),
            { from, from } });
    }
    return branches;
}
