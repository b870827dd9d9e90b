// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxpartitions.h"

#include "db/dbsession.h"
#include "db/maintenancepace.h"
#include "db/outboxerror.h"
#include "db/sqlvalues.h"

#include <QScopeGuard>
#include <QSqlQuery>

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

void OutboxPartitions::detach(const QString& partition, qint64 olderThanMs)
{
    // At most a FINALIZE of an interrupted detach, then this partition's own statement (migration 0023).
    for (int statements = 0;; ++statements) {
        QSqlQuery& next = m_session.exec(
            QStringLiteral("SELECT outbox_begin_detach(?::text, now() - ?::bigint * interval '1 millisecond')"),
            { partition, olderThanMs }, QStringLiteral("detaching the outbox partition %1").arg(partition));
        if (!next.next() || next.value(0).isNull())
            break;
        const QString statement = next.value(0).toString();
        if (statements == 2) {
            throw OutboxError(OutboxError::Kind::Other,
                QStringLiteral("detaching the outbox partition %1: still asked to run \"%2\" after two statements")
                    .arg(partition, statement));
        }
        // Cannot run in a transaction block, nor be prepared.
        m_session.execScript(statement, QStringLiteral("detaching the outbox partition %1").arg(partition));
    }
    m_session.exec(QStringLiteral("SELECT outbox_end_detach(now() - ?::bigint * interval '1 millisecond')"),
        { olderThanMs }, QStringLiteral("recording the detached outbox partition %1").arg(partition));
}

qint64 OutboxPartitions::dropPublished(qint64 olderThanMs, int batchSize)
{
    m_session.exec(QStringLiteral("SELECT outbox_lock_partition_maintenance()"), {},
        QStringLiteral("waiting for another purge of the outbox partitions to end"));
    const auto unlock = qScopeGuard([this] {
        try {
            m_session.exec(QStringLiteral("SELECT outbox_unlock_partition_maintenance()"), {},
                QStringLiteral("ending the purge of the outbox partitions"));
        } catch (const OutboxError&) {
            // The session is gone, and its lock with it.
        }
    });
    const auto stillListed = [this](const QString& name) {
        QSqlQuery& q
            = m_session.exec(QStringLiteral("SELECT EXISTS (SELECT FROM outbox_partitions WHERE name = ?::text)"),
                { name }, QStringLiteral("reading the outbox partitions"));
        return q.next() && q.value(0).toBool();
    };
    for (const OutboxPartition& partition : list()) {
        // Gone meanwhile if an earlier purge left its detach pending: finished and recorded with the first partition
        // detached here.
        if (!partition.isOpen() && stillListed(partition.name))
            detach(partition.name, olderThanMs);
    }
    // Also what an earlier purge detached and could not drop: counted a chunk at a time, then each index, then the
    // table, each step in a transaction of its own with a rest after it. Counting or removing a large table in one
    // step held up the writers' commits (migrations 0022, 0023).
    struct Dropped {
        QVariant lowerId;
        qint64 upperId;
        qint64 rows;
    };
    const QStringList detached = SqlValues::collect(
        m_session.exec(QStringLiteral("SELECT name FROM outbox_detached_partitions ORDER BY detached_at, name"), {},
            QStringLiteral("listing the detached outbox partitions")),
        [](const QSqlQuery& q) { return q.value(0).toString(); });
    // Runs `sql` until it returns false or NULL, resting after each run.
    const auto repeat = [this](const QString& sql, const QVariantList& binds, const QString& context) {
        MaintenancePace pace(RestPerStepWork);
        for (;;) {
            QSqlQuery& q = m_session.exec(sql, binds, context);
            const bool more = q.next() && !q.value(0).isNull() && q.value(0).toBool();
            pace.rest();
            if (!more)
                return;
        }
    };
    QList<Dropped> gone;
    for (const QString& name : detached) {
        repeat(QStringLiteral("SELECT outbox_count_detached(?::text, ?::int)"), { name, CountChunkRows },
            QStringLiteral("counting the rows of the detached outbox partition %1").arg(name));
        repeat(QStringLiteral("SELECT outbox_drop_detached_index(?::text) IS NOT NULL"), { name },
            QStringLiteral("dropping an index of the detached outbox partition %1").arg(name));
        MaintenancePace pace(RestPerStepWork);
        gone += SqlValues::collect(
            m_session.exec(
                QStringLiteral("SELECT lower_id, upper_id, dropped FROM outbox_drop_detached_table(?::text)"), { name },
                QStringLiteral("dropping the detached outbox partition %1").arg(name)),
            [](const QSqlQuery& q) {
                return Dropped { q.value(0), q.value(1).toLongLong(), q.value(2).toLongLong() };
            });
        pace.rest();
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
    if (!gone.isEmpty()) {
        // The lanes' batches and ticks of the rows gone (migration 0028).
        for (;;) {
            QSqlQuery& history = m_session.exec(QStringLiteral("SELECT outbox_forget_lane_history(?::int)"),
                { batchSize }, QStringLiteral("forgetting the lanes' history of dropped outbox rows"));
            if (!history.next() || history.value(0).toInt() < batchSize)
                break;
        }
    }
    return dropped;
}
