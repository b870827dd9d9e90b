// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/signaturebackfill.h"

#include "db/dbsession.h"

SignatureBackfill::SignatureBackfill(DbSession& session, int batchSize)
    : m_session(session)
    , m_batchSize(batchSize)
{ }

void SignatureBackfill::signTable(
    const QString& table, Result& result, qint64 Result::*counter, const std::function<void(const Result&)>& progress)
{
    QVariant cursor = qint64(0);
    while (!cursor.isNull()) {
        QSqlQuery& q = m_session.exec(
            QStringLiteral("SELECT signed, next_id FROM outbox_backfill_error_signatures(?::text, ?::bigint, ?::int)"),
            { table, cursor, m_batchSize }, QStringLiteral("backfilling error signatures of %1").arg(table));
        q.next();
        result.*counter += q.value(0).toLongLong();
        cursor = q.value(1);
        if (progress)
            progress(result);
    }
}

SignatureBackfill::Result SignatureBackfill::run(const std::function<void(const Result&)>& progress)
{
    Result result;
    signTable(QStringLiteral("outbox"), result, &Result::outboxRows, progress);
    signTable(QStringLiteral("outbox_attempts"), result, &Result::attemptRows, progress);
    return result;
}
