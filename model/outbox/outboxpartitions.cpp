// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxpartitions.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"

#include <QSqlQuery>
#include <QThread>

OutboxPartitions::OutboxPartitions(DbSession& session)
    : m_session(session)
{ }

QList<OutboxPartition> OutboxPartitions::list()
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT name, lower_id, upper_id, opened_at, closed_at "
                                                 "FROM outbox_partitions "
                                                 "ORDER BY upper_id IS NULL, lower_id NULLS FIRST"),
        {}, QStringLiteral("listing the outbox partitions"));
    QList<OutboxPartition> partitions;
    while (q.next()) {
        OutboxPartition partition;
        partition.name = q.value(0).toString();
        if (!q.value(1).isNull())
            partition.lowerId = q.value(1).toLongLong();
        if (!q.value(2).isNull())
            partition.upperId = q.value(2).toLongLong();
        partition.openedAt = q.value(3).toDateTime().toUTC();
        if (!q.value(4).isNull())
            partition.closedAt = q.value(4).toDateTime().toUTC();
        partitions.append(partition);
    }
    return partitions;
}

bool OutboxPartitions::rollIfOlderThan(qint64 ageMs)
{
    QSqlQuery& due = m_session.exec(
        QStringLiteral("SELECT opened_at <= now() - ?::bigint * interval '1 millisecond' OR closing_at_id IS NOT NULL "
                       "FROM outbox_partitions WHERE upper_id IS NULL"),
        { ageMs }, QStringLiteral("reading the open outbox partition"));
    const bool old = due.next() && due.value(0).toBool();
    const QString before = list().constLast().name;
    if (old) {
        // A CALL cannot be prepared, which the driver does with every exec().
        m_session.execScript(QStringLiteral("CALL outbox_roll()"), QStringLiteral("closing the open outbox partition"));
    } else {
        // Only finishes what an interrupted roll left: the sequence moved, the closed partitions described.
        m_session.exec(QStringLiteral("SELECT outbox_roll_advance()"), {},
            QStringLiteral("finishing the last outbox partition's roll"));
        m_session.exec(QStringLiteral("SELECT outbox_describe_partitions()"), {},
            QStringLiteral("describing the closed outbox partitions"));
    }
    return list().constLast().name != before;
}

std::optional<qint64> OutboxPartitions::firstIdCreatedFrom(const QDateTime& createdFrom)
{
    // The partitions that may hold such rows: the open one, those not described yet, and those whose newest row is
    // not older than the range. The first of them bounds the ids.
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT bool_or(lower_id IS NULL), min(lower_id) FROM outbox_partitions "
                       "WHERE upper_id IS NULL OR max_created_at IS NULL OR max_created_at >= ?::timestamptz"),
        { SqlValues::timestamp(createdFrom) }, QStringLiteral("finding the partitions of a created range"));
    // The first partition has no lower bound (MINVALUE): no id bounds the range.
    if (!q.next() || q.value(0).toBool() || q.value(1).isNull())
        return std::nullopt;
    return q.value(1).toLongLong();
}

qint64 OutboxPartitions::dropPublished(qint64 olderThanMs, int batchSize)
{
    for (const OutboxPartition& partition : list()) {
        if (!partition.isOpen()) {
            m_session.exec(
                QStringLiteral("SELECT outbox_detach_partition(?::text, now() - ?::bigint * interval '1 millisecond')"),
                { partition.name, olderThanMs },
                QStringLiteral("detaching the outbox partition %1").arg(partition.name));
        }
    }
    // Also what an earlier purge detached and could not drop. Each index, then the table, in a transaction of its
    // own, with a pause after each large one: removing every file at once stalled the writers' commits (migration
    // 0022).
    const auto pauseAfter = [](qint64 bytes) {
        if (bytes >= PacedDropBytes)
            QThread::msleep(DropPauseMs);
    };
    struct Dropped {
        QVariant lowerId;
        qint64 upperId;
        qint64 rows;
        qint64 bytes;
    };
    const QStringList detached = SqlValues::collect(
        m_session.exec(QStringLiteral("SELECT name FROM outbox_detached_partitions ORDER BY detached_at, name"), {},
            QStringLiteral("listing the detached outbox partitions")),
        [](const QSqlQuery& q) { return q.value(0).toString(); });
    QList<Dropped> gone;
    for (const QString& name : detached) {
        for (;;) {
            QSqlQuery& index = m_session.exec(QStringLiteral("SELECT outbox_drop_detached_index(?::text)"), { name },
                QStringLiteral("dropping an index of the detached outbox partition %1").arg(name));
            if (!index.next() || index.value(0).isNull())
                break;
            pauseAfter(index.value(0).toLongLong());
        }
        const QList<Dropped> table = SqlValues::collect(
            m_session.exec(
                QStringLiteral("SELECT lower_id, upper_id, dropped, bytes FROM outbox_drop_detached_table(?::text)"),
                { name }, QStringLiteral("dropping the detached outbox partition %1").arg(name)),
            [](const QSqlQuery& q) {
                return Dropped { q.value(0), q.value(1).toLongLong(), q.value(2).toLongLong(),
                    q.value(3).toLongLong() };
            });
        for (const Dropped& range : table)
            pauseAfter(range.bytes);
        gone += table;
    }
    qint64 dropped = 0;
    for (const Dropped& range : gone) {
        dropped += range.rows;
        for (;;) {
            QSqlQuery& attempts
                = m_session.exec(QStringLiteral("SELECT outbox_purge_attempts(?::bigint, ?::bigint, ?::int)"),
                    { range.lowerId, range.upperId, batchSize },
                    QStringLiteral("deleting the attempts of dropped outbox rows"));
            if (!attempts.next() || attempts.value(0).toInt() < batchSize)
                break;
        }
    }
    return dropped;
}
