// SPDX-License-Identifier: GPL-3.0-or-later
#include "idempotency/idempotencyrepository.h"

#include "db/dbsession.h"
#include "db/keysetquery.h"
#include "db/outboxerror.h"
#include "db/sqlvalues.h"

#include <QSqlQuery>

// A record may be claimed afresh when its TTL has passed, its failure released the key, or the worker that
// held it stopped renewing its lease (crashed).
static const QString TakeoverAllowed
    = QStringLiteral("(k.expires_at <= now() OR (k.status = 'failed' AND k.failure_retryable) "
                     "OR (k.status = 'in_progress' AND k.locked_until <= now()))");

// Serialises everyone working on one (scope, key) for the rest of the transaction without blocking:
// a 64-bit hash collision only costs a spurious 409 that the client retries.
static const QString TryKeyLock = QStringLiteral("pg_try_advisory_xact_lock(hashtextextended(%1 || chr(31) || %2, 0))");

static constexpr qint64 UncommittedClaimRetryAfterMs = 1000;

IdempotencyRepository::IdempotencyRepository(DbSession& session)
    : m_session(session)
{ }

ClaimResult IdempotencyRepository::claim(const IdempotencyClaim& claim)
{
    // New key -> inserted in_progress. Same request already answered -> the conflict branch bumps the replay
    // counter and returns the stored response in the same statement (and, via set_config, makes this
    // transaction's commit asynchronous). Anything else returns no row and is resolved below.
    static const QString sql = QStringLiteral("WITH lock AS (SELECT ")
        + TryKeyLock.arg(QStringLiteral("?::text"), QStringLiteral("?::text"))
        + QStringLiteral(
            " AS got) "
            "INSERT INTO idempotency_keys AS k (scope, idem_key, fingerprint, status, locked_until, expires_at) "
            "SELECT ?::text, ?::text, ?::text, 'in_progress', now() + ?::bigint * interval '1 millisecond', now() + "
            "?::bigint * interval '1 millisecond' "
            "FROM lock WHERE lock.got "
            "ON CONFLICT (scope, idem_key) DO UPDATE SET replay_count = k.replay_count + 1, last_replayed_at = now() "
            "WHERE k.fingerprint = EXCLUDED.fingerprint AND k.expires_at > now() "
            "  AND (k.status = 'completed' OR (k.status = 'failed' AND NOT k.failure_retryable)) "
            "RETURNING k.id, k.status, k.response_status, k.response_body::text, k.order_id, "
            "  CASE WHEN k.status <> 'in_progress' THEN set_config('synchronous_commit', 'off', true) END");
    QSqlQuery& q = m_session.exec(sql,
        { claim.scope, claim.key, claim.scope, claim.key, claim.fingerprint, claim.leaseMs, claim.ttlMs },
        QStringLiteral("claiming idempotency key"));
    if (!q.next())
        return resolveUnclaimed(claim);
    ClaimResult result;
    result.recordId = q.value(0).toLongLong();
    if (KeyStatusNames.fromColumn(q.value(1)) == KeyStatus::InProgress) {
        result.kind = ClaimResult::Kind::Claimed;
        return result;
    }
    result.kind = ClaimResult::Kind::Replay;
    result.responseStatus = q.value(2).toInt();
    result.responseBody = q.value(3).toString().toUtf8();
    if (!q.value(4).isNull())
        result.orderId = q.value(4).toLongLong();
    return result;
}

ClaimResult IdempotencyRepository::resolveUnclaimed(const IdempotencyClaim& claim)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT k.id, k.fingerprint, k.status, ") + TakeoverAllowed
            + QStringLiteral(", greatest(epoch_ms(k.locked_until) - epoch_ms(now()), 0) "
                             "FROM idempotency_keys k WHERE k.scope = ? AND k.idem_key = ?"),
        { claim.scope, claim.key }, QStringLiteral("reading idempotency key"));
    ClaimResult result;
    if (!q.next()) {
        // The first request's INSERT is not committed yet (we could not take its lock).
        result.kind = ClaimResult::Kind::InProgress;
        result.retryAfterMs = UncommittedClaimRetryAfterMs;
        return result;
    }
    const qint64 id = q.value(0).toLongLong();
    const bool sameRequest = q.value(1).toString() == claim.fingerprint;
    const KeyStatus status = KeyStatusNames.fromColumn(q.value(2));
    const bool takeoverAllowed = q.value(3).toBool();
    const qint64 leaseLeftMs = q.value(4).toLongLong();
    result.recordId = id;

    if (takeoverAllowed) {
        QSqlQuery& takeover = m_session.exec(
            QStringLiteral(
                "UPDATE idempotency_keys k SET fingerprint = ?, status = 'in_progress', "
                "failure_retryable = NULL, response_status = NULL, response_body = NULL, "
                "locked_until = now() + ?::bigint * interval '1 millisecond', "
                "expires_at = now() + ?::bigint * interval '1 millisecond', created_at = now(), updated_at = now(), "
                "replay_count = 0, last_replayed_at = NULL, order_id = NULL "
                "WHERE k.id = ? AND ")
                + TakeoverAllowed + QStringLiteral(" AND ")
                + TryKeyLock.arg(QStringLiteral("k.scope"), QStringLiteral("k.idem_key"))
                + QStringLiteral(" RETURNING k.id"),
            { claim.fingerprint, claim.leaseMs, claim.ttlMs, id }, QStringLiteral("taking over idempotency key"));
        if (takeover.next()) {
            result.kind = ClaimResult::Kind::Claimed;
            result.takenOver = true;
            return result;
        }
        result.kind = ClaimResult::Kind::InProgress;
        result.retryAfterMs = UncommittedClaimRetryAfterMs;
        return result;
    }
    if (!sameRequest) {
        result.kind = ClaimResult::Kind::Mismatch;
        return result;
    }
    // Same request, and either still in progress or being taken over by a concurrent retry right now.
    result.kind = ClaimResult::Kind::InProgress;
    result.retryAfterMs = status == KeyStatus::InProgress ? qMax<qint64>(leaseLeftMs, 1) : UncommittedClaimRetryAfterMs;
    return result;
}

SqlFragment IdempotencyRepository::completionPart(qint64 recordId, const DerivedResponse& response)
{
    return SqlFragment { QStringLiteral("UPDATE idempotency_keys k SET status = 'completed', response_status = ")
        + response.statusSql + QStringLiteral(", response_body = ") + response.bodySql + QStringLiteral(", order_id = ")
        + response.orderIdSql + QStringLiteral(", locked_until = NULL, updated_at = now() FROM ") }
    + response.source
        + SqlFragment { QStringLiteral(" WHERE k.id = ?::bigint AND k.status = 'in_progress' RETURNING k.id"),
              { recordId } };
}

OutboxError IdempotencyRepository::claimLost(qint64 recordId)
{
    return OutboxError(OutboxError::Kind::Other,
        QStringLiteral("idempotency record %1 is no longer in progress; its claim was lost").arg(recordId));
}

void IdempotencyRepository::complete(
    qint64 recordId, int responseStatus, const QByteArray& responseBody, std::optional<qint64> orderId)
{
    const SqlFragment values { QStringLiteral("(SELECT ?::int, ?::jsonb, ?::bigint) AS r(status, body, order_id)"),
        { responseStatus, QString::fromUtf8(responseBody),
            orderId ? QVariant(*orderId) : QVariant(QMetaType::fromType<qlonglong>()) } };
    const SqlFragment update = completionPart(
        recordId, { values, QStringLiteral("r.status"), QStringLiteral("r.body"), QStringLiteral("r.order_id") });
    QSqlQuery& q = m_session.exec(update.sql, update.binds, QStringLiteral("completing idempotency key"));
    if (!q.next())
        throw claimLost(recordId);
}

void IdempotencyRepository::fail(qint64 recordId, bool retryable, int responseStatus, const QByteArray& responseBody)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("UPDATE idempotency_keys SET status = 'failed', failure_retryable = ?, response_status = ?, "
                       "response_body = ?::jsonb, locked_until = NULL, updated_at = now() "
                       "WHERE id = ? AND status = 'in_progress' RETURNING id"),
        { retryable, responseStatus, QString::fromUtf8(responseBody), recordId },
        QStringLiteral("recording idempotency failure"));
    if (!q.next())
        throw claimLost(recordId);
}

void IdempotencyRepository::recordRetryableFailure(
    const IdempotencyClaim& claim, int responseStatus, const QByteArray& responseBody)
{
    static const QString sql = QStringLiteral("WITH lock AS (SELECT ")
        + TryKeyLock.arg(QStringLiteral("?::text"), QStringLiteral("?::text"))
        + QStringLiteral(" AS got) "
                         "INSERT INTO idempotency_keys AS k (scope, idem_key, fingerprint, status, failure_retryable, "
                         "  response_status, response_body, expires_at) "
                         "SELECT ?::text, ?::text, ?::text, 'failed', true, ?::int, ?::jsonb, now() + ?::bigint * "
                         "interval '1 millisecond' "
                         "FROM lock WHERE lock.got "
                         "ON CONFLICT (scope, idem_key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, "
                         "  status = 'failed', failure_retryable = true, response_status = EXCLUDED.response_status, "
                         "  response_body = EXCLUDED.response_body, locked_until = NULL, "
                         "  expires_at = EXCLUDED.expires_at, updated_at = now(), order_id = NULL "
                         "WHERE ")
        + TakeoverAllowed;
    m_session.exec(sql,
        { claim.scope, claim.key, claim.scope, claim.key, claim.fingerprint, responseStatus,
            QString::fromUtf8(responseBody), claim.ttlMs },
        QStringLiteral("recording released idempotency key"));
}

static const QString RecordColumns = QStringLiteral(
    "id, scope, idem_key, fingerprint, status, failure_retryable, coalesce(response_status, 0), "
    "epoch_ms(locked_until), epoch_ms(expires_at), epoch_ms(created_at), epoch_ms(updated_at), replay_count, "
    "epoch_ms(last_replayed_at), order_id");

static IdempotencyRecord recordFromRow(const QSqlQuery& q)
{
    IdempotencyRecord r;
    r.id = q.value(0).toLongLong();
    r.scope = q.value(1).toString();
    r.key = q.value(2).toString();
    r.fingerprint = q.value(3).toString();
    r.status = KeyStatusNames.fromColumn(q.value(4));
    if (!q.value(5).isNull())
        r.failureRetryable = q.value(5).toBool();
    r.responseStatus = q.value(6).toInt();
    r.lockedUntil = SqlValues::instant(q.value(7));
    r.expiresAt = SqlValues::instant(q.value(8));
    r.createdAt = SqlValues::instant(q.value(9));
    r.updatedAt = SqlValues::instant(q.value(10));
    r.replayCount = q.value(11).toInt();
    r.lastReplayedAt = SqlValues::instant(q.value(12));
    if (!q.value(13).isNull())
        r.orderId = q.value(13).toLongLong();
    return r;
}

std::optional<IdempotencyRecord> IdempotencyRepository::findWhere(const QString& condition, const QVariantList& binds)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT ") + RecordColumns
            + QStringLiteral(", response_body::text FROM idempotency_keys WHERE ") + condition,
        binds, QStringLiteral("reading idempotency key"));
    if (!q.next())
        return std::nullopt;
    IdempotencyRecord record = recordFromRow(q);
    record.responseBody = q.value(14).toString().toUtf8();
    return record;
}

std::optional<IdempotencyRecord> IdempotencyRepository::find(const QString& scope, const QString& key)
{
    return findWhere(QStringLiteral("scope = ?::text AND idem_key = ?::text"), { scope, key });
}

std::optional<IdempotencyRecord> IdempotencyRepository::findById(qint64 id)
{
    return findWhere(QStringLiteral("id = ?::bigint"), { id });
}

std::optional<IdempotencyRecord> IdempotencyRepository::findByOrder(qint64 orderId)
{
    return findWhere(QStringLiteral("order_id = ?::bigint ORDER BY id DESC LIMIT 1"), { orderId });
}

// The smallest string greater than every string starting with `prefix`, in code point order (which is the
// byte order of UTF-8, i.e. COLLATE "C"): the prefix with its last code point incremented. nullopt when
// every code point is already the largest one.
static std::optional<QString> prefixSuccessor(const QString& prefix)
{
    QList<uint> codePoints = prefix.toUcs4();
    while (!codePoints.isEmpty() && codePoints.last() == 0x10FFFF)
        codePoints.removeLast();
    if (codePoints.isEmpty())
        return std::nullopt;
    uint& last = codePoints.last();
    last = last == 0xD7FF ? 0xE000 : last + 1; // surrogates are not characters
    return QString::fromUcs4(reinterpret_cast<const char32_t*>(codePoints.constData()), codePoints.size());
}

QList<IdempotencyRecord> IdempotencyRepository::page(const KeyFilter& filter, int limit, qint64 beforeId)
{
    KeysetQuery query(QStringLiteral("idempotency_keys"), RecordColumns);
    if (!filter.keyPrefix.isEmpty()) {
        // A byte-wise range on idempotency_keys_key_prefix_idx: [prefix, successor of prefix).
        const std::optional<QString> end = prefixSuccessor(filter.keyPrefix);
        if (end) {
            query.require(QStringLiteral("idem_key COLLATE \"C\" >= ?::text AND idem_key COLLATE \"C\" < ?::text"),
                { filter.keyPrefix, *end });
        } else {
            query.require(QStringLiteral("idem_key COLLATE \"C\" >= ?::text"), { filter.keyPrefix });
        }
    }
    if (filter.createdFrom.isValid())
        query.require(QStringLiteral("created_at >= ?::timestamptz"), { SqlValues::timestamp(filter.createdFrom) });
    if (filter.createdTo.isValid())
        query.require(QStringLiteral("created_at < ?::timestamptz"), { SqlValues::timestamp(filter.createdTo) });
    for (const KeyStatus status : SqlValues::distinct(filter.statuses))
        query.addBranch(QStringLiteral("status = ?::text"), { KeyStatusNames.name(status) });
    const SqlFragment built = query.build(true, beforeId, limit);
    return SqlValues::collect(
        m_session.exec(built.sql, built.binds, QStringLiteral("listing idempotency keys")), recordFromRow);
}

QList<IdempotencyRecord> IdempotencyRepository::recordsByIds(const QList<qint64>& ids)
{
    return SqlValues::collect(
        m_session.exec(QStringLiteral("SELECT ") + RecordColumns
                + QStringLiteral(" FROM idempotency_keys WHERE id = ANY(?::bigint[]) ORDER BY id DESC"),
            { SqlValues::bigintArray(ids) }, QStringLiteral("refreshing idempotency keys")),
        recordFromRow);
}

int IdempotencyRepository::purgeExpired(int batchSize)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("DELETE FROM idempotency_keys WHERE id IN ("
                       "  SELECT id FROM idempotency_keys "
                       "  WHERE expires_at < now() AND (status <> 'in_progress' OR locked_until < now()) "
                       "  ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED)"),
        { batchSize }, QStringLiteral("purging expired idempotency keys"));
    return q.numRowsAffected();
}
