#include "outboxrepository.h"

#include "dbsession.h"
#include "keysetquery.h"
#include "outboxerror.h"
#include "sqlvalues.h"
#include "stuckrowclassifier.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <algorithm>

OutboxRepository::OutboxRepository(DbSession& session)
    : m_session(session)
{ }

qint64 OutboxRepository::enqueue(const NewOutboxMessage& message)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, headers, dedupe_key) "
                       "VALUES (?::text, ?::text, ?::text, ?::jsonb, ?::jsonb, ?::text) RETURNING id"),
        { message.aggregateType, message.aggregateId, message.eventType, QString::fromUtf8(message.payload),
            QString::fromUtf8(message.headers), message.dedupeKey },
        QStringLiteral("adding the outbox message"));
    q.next();
    return q.value(0).toLongLong();
}

QList<OutboxMessage> OutboxRepository::claimDue(const QString& worker, int batchSize, qint64 leaseMs)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("WITH due AS ("
                       "  SELECT id FROM outbox WHERE status IN ('pending', 'failed') AND next_attempt_at <= now() "
                       "  ORDER BY next_attempt_at, id LIMIT ?::int FOR UPDATE SKIP LOCKED) "
                       "UPDATE outbox o SET status = 'in_flight', lease_owner = ?::text, "
                       "  lease_expires_at = now() + ?::bigint * interval '1 millisecond', "
                       "  lease_token = o.lease_token + 1, attempts = o.attempts + 1, updated_at = now() "
                       "FROM due WHERE o.id = due.id "
                       "RETURNING o.id, o.lease_token, o.aggregate_type, o.aggregate_id, o.event_type, o.dedupe_key, "
                       "  o.payload::text, o.headers::text, o.attempts, epoch_ms(o.created_at)"),
        { batchSize, worker, leaseMs }, QStringLiteral("claiming outbox rows"));
    QList<OutboxMessage> messages;
    while (q.next()) {
        messages.append(OutboxMessage { q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString(),
            q.value(3).toString(), q.value(4).toString(), q.value(5).toString(), q.value(6).toString().toUtf8(),
            q.value(7).toString().toUtf8(), q.value(8).toInt(), SqlValues::instant(q.value(9)) });
    }
    std::sort(messages.begin(), messages.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return messages;
}

static QString fencesJson(const QList<LeaseFence>& fences)
{
    QJsonArray rows;
    for (const LeaseFence& fence : fences)
        rows.append(QJsonObject { { QStringLiteral("id"), fence.id }, { QStringLiteral("token"), fence.leaseToken } });
    return QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Compact));
}

QList<PublishedRow> OutboxRepository::markPublished(const QList<LeaseFence>& fences)
{
    if (fences.isEmpty())
        return {};
    QSqlQuery& q = m_session.exec(
        QStringLiteral("WITH f AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS f(id bigint, token bigint)) "
                       "UPDATE outbox o SET status = 'published', published_at = now(), lease_owner = NULL, "
                       "  lease_expires_at = NULL, updated_at = now() "
                       "FROM f WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight' "
                       "RETURNING o.id, epoch_ms(now()) - epoch_ms(o.created_at)"),
        { fencesJson(fences) }, QStringLiteral("marking outbox rows published"));
    QList<PublishedRow> published;
    while (q.next())
        published.append({ q.value(0).toLongLong(), q.value(1).toLongLong() });
    return published;
}

int OutboxRepository::handBack(const QList<LeaseFence>& fences)
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

static QList<FailedRow> failedRowsFrom(QSqlQuery& q)
{
    QList<FailedRow> rows;
    while (q.next())
        rows.append({ q.value(0).toLongLong(), q.value(1).toString() == QLatin1String("dead") });
    return rows;
}

QList<FailedRow> OutboxRepository::markFailed(
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

QList<FailedRow> OutboxRepository::rescueExpiredLeases(const QString& worker, int maxAttempts, int limit)
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

QList<StatusChange> OutboxRepository::requeue(const QList<qint64>& ids)
{
    if (ids.isEmpty())
        return {};
    QSqlQuery& q = m_session.exec(
        QStringLiteral(
            "WITH target AS ("
            "  SELECT id, status FROM outbox WHERE id = ANY(?::bigint[]) AND status IN ('failed', 'dead') "
            "  FOR UPDATE) "
            "UPDATE outbox o SET status = 'pending', attempts = 0, next_attempt_at = now(), updated_at = now() "
            "FROM target t WHERE o.id = t.id AND o.status IN ('failed', 'dead') "
            "RETURNING o.id, t.status"),
        { SqlValues::bigintArray(ids) }, QStringLiteral("requeueing outbox rows"));
    QList<StatusChange> changes;
    while (q.next())
        changes.append({ q.value(0).toLongLong(), q.value(1).toString(), QStringLiteral("pending") });
    std::sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return changes;
}

namespace {

const QStringList OutboxStatuses { QStringLiteral("pending"), QStringLiteral("in_flight"), QStringLiteral("published"),
    QStringLiteral("failed"), QStringLiteral("dead") };

const QString SummaryColumns
    = QStringLiteral("id, aggregate_type, aggregate_id, event_type, status, attempts, epoch_ms(next_attempt_at), "
                     "left(split_part(last_error, E'\\n', 1), 200), lease_owner, epoch_ms(lease_expires_at), "
                     "epoch_ms(created_at), epoch_ms(published_at)");

OutboxRowSummary summaryFromRow(const QSqlQuery& q)
{
    return OutboxRowSummary { q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
        q.value(3).toString(), q.value(4).toString(), q.value(5).toInt(), SqlValues::instant(q.value(6)),
        q.value(7).toString(), q.value(8).toString(), SqlValues::instant(q.value(9)), SqlValues::instant(q.value(10)),
        SqlValues::instant(q.value(11)) };
}

// The rows matching `filter` as a keyset query, or nullopt when no row can match (e.g. "stuck" published rows).
std::optional<KeysetQuery> filteredQuery(const OutboxFilter& filter, const QString& columns)
{
    for (const QString& status : filter.statuses) {
        if (!OutboxStatuses.contains(status))
            throw OutboxError(
                OutboxError::Kind::InvalidInput, QStringLiteral("unknown outbox status '%1'").arg(status));
    }
    KeysetQuery query(QStringLiteral("outbox"), columns);
    if (!filter.eventType.isEmpty())
        query.require(QStringLiteral("event_type = ?::text"), { filter.eventType });
    if (!filter.aggregateId.isEmpty())
        query.require(QStringLiteral("aggregate_id = ?::text"), { filter.aggregateId });
    if (!filter.errorContains.isEmpty()) {
        query.require(QStringLiteral("last_error ILIKE '%' || ?::text || '%' ESCAPE '\\'"),
            { SqlValues::likeLiteral(filter.errorContains) });
    }
    if (filter.createdFrom.isValid())
        query.require(QStringLiteral("created_at >= ?::timestamptz"), { SqlValues::timestamp(filter.createdFrom) });
    if (filter.createdTo.isValid())
        query.require(QStringLiteral("created_at < ?::timestamptz"), { SqlValues::timestamp(filter.createdTo) });
    if (filter.unchangedForMs > 0) {
        query.require(
            QStringLiteral("updated_at < now() - ?::bigint * interval '1 millisecond'"), { filter.unchangedForMs });
    }
    // One branch per distinct status: a repeated status would return its rows twice.
    QStringList statuses = filter.statuses.isEmpty() && filter.stuckOnly ? OutboxStatuses : filter.statuses;
    statuses.removeDuplicates();
    bool anyBranch = false;
    for (const QString& status : statuses) {
        if (!filter.stuckOnly) {
            query.addBranch(QStringLiteral("status = ?::text"), { status });
            anyBranch = true;
            continue;
        }
        const QString stuck = StuckRowClassifier::condition(status);
        if (stuck.isEmpty())
            continue;
        QVariantList binds { status };
        if (StuckRowClassifier::needsThreshold(status))
            binds.append(filter.stuckThresholdMs);
        query.addBranch(QStringLiteral("status = ?::text AND ") + stuck, binds);
        anyBranch = true;
    }
    if (!statuses.isEmpty() && !anyBranch)
        return std::nullopt;
    return query;
}

} // namespace

OutboxPage OutboxRepository::page(const OutboxFilter& filter, int limit, qint64 beforeId)
{
    OutboxPage page;
    QSqlQuery& now = m_session.exec(QStringLiteral("SELECT epoch_ms(now())"), {}, QStringLiteral("reading the clock"));
    now.next();
    page.serverNow = SqlValues::instant(now.value(0));
    const std::optional<KeysetQuery> query = filteredQuery(filter, SummaryColumns);
    if (!query)
        return page;
    const KeysetQuery::Condition built = query->build(true, beforeId, limit);
    page.rows = SqlValues::collect(
        m_session.exec(built.sql, built.binds, QStringLiteral("listing outbox rows")), summaryFromRow);
    return page;
}

QList<qint64> OutboxRepository::matchingIds(const OutboxFilter& filter, int limit, qint64 afterId)
{
    const std::optional<KeysetQuery> query = filteredQuery(filter, QStringLiteral("id"));
    if (!query)
        return {};
    const KeysetQuery::Condition built = query->build(false, afterId, limit);
    return SqlValues::collect(m_session.exec(built.sql, built.binds, QStringLiteral("selecting outbox rows")),
        [](const QSqlQuery& q) { return q.value(0).toLongLong(); });
}

QList<OutboxRowSummary> OutboxRepository::rowsByIds(const QList<qint64>& ids)
{
    return SqlValues::collect(m_session.exec(QStringLiteral("SELECT ") + SummaryColumns
                                      + QStringLiteral(" FROM outbox WHERE id = ANY(?::bigint[]) ORDER BY id DESC"),
                                  { SqlValues::bigintArray(ids) }, QStringLiteral("refreshing outbox rows")),
        summaryFromRow);
}

std::optional<OutboxRowDetail> OutboxRepository::detail(qint64 id)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT ") + SummaryColumns
            + QStringLiteral(", dedupe_key, payload::text, headers::text, coalesce(last_error, ''), lease_token, "
                             "epoch_ms(updated_at) FROM outbox WHERE id = ?::bigint"),
        { id }, QStringLiteral("reading outbox row %1").arg(id));
    if (!q.next())
        return std::nullopt;
    return OutboxRowDetail { summaryFromRow(q), q.value(12).toString(), q.value(13).toString().toUtf8(),
        q.value(14).toString().toUtf8(), q.value(15).toString(), q.value(16).toLongLong(),
        SqlValues::instant(q.value(17)) };
}

QList<OutboxAttempt> OutboxRepository::attempts(qint64 outboxId, int limit)
{
    QSqlQuery& q
        = m_session.exec(QStringLiteral("SELECT attempt, worker, error, epoch_ms(created_at) FROM outbox_attempts "
                                        "WHERE outbox_id = ?::bigint ORDER BY id DESC LIMIT ?::int"),
            { outboxId, limit }, QStringLiteral("reading the attempt history"));
    return SqlValues::collect(q, [](const QSqlQuery& row) {
        return OutboxAttempt { row.value(0).toInt(), row.value(1).toString(), row.value(2).toString(),
            SqlValues::instant(row.value(3)) };
    });
}

QList<OutboxRowSummary> OutboxRepository::forAggregate(
    const QString& aggregateType, const QString& aggregateId, int limit)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT ") + SummaryColumns
            + QStringLiteral(" FROM outbox WHERE aggregate_id = ?::text AND aggregate_type = ?::text "
                             "ORDER BY id DESC LIMIT ?::int"),
        { aggregateId, aggregateType, limit }, QStringLiteral("reading the aggregate's events"));
    return SqlValues::collect(q, summaryFromRow);
}

QList<StatusChange> OutboxRepository::releaseExpiredLeases(const QList<qint64>& ids)
{
    if (ids.isEmpty())
        return {};
    QSqlQuery& q = m_session.exec(
        QStringLiteral("UPDATE outbox SET status = 'pending', next_attempt_at = now(), lease_owner = NULL, "
                       "  lease_expires_at = NULL, updated_at = now() "
                       "WHERE id = ANY(?::bigint[]) AND status = 'in_flight' AND lease_expires_at < now() "
                       "RETURNING id"),
        { SqlValues::bigintArray(ids) }, QStringLiteral("releasing outbox leases"));
    QList<StatusChange> changes;
    while (q.next())
        changes.append({ q.value(0).toLongLong(), QStringLiteral("in_flight"), QStringLiteral("pending") });
    std::sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return changes;
}

BacklogSample OutboxRepository::sampleBacklog(int countCap)
{
    // Both sub-queries read only the partial index of unpublished rows; the count stops at the cap.
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT (SELECT count(*) FROM (SELECT 1 FROM outbox "
                       "          WHERE status IN ('pending', 'in_flight', 'failed') LIMIT ?::int) s), "
                       "       coalesce((SELECT epoch_ms(now()) - epoch_ms(min(created_at)) FROM outbox "
                       "          WHERE status IN ('pending', 'in_flight', 'failed')), 0)"),
        { countCap + 1 }, QStringLiteral("sampling the outbox backlog"));
    q.next();
    const qint64 counted = q.value(0).toLongLong();
    return BacklogSample { qMin<qint64>(counted, countCap), counted > countCap, q.value(1).toLongLong() };
}

int OutboxRepository::purgePublished(qint64 olderThanMs, int batchSize)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("DELETE FROM outbox WHERE id IN ("
                       "  SELECT id FROM outbox "
                       "  WHERE status = 'published' AND published_at < now() - ?::bigint * interval '1 millisecond' "
                       "  ORDER BY published_at LIMIT ?::int FOR UPDATE SKIP LOCKED)"),
        { olderThanMs, batchSize }, QStringLiteral("purging published outbox rows"));
    return q.numRowsAffected();
}
