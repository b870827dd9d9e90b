// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/outboxleaserepository.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"

#include <QSqlQuery>

const QString OutboxLeaseRepository::ClaimSql
    = QStringLiteral("SELECT id, lease_token, aggregate_type, aggregate_id, event_type, dedupe_key, payload::text, "
                     "  headers::text, attempt, epoch_ms(created_at), ordering_key "
                     "FROM outbox_claim(?::text, ?::text, ?::int, ?::bigint)");

const QString OutboxLeaseRepository::CompleteSql
    = QStringLiteral("SELECT id, latency_ms FROM outbox_complete(?::bigint[], ?::bigint[])");

namespace {

// The ids and the tokens of `fences` as the two arrays the SQL functions take.
template<typename Fence> QVariantList fenceArrays(const QList<Fence>& fences)
{
    QList<qint64> ids;
    QList<qint64> tokens;
    for (const Fence& fence : fences) {
        ids.append(fence.id);
        tokens.append(fence.leaseToken);
    }
    return { SqlValues::bigintArray(ids), SqlValues::bigintArray(tokens) };
}

QList<FailedRow> failedRowsFrom(QSqlQuery& q)
{
    return SqlValues::collect(q, [](QSqlQuery& row) {
        return FailedRow { row.value(0).toLongLong(), row.value(1).toBool(), row.value(2).toString() };
    });
}

} // namespace

OutboxLeaseRepository::OutboxLeaseRepository(DbSession& session)
    : m_session(session)
{ }

OutboxLeaseRepository::Claim OutboxLeaseRepository::claimDue(
    const QString& relay, const QString& worker, int batchSize, qint64 leaseMs)
{
    QSqlQuery& q
        = m_session.exec(ClaimSql, { relay, worker, batchSize, leaseMs }, QStringLiteral("claiming outbox rows"));
    Claim claim;
    claim.messages = SqlValues::collect(q, [](QSqlQuery& row) {
        return OutboxMessage { row.value(0).toLongLong(), row.value(1).toLongLong(), row.value(2).toString(),
            row.value(3).toString(), row.value(4).toString(), row.value(5).toString(), row.value(6).toString().toUtf8(),
            row.value(7).toString().toUtf8(), row.value(8).toInt(), SqlValues::instant(row.value(9)),
            row.value(10).toString() };
    });
    if (claim.messages.isEmpty()) {
        // Only a claim that took nothing can be paused; asked then, not at every claim.
        QSqlQuery& pause = m_session.exec(QStringLiteral("SELECT paused_by, reason FROM outbox_relay_pause(?::text)"),
            { relay }, QStringLiteral("reading the relay's pause"));
        if (pause.next())
            claim.relayPause = RelayPause { pause.value(0).toString(), pause.value(1).toString() };
    }
    return claim;
}

std::optional<qint64> OutboxLeaseRepository::msUntilNextDue()
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT outbox_next_due_ms()"), {}, QStringLiteral("looking for the next due outbox row"));
    if (!q.next() || q.value(0).isNull())
        return std::nullopt;
    return q.value(0).toLongLong();
}

QList<PublishedRow> OutboxLeaseRepository::markPublished(const QList<LeaseFence>& fences)
{
    if (fences.isEmpty())
        return {};
    QSqlQuery& q = m_session.exec(CompleteSql, fenceArrays(fences), QStringLiteral("marking outbox rows published"));
    return SqlValues::collect(q, [](QSqlQuery& row) {
        return PublishedRow { row.value(0).toLongLong(), row.value(1).toLongLong() };
    });
}

int OutboxLeaseRepository::handBack(const QList<LeaseFence>& fences)
{
    if (fences.isEmpty())
        return 0;
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT outbox_hand_back(?::bigint[], ?::bigint[])"),
        fenceArrays(fences), QStringLiteral("handing outbox rows back"));
    return q.next() ? q.value(0).toInt() : 0;
}

int OutboxLeaseRepository::extendLeases(const QList<LeaseFence>& fences, qint64 leaseMs)
{
    if (fences.isEmpty())
        return 0;
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT outbox_extend_leases(?::bigint[], ?::bigint[], ?::bigint)"),
        fenceArrays(fences) << leaseMs, QStringLiteral("extending outbox leases"));
    return q.next() ? q.value(0).toInt() : 0;
}

QList<FailedRow> OutboxLeaseRepository::markFailed(
    const QString& worker, const QList<PublishFailure>& failures, int maxAttempts)
{
    if (failures.isEmpty())
        return {};
    QStringList errors;
    QList<qint64> backoffs;
    for (const PublishFailure& failure : failures) {
        errors.append(failure.error);
        backoffs.append(failure.backoffMs);
    }
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT id, dead, event_type "
                                                 "FROM outbox_fail(?::text, ?::bigint[], ?::bigint[], ?::text[], "
                                                 "  ?::bigint[], ?::int)"),
        QVariantList { worker } << fenceArrays(failures) << SqlValues::textArray(errors)
                                << SqlValues::bigintArray(backoffs) << maxAttempts,
        QStringLiteral("marking outbox rows failed"));
    return failedRowsFrom(q);
}

QList<FailedRow> OutboxLeaseRepository::rescueExpiredLeases(const QString& worker, int maxAttempts, int limit)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT id, dead, event_type FROM outbox_rescue_expired(?::text, ?::int, ?::int)"),
        { worker, maxAttempts, limit }, QStringLiteral("rescuing expired outbox leases"));
    return failedRowsFrom(q);
}
