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
#include <limits>

// `due`: the claim's candidates. A keyed candidate is taken only if every older row of its key that is not
// published or discarded is a candidate too: `blocker` is each key's oldest such row that is not, and the candidates
// of the key below it are taken. Those above it are parked as `waiting`, out of outbox_due_idx: otherwise they
// would fill every later claim's candidates while their blocker, a failed row retried later than they were due,
// sorts behind them. Parked only if the blocker's share lock can be had: its publish or discard then waits for this
// statement, and releases the key's waiting rows in a later statement that sees them. Behind a blocker in flight
// (or being changed) they stay pending: it will not be long.
//
// Pauses (migration 0019): a relay whose name is paused takes no candidates (`relay_pause`, read once). Candidates of
// a paused event type are `held`: parked as 'paused', out of outbox_due_idx, and not claimed; they are left out of
// `due`, so the blocker search finds them and the later rows of their key wait behind them. The share lock on the
// pause makes a resume wait for this claim's commit, so the resume lets go of the rows parked here too.
const QString OutboxLeaseRepository::ClaimSql = QStringLiteral(
    "WITH relay_pause AS MATERIALIZED ("
    "  SELECT paused_by, reason FROM outbox_pauses "
    "  WHERE scope = 'relay' AND target = ?::text AND resumed_at IS NULL), "
    "candidates AS MATERIALIZED ("
    "  SELECT id, ordering_key, event_type FROM outbox "
    "  WHERE id >= ?::bigint AND status IN ('pending', 'failed') AND next_attempt_at <= now() "
    "    AND NOT EXISTS (SELECT FROM relay_pause) "
    "  ORDER BY next_attempt_at, id LIMIT ?::int FOR UPDATE SKIP LOCKED), "
    "held AS MATERIALIZED ("
    "  SELECT c.id FROM candidates c "
    "  WHERE (SELECT EXISTS (SELECT FROM outbox_pauses WHERE scope = 'event_type' AND resumed_at IS NULL)) "
    "    AND EXISTS (SELECT FROM outbox_pauses p WHERE p.scope = 'event_type' AND p.target = c.event_type "
    "                  AND p.resumed_at IS NULL FOR SHARE)), "
    "paused AS ("
    "  UPDATE outbox o SET status = 'paused', updated_at = now() FROM held "
    "  WHERE o.id >= ?::bigint AND o.id = held.id RETURNING 1), "
    "due AS MATERIALIZED ("
    "  SELECT id, ordering_key FROM candidates WHERE id NOT IN (SELECT id FROM held)), "
    "blocker AS MATERIALIZED ("
    "  SELECT k.ordering_key, b.id, b.status "
    "  FROM (SELECT DISTINCT ordering_key FROM due WHERE ordering_key IS NOT NULL) k "
    "  CROSS JOIN LATERAL (SELECT o.id, o.status FROM outbox o "
    "    WHERE o.id >= ?::bigint AND o.ordering_key = k.ordering_key "
    "      AND o.status IN ('pending', 'in_flight', 'failed', 'dead', 'waiting', 'paused') "
    "      AND o.id NOT IN (SELECT id FROM due) "
    "    ORDER BY o.id LIMIT 1) b), "
    "parked AS ("
    "  UPDATE outbox o SET status = 'waiting', updated_at = now() "
    "  FROM due JOIN blocker b ON b.ordering_key = due.ordering_key "
    "  WHERE o.id >= ?::bigint AND o.id = due.id AND due.id > b.id "
    "    AND b.status <> 'in_flight' "
    "    AND EXISTS (SELECT FROM outbox h "
    "                WHERE h.id >= ?::bigint AND h.id = b.id AND h.status = b.status FOR SHARE SKIP LOCKED) "
    "  RETURNING 1), "
    "claimed AS ("
    "  UPDATE outbox o SET status = 'in_flight', lease_owner = ?::text, "
    "    lease_expires_at = now() + ?::bigint * interval '1 millisecond', "
    "    lease_token = o.lease_token + 1, attempts = o.attempts + 1, updated_at = now() "
    "  FROM due LEFT JOIN blocker b ON b.ordering_key = due.ordering_key "
    "  WHERE o.id >= ?::bigint AND o.id = due.id AND (b.id IS NULL OR due.id < b.id) "
    "  RETURNING o.id, o.lease_token, o.aggregate_type, o.aggregate_id, o.event_type, o.dedupe_key, "
    "    o.payload::text AS payload, o.headers::text AS headers, o.attempts, epoch_ms(o.created_at) AS created_ms, "
    "    o.ordering_key) "
    // One row even when nothing was claimed (its id NULL), to say how many rows were parked and whether the relay
    // is paused.
    "SELECT c.*, p.parked + (SELECT count(*) FROM paused) AS parked, r.paused_by, r.reason "
    "FROM (SELECT count(*) AS parked FROM parked) p LEFT JOIN relay_pause r ON true LEFT JOIN claimed c ON true");

const QString OutboxLeaseRepository::LiveFloorSql = QStringLiteral("SELECT outbox_live_floor()");

QVariantList OutboxLeaseRepository::claimBinds(
    const QString& relay, qint64 liveFloor, int batchSize, const QString& worker, qint64 leaseMs)
{
    // In the order of ClaimSql's placeholders: the floor bounds each of its six reads of the outbox.
    return { relay, liveFloor, batchSize, liveFloor, liveFloor, liveFloor, liveFloor, worker, leaseMs, liveFloor };
}

const QString OutboxLeaseRepository::MarkPublishedSql
    = QStringLiteral("WITH f AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS f(id bigint, token bigint)) "
                     "UPDATE outbox o SET status = 'published', published_at = now(), lease_owner = NULL, "
                     "  lease_expires_at = NULL, updated_at = now() "
                     "FROM f WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight' "
                     "  AND o.id BETWEEN ?::bigint AND ?::bigint "
                     "RETURNING o.id, epoch_ms(now()) - epoch_ms(o.created_at)");

OutboxLeaseRepository::OutboxLeaseRepository(DbSession& session)
    : m_session(session)
{ }

OutboxLeaseRepository::Claim OutboxLeaseRepository::claimDue(
    const QString& relay, const QString& worker, int batchSize, qint64 leaseMs)
{
    QSqlQuery& floorQuery
        = m_session.exec(LiveFloorSql, {}, QStringLiteral("finding the outbox partitions to claim from"));
    const qint64 liveFloor = floorQuery.next() ? floorQuery.value(0).toLongLong() : std::numeric_limits<qint64>::min();
    QSqlQuery& q = m_session.exec(
        ClaimSql, claimBinds(relay, liveFloor, batchSize, worker, leaseMs), QStringLiteral("claiming outbox rows"));
    Claim claim;
    QList<OutboxMessage>& messages = claim.messages;
    while (q.next()) {
        claim.parked = q.value(11).toInt();
        if (!q.value(12).isNull())
            claim.relayPause = RelayPause { q.value(12).toString(), q.value(13).toString() };
        if (q.value(0).isNull())
            break;
        messages.append(OutboxMessage { q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString(),
            q.value(3).toString(), q.value(4).toString(), q.value(5).toString(), q.value(6).toString().toUtf8(),
            q.value(7).toString().toUtf8(), q.value(8).toInt(), SqlValues::instant(q.value(9)),
            q.value(10).toString() });
    }
    std::sort(messages.begin(), messages.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return claim;
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
    const auto [lowest, highest] = std::minmax_element(
        fences.cbegin(), fences.cend(), [](const LeaseFence& a, const LeaseFence& b) { return a.id < b.id; });
    QSqlQuery& q = m_session.exec(MarkPublishedSql, { fencesJson(fences), lowest->id, highest->id },
        QStringLiteral("marking outbox rows published"));
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
        rows.append({ q.value(0).toLongLong(), OutboxStatusNames.fromColumn(q.value(1)) == OutboxStatus::Dead,
            q.value(2).toString() });
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
                       "  RETURNING o.id, o.status, o.attempts, f.error, o.event_type), "
                       "hist AS (INSERT INTO outbox_attempts (outbox_id, attempt, worker, error) "
                       "  SELECT id, attempts, ?::text, error FROM upd) "
                       "SELECT id, status, event_type FROM upd"),
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
                       "  RETURNING o.id, o.status, o.attempts, o.last_error, o.event_type), "
                       "hist AS (INSERT INTO outbox_attempts (outbox_id, attempt, worker, error) "
                       "  SELECT id, attempts, ?::text, last_error FROM upd) "
                       "SELECT id, status, event_type FROM upd"),
        { limit, maxAttempts, worker }, QStringLiteral("rescuing expired outbox leases"));
    return failedRowsFrom(q);
}
