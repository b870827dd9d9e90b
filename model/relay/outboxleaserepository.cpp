// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/outboxleaserepository.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"
#include "outbox/outboxstatus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <algorithm>

const QString OutboxLeaseRepository::ClaimSql
    = QStringLiteral("WITH due AS ("
                     "  SELECT id FROM outbox WHERE status IN ('pending', 'failed') AND next_attempt_at <= now() "
                     "  ORDER BY next_attempt_at, id LIMIT ?::int FOR UPDATE SKIP LOCKED) "
                     "UPDATE outbox o SET status = 'in_flight', lease_owner = ?::text, "
                     "  lease_expires_at = now() + ?::bigint * interval '1 millisecond', "
                     "  lease_token = o.lease_token + 1, attempts = o.attempts + 1, updated_at = now() "
                     "FROM due WHERE o.id = due.id "
                     "RETURNING o.id, o.lease_token, o.aggregate_type, o.aggregate_id, o.event_type, o.dedupe_key, "
                     "  o.payload::text, o.headers::text, o.attempts, epoch_ms(o.created_at)");

const QString OutboxLeaseRepository::MarkPublishedSql
    = QStringLiteral("WITH f AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS f(id bigint, token bigint)) "
                     "UPDATE outbox o SET status = 'published', published_at = now(), lease_owner = NULL, "
                     "  lease_expires_at = NULL, updated_at = now() "
                     "FROM f WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight' "
                     "RETURNING o.id, epoch_ms(now()) - epoch_ms(o.created_at)");

OutboxLeaseRepository::OutboxLeaseRepository(DbSession& session)
    : m_session(session)
{ }

QList<OutboxMessage> OutboxLeaseRepository::claimDue(const QString& worker, int batchSize, qint64 leaseMs)
{
    QSqlQuery& q = m_session.exec(ClaimSql, { batchSize, worker, leaseMs }, QStringLiteral("claiming outbox rows"));
    QList<OutboxMessage> messages;
    while (q.next()) {
        messages.append(OutboxMessage { q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString(),
            q.value(3).toString(), q.value(4).toString(), q.value(5).toString(), q.value(6).toString().toUtf8(),
            q.value(7).toString().toUtf8(), q.value(8).toInt(), SqlValues::instant(q.value(9)) });
    }
    std::sort(messages.begin(), messages.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return messages;
}

std::optional<qint64> OutboxLeaseRepository::msUntilNextDue()
{
    // outbox_due_idx: the first entry is the earliest.
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT greatest(0, epoch_ms(next_attempt_at) - epoch_ms(clock_timestamp())) FROM outbox "
                       "WHERE status IN ('pending', 'failed') ORDER BY next_attempt_at LIMIT 1"),
        {}, QStringLiteral("looking for the next due outbox row"));
    if (!q.next())
        return std::nullopt;
    return q.value(0).toLongLong();
}

static QString fencesJson(const QList<LeaseFence>& fences)
{
    QJsonArray rows;
    for (const LeaseFence& fence : fences)
        rows.append(QJsonObject { { QStringLiteral("id"), fence.id }, { QStringLiteral("token"), fence.leaseToken } });
    return QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Compact));
}

QList<PublishedRow> OutboxLeaseRepository::markPublished(const QList<LeaseFence>& fences)
{
    if (fences.isEmpty())
        return {};
    QSqlQuery& q
        = m_session.exec(MarkPublishedSql, { fencesJson(fences) }, QStringLiteral("marking outbox rows published"));
    QList<PublishedRow> published;
    while (q.next())
        published.append({ q.value(0).toLongLong(), q.value(1).toLongLong() });
    return published;
}

int OutboxLeaseRepository::handBack(const QList<LeaseFence>& fences)
{
    if (fences.isEmpty())
        return 0;
    // The claim counted an attempt; taking it back leaves the row as it was before: pending if it had never
    // been tried, failed (with its last error) otherwise. Due at once: the relay itself waits for the broker.
    QSqlQuery& q = m_session.exec(
        QStringLiteral("WITH f AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS f(id bigint, token bigint)) "
                       "UPDATE outbox o SET status = CASE WHEN o.attempts > 1 THEN 'failed' ELSE 'pending' END, "
                       "  attempts = o.attempts - 1, lease_owner = NULL, lease_expires_at = NULL, updated_at = now() "
                       "FROM f WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight'"),
        { fencesJson(fences) }, QStringLiteral("handing outbox rows back"));
    return q.numRowsAffected();
}

int OutboxLeaseRepository::extendLeases(const QList<LeaseFence>& fences, qint64 leaseMs)
{
    if (fences.isEmpty())
        return 0;
    QSqlQuery& q = m_session.exec(
        QStringLiteral("WITH f AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS f(id bigint, token bigint)) "
                       "UPDATE outbox o SET lease_expires_at = now() + ?::bigint * interval '1 millisecond' "
                       "FROM f WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight'"),
        { fencesJson(fences), leaseMs }, QStringLiteral("extending outbox leases"));
    return q.numRowsAffected();
}

static QList<FailedRow> failedRowsFrom(QSqlQuery& q)
{
    QList<FailedRow> rows;
    while (q.next())
        rows.append({ q.value(0).toLongLong(), OutboxStatusNames.fromColumn(q.value(1)) == OutboxStatus::Dead });
    return rows;
}

QList<FailedRow> OutboxLeaseRepository::markFailed(
    const QString& worker, const QList<PublishFailure>& failures, int maxAttempts)
{
    if (failures.isEmpty())
        return {};
    QJsonArray rows;
    for (const PublishFailure& failure : failures) {
        rows.append(QJsonObject { { QStringLiteral("id"), failure.id }, { QStringLiteral("token"), failure.leaseToken },
            { QStringLiteral("error"), failure.error }, { QStringLiteral("backoff_ms"), failure.backoffMs } });
    }
    QSqlQuery& q = m_session.exec(
        QStringLiteral("WITH f AS (SELECT * FROM jsonb_to_recordset(?::jsonb) "
                       "    AS f(id bigint, token bigint, error text, backoff_ms bigint)), "
                       "upd AS ("
                       "  UPDATE outbox o SET status = CASE WHEN o.attempts >= ?::int THEN 'dead' ELSE 'failed' END, "
                       "    next_attempt_at = now() + f.backoff_ms * interval '1 millisecond', last_error = f.error, "
                       "    lease_owner = NULL, lease_expires_at = NULL, updated_at = now() "
                       "  FROM f WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight' "
                       "  RETURNING o.id, o.status, o.attempts, f.error), "
                       "hist AS (INSERT INTO outbox_attempts (outbox_id, attempt, worker, error) "
                       "  SELECT id, attempts, ?::text, error FROM upd) "
                       "SELECT id, status FROM upd"),
        { QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Compact)), maxAttempts, worker },
        QStringLiteral("marking outbox rows failed"));
    return failedRowsFrom(q);
}

QList<FailedRow> OutboxLeaseRepository::rescueExpiredLeases(const QString& worker, int maxAttempts, int limit)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("WITH stale AS ("
                       "  SELECT id FROM outbox WHERE status = 'in_flight' AND lease_expires_at < now() "
                       "  ORDER BY lease_expires_at LIMIT ?::int FOR UPDATE SKIP LOCKED), "
                       "upd AS ("
                       "  UPDATE outbox o SET status = CASE WHEN o.attempts >= ?::int THEN 'dead' ELSE 'failed' END, "
                       "    next_attempt_at = now(), "
                       "    last_error = format('lease of %s expired at %s: worker presumed crashed', "
                       "                        o.lease_owner, o.lease_expires_at), "
                       "    lease_owner = NULL, lease_expires_at = NULL, updated_at = now() "
                       "  FROM stale WHERE o.id = stale.id AND o.status = 'in_flight' "
                       "  RETURNING o.id, o.status, o.attempts, o.last_error), "
                       "hist AS (INSERT INTO outbox_attempts (outbox_id, attempt, worker, error) "
                       "  SELECT id, attempts, ?::text, last_error FROM upd) "
                       "SELECT id, status FROM upd"),
        { limit, maxAttempts, worker }, QStringLiteral("rescuing expired outbox leases"));
    return failedRowsFrom(q);
}
