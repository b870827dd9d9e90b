// SPDX-License-Identifier: GPL-3.0-or-later
#include "idempotency/idempotencyrepository.h"

#include "db/dbsession.h"
#include "db/enumnames.h"
#include "db/keysetquery.h"
#include "db/outboxerror.h"
#include "db/sqlvalues.h"

#include <QSqlQuery>

// The outcome names of idempotency_begin() (migration 0009).
static constexpr EnumNames<ClaimResult::Kind, 4> ClaimOutcomeNames({ {
    { ClaimResult::Kind::Claimed, "execute" },
    { ClaimResult::Kind::Replay, "replay" },
    { ClaimResult::Kind::Mismatch, "mismatch" },
    { ClaimResult::Kind::InProgress, "in_progress" },
} });

static QVariant orNull(std::optional<qint64> value)
{
    return value ? QVariant(*value) : QVariant(QMetaType::fromType<qlonglong>());
}

IdempotencyRepository::IdempotencyRepository(DbSession& session)
    : m_session(session)
{ }

SqlFragment IdempotencyRepository::claimPart(const IdempotencyClaim& claim, Holding holding)
{
    // The rules live in SQL, where services in other languages call them too; a NULL lease claims for this
    // transaction only.
    const QVariant lease = holding == Holding::Lease ? QVariant(claim.leaseMs) : orNull(std::nullopt);
    return SqlFragment { QStringLiteral("SELECT outcome, record_id, taken_over, response_status, response_body::text, "
                                        "resource_id, retry_after_ms FROM idempotency_begin(?::text, ?::text, ?::text, "
                                        "?::bigint * interval '1 millisecond', ?::bigint * interval '1 millisecond')"),
        { claim.scope, claim.key, claim.fingerprint, lease, claim.ttlMs } };
}

ClaimResult IdempotencyRepository::claimFromRow(const QSqlQuery& row, int first)
{
    ClaimResult result;
    result.kind = ClaimOutcomeNames.fromColumn(row.value(first));
    result.recordId = row.value(first + 1).toLongLong();
    result.takenOver = row.value(first + 2).toBool();
    result.responseStatus = row.value(first + 3).toInt();
    result.responseBody = row.value(first + 4).toString().toUtf8();
    if (!row.value(first + 5).isNull())
        result.orderId = row.value(first + 5).toLongLong();
    result.retryAfterMs = row.value(first + 6).toLongLong();
    return result;
}

ClaimResult IdempotencyRepository::claim(const IdempotencyClaim& claim, Holding holding)
{
    const SqlFragment statement = claimPart(claim, holding);
    QSqlQuery& q = m_session.exec(statement.sql, statement.binds, QStringLiteral("claiming idempotency key"));
    q.next();
    return claimFromRow(q, 0);
}

SqlFragment IdempotencyRepository::settlementPart(
    const QString& call, const IdempotencyClaim& claim, const DerivedResponse& response)
{
    return SqlFragment { QStringLiteral("SELECT ") + call + QStringLiteral(" AS id FROM "),
        { claim.scope, claim.key, claim.fingerprint } }
    + response.source;
}

SqlFragment IdempotencyRepository::completionPart(const IdempotencyClaim& claim, const DerivedResponse& response)
{
    return settlementPart(QStringLiteral("idempotency_complete(?::text, ?::text, ?::text, ") + response.statusSql
            + QStringLiteral(", ") + response.bodySql + QStringLiteral(", ") + response.orderIdSql
            + QStringLiteral(")"),
        claim, response);
}

SqlFragment IdempotencyRepository::failurePart(
    const IdempotencyClaim& claim, bool retryable, const DerivedResponse& response)
{
    return settlementPart(QStringLiteral("idempotency_fail(?::text, ?::text, ?::text, ")
            + (retryable ? QStringLiteral("true, ") : QStringLiteral("false, ")) + response.statusSql
            + QStringLiteral(", ") + response.bodySql + QStringLiteral(")"),
        claim, response);
}

void IdempotencyRepository::complete(
    const IdempotencyClaim& claim, int responseStatus, const QByteArray& responseBody, std::optional<qint64> orderId)
{
    m_session.exec(
        QStringLiteral("SELECT idempotency_complete(?::text, ?::text, ?::text, ?::int, ?::jsonb, ?::bigint)"),
        { claim.scope, claim.key, claim.fingerprint, responseStatus, QString::fromUtf8(responseBody), orNull(orderId) },
        QStringLiteral("completing idempotency key"));
}

void IdempotencyRepository::fail(
    const IdempotencyClaim& claim, bool retryable, int responseStatus, const QByteArray& responseBody)
{
    m_session.exec(QStringLiteral("SELECT idempotency_fail(?::text, ?::text, ?::text, ?::boolean, ?::int, ?::jsonb)"),
        { claim.scope, claim.key, claim.fingerprint, retryable, responseStatus, QString::fromUtf8(responseBody) },
        QStringLiteral("recording idempotency failure"));
}

void IdempotencyRepository::recordRetryableFailure(
    const IdempotencyClaim& claim, int responseStatus, const QByteArray& responseBody)
{
    // Not part of the SQL contract: after a rolled-back attempt, a trace for operators (the key is free either
    // way). Written only where idempotency_begin() would let a new request take the key over.
    static const QString sql = QStringLiteral(
        "WITH lock AS (SELECT idempotency_try_lock(?::text, ?::text) AS got) "
        "INSERT INTO idempotency_keys AS k (scope, idem_key, fingerprint, status, failure_retryable, "
        "  response_status, response_body, expires_at) "
        "SELECT ?::text, ?::text, ?::text, 'failed', true, ?::int, ?::jsonb, now() + ?::bigint * interval "
        "'1 millisecond' "
        "FROM lock WHERE lock.got "
        "ON CONFLICT (scope, idem_key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, "
        "  status = 'failed', failure_retryable = true, response_status = EXCLUDED.response_status, "
        "  response_body = EXCLUDED.response_body, locked_until = NULL, "
        "  expires_at = EXCLUDED.expires_at, updated_at = now(), order_id = NULL "
        "WHERE idempotency_reusable(k)");
    m_session.exec(sql,
        { claim.scope, claim.key, claim.scope, claim.key, claim.fingerprint, responseStatus,
            QString::fromUtf8(responseBody), claim.ttlMs },
        QStringLiteral("recording released idempotency key"));
}

qint64 IdempotencyRepository::foldReplays()
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT idempotency_fold_replays()"), {}, QStringLiteral("counting the replays"));
    q.next();
    return q.value(0).toLongLong();
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
