// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxrepository.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"

#include <QSet>
#include <QSqlQuery>
#include <algorithm>
#include <functional>

OutboxRepository::OutboxRepository(DbSession& session)
    : m_session(session)
{ }

SqlFragment OutboxRepository::enqueuePart(const DerivedMessage& message)
{
    // outbox_enqueue() (migration 0009) is the one definition, for services in any language.
    const SqlFragment call { QStringLiteral("SELECT outbox_enqueue(?::text, ") + message.aggregateIdSql
            + QStringLiteral(", ?::text, ") + message.payloadSql + QStringLiteral(", ?::jsonb, ") + message.dedupeKeySql
            + QStringLiteral(") AS id FROM "),
        { message.aggregateType, message.eventType, QString::fromUtf8(message.headers) } };
    return call + message.source;
}

qint64 OutboxRepository::enqueue(const NewOutboxMessage& message)
{
    const SqlFragment values { QStringLiteral(
                                   "(SELECT ?::text, ?::jsonb, ?::text) AS m(aggregate_id, payload, dedupe_key)"),
        { message.aggregateId, QString::fromUtf8(message.payload), message.dedupeKey } };
    const SqlFragment insert = enqueuePart({ values, message.aggregateType, QStringLiteral("m.aggregate_id"),
        message.eventType, QStringLiteral("m.payload"), message.headers, QStringLiteral("m.dedupe_key") });
    QSqlQuery& q = m_session.exec(insert.sql, insert.binds, QStringLiteral("adding the outbox message"));
    q.next();
    return q.value(0).toLongLong();
}

// The rows an operator transition moved to `after` (id, status before), in id order as the audit log lists them.
// `alsoRead` sees each row too, for the columns after those two.
static QList<StatusChange> changesTo(
    OutboxStatus after, QSqlQuery& q, const std::function<void(const QSqlQuery&)>& alsoRead = {})
{
    QList<StatusChange> changes = SqlValues::collect(q, [after, &alsoRead](const QSqlQuery& row) {
        if (alsoRead)
            alsoRead(row);
        return StatusChange { row.value(0).toLongLong(), OutboxStatusNames.fromColumn(row.value(1)), after };
    });
    std::sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return changes;
}

// An operator transition: `assignments` (SQL) for the rows of `ids` still in one of `from`, locked first so that the
// state read for the audit log is the one changed; `assignmentBinds` are the values of its placeholders. Rows: id,
// status before, ordering key.
QSqlQuery& OutboxRepository::moveFrom(const QList<qint64>& ids, const QList<OutboxStatus>& from,
    const QString& assignments, const QString& what, const QVariantList& assignmentBinds)
{
    return m_session.exec(
        QStringLiteral("WITH target AS ("
                       "  SELECT id, status FROM outbox WHERE id = ANY(?::bigint[]) AND status = ANY(?::text[]) "
                       "  FOR UPDATE) "
                       "UPDATE outbox o SET %1, updated_at = now() "
                       "FROM target t WHERE o.id = t.id AND o.status = t.status "
                       "RETURNING o.id, t.status, o.ordering_key")
            .arg(assignments),
        QVariantList { SqlValues::bigintArray(ids), SqlValues::nameArray(OutboxStatusNames.names(from)) }
            + assignmentBinds,
        what);
}

QList<StatusChange> OutboxRepository::requeue(const QList<qint64>& ids, const QDateTime& at)
{
    if (ids.isEmpty())
        return {};
    QSqlQuery& q = moveFrom(ids, retryableStatuses(),
        QStringLiteral("status = 'pending', attempts = 0, next_attempt_at = coalesce(?::timestamptz, now())"),
        QStringLiteral("requeueing outbox rows"), { SqlValues::timestamp(at) });
    return changesTo(OutboxStatus::Pending, q);
}

std::optional<OutboxRepository::ContentEdit> OutboxRepository::editAndRequeue(
    qint64 id, const MessageContent& expected, const MessageContent& after)
{
    // The lock first, with the guard on state and content: what the audit log records as "before" is what the
    // UPDATE replaced.
    QSqlQuery& q = m_session.exec(
        QStringLiteral(
            "WITH target AS ("
            "  SELECT id, status, payload, headers FROM outbox "
            "  WHERE id = ?::bigint AND status = ANY(?::text[]) AND payload = ?::jsonb AND headers = ?::jsonb "
            "  FOR UPDATE) "
            "UPDATE outbox o SET payload = ?::jsonb, headers = ?::jsonb, status = 'pending', attempts = 0, "
            "  next_attempt_at = now(), updated_at = now() "
            "FROM target t WHERE o.id = t.id AND o.status = t.status "
            "RETURNING o.id, t.status, jsonb_pretty(t.payload), jsonb_pretty(t.headers)"),
        { id, SqlValues::nameArray(OutboxStatusNames.names(retryableStatuses())), expected.payload, expected.headers,
            after.payload, after.headers },
        QStringLiteral("editing an outbox row"));
    if (!q.next())
        return std::nullopt;
    return ContentEdit { { q.value(0).toLongLong(), OutboxStatusNames.fromColumn(q.value(1)), OutboxStatus::Pending },
        { q.value(2).toString(), q.value(3).toString() } };
}

QList<StatusChange> OutboxRepository::discard(const QList<qint64>& ids)
{
    if (ids.isEmpty())
        return {};
    QSqlQuery& q = moveFrom(
        ids, failureStatuses(), QStringLiteral("status = 'discarded'"), QStringLiteral("discarding outbox rows"));
    QSet<QString> keys;
    const QList<StatusChange> changes = changesTo(OutboxStatus::Discarded, q, [&keys](const QSqlQuery& row) {
        if (!row.isNull(2))
            keys.insert(row.value(2).toString());
    });
    releaseWaiting(QStringList(keys.cbegin(), keys.cend()));
    return changes;
}

int OutboxRepository::releaseWaiting(const QStringList& keys)
{
    if (keys.isEmpty())
        return 0;
    // Keys are any text: SqlValues::textArray quotes each, as for the relay's errors.
    QSqlQuery& q
        = m_session.exec(QStringLiteral("SELECT outbox_release_waiting(?::text[])"), { SqlValues::textArray(keys) },
            QStringLiteral("releasing outbox rows waiting behind published or discarded ones"));
    return q.next() ? q.value(0).toInt() : 0;
}

int OutboxRepository::releaseResumed(int batch)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT outbox_release_resumed(?::int)"), { batch },
        QStringLiteral("letting go of the rows of resumed event types"));
    return q.next() ? q.value(0).toInt() : 0;
}

int OutboxRepository::analyzeForTheLog()
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT outbox_analyze_for_the_log()"), {},
        QStringLiteral("analyzing the partitions whose statistics predate the log"));
    return q.next() ? q.value(0).toInt() : 0;
}

QList<StatusChange> OutboxRepository::releaseExpiredLeases(const QList<qint64>& ids)
{
    if (ids.isEmpty())
        return {};
    QSqlQuery& q = m_session.exec(
        QStringLiteral("UPDATE outbox SET status = 'pending', next_attempt_at = now(), lease_owner = NULL, "
                       "  lease_expires_at = NULL, updated_at = now() "
                       "WHERE id = ANY(?::bigint[]) AND status = 'in_flight' AND lease_expires_at < now() "
                       "RETURNING id, 'in_flight'"),
        { SqlValues::bigintArray(ids) }, QStringLiteral("releasing outbox leases"));
    return changesTo(OutboxStatus::Pending, q);
}
