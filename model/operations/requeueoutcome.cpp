// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/requeueoutcome.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"

#include <QSqlQuery>

RequeueOutcome RequeueOutcome::read(DbSession& session, const QList<qint64>& ids)
{
    RequeueOutcome outcome;
    if (ids.isEmpty())
        return outcome;
    // The cause is the signature (what the Failures tab groups by), so "connect to 10.0.0.6 …" and "connect to
    // 10.0.0.7 …" count as one; a row without one (written by hand) falls back on its first error line.
    QSqlQuery& q = session.exec(
        QStringLiteral(
            "WITH t AS MATERIALIZED ("
            "  SELECT id, status, coalesce(error_signature, left(split_part(last_error, E'\\n', 1), 200)) AS cause "
            "  FROM outbox_messages WHERE id = ANY(?::bigint[])), "
            "common AS (SELECT cause, count(*) AS n FROM t WHERE status IN ('failed', 'dead') "
            "  GROUP BY cause ORDER BY n DESC, cause LIMIT 1) "
            "SELECT count(*) FILTER (WHERE status = 'pending'), count(*) FILTER (WHERE status = 'in_flight'), "
            "  count(*) FILTER (WHERE status = 'published'), count(*) FILTER (WHERE status = 'failed'), "
            "  count(*) FILTER (WHERE status = 'dead'), count(*), "
            "  coalesce(array_agg(id ORDER BY id) FILTER (WHERE status IN ('failed', 'dead')), '{}')::text, "
            "  (SELECT cause FROM common), coalesce((SELECT n FROM common), 0) "
            "FROM t"),
        { SqlValues::bigintArray(ids) }, QStringLiteral("reading the outcome of the requeued rows"));
    q.next();
    outcome.pending = q.value(0).toLongLong();
    outcome.inFlight = q.value(1).toLongLong();
    outcome.published = q.value(2).toLongLong();
    outcome.failed = q.value(3).toLongLong();
    outcome.dead = q.value(4).toLongLong();
    outcome.gone = ids.size() - q.value(5).toLongLong();
    outcome.failedIds = SqlValues::parseBigintArray(q.value(6).toString());
    outcome.commonError = q.value(7).toString();
    outcome.commonErrorRows = q.value(8).toLongLong();
    return outcome;
}
