// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/eventtypebreakdown.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"
#include "db/unitofwork.h"

#include <QSqlQuery>

const CappedCount& EventTypeCounts::count(OutboxStatus status) const
{
    return counts.at(OutboxStatusNames.values().indexOf(status));
}

EventTypeBreakdown EventTypeBreakdown::load(DbSession& session, int countCap, int typeLimit)
{
    const QStringList statuses = OutboxStatusNames.names();
    const QList<OutboxStatus> kinds = OutboxStatusNames.values(); // in the order of `statuses`
    // Priced at every count's cap, the statement would be JIT-compiled: 250 ms of compiling for a statement that
    // runs in tens. Off for this transaction only.
    UnitOfWork transaction(session);
    session.exec(QStringLiteral("SELECT set_config('jit', 'off', true)"), {}, QStringLiteral("switching JIT off"));
    // `types`: a skip scan, each step the next name after the last in the index. Per type and status one capped
    // count (a range of the index), and per unpublished status the first entry (its oldest row by id), read from
    // the index alone: asked for the row's created_at there, the planner walked the primary key instead, looking
    // for a row of a state that had none through the whole table (4.8 s at 2 M rows, 24 s at 10 M).
    // The rows of the log (migration 0028) are counted apart: those of a type not yet published among those read
    // within the cap in all (outbox_log_unpublished_within()), and the others, published, from the type's entries
    // with no stored status, less those. Where that read stopped before a lane's end (`stopped`), the counts of
    // unpublished rows are lower bounds, and so is the count of published ones, then taken below the log's floor
    // (every row of the log there is published).
    QSqlQuery& q = session.exec(
        QStringLiteral(
            "WITH RECURSIVE types(event_type) AS ("
            "  (SELECT event_type FROM outbox ORDER BY event_type LIMIT 1) "
            "  UNION ALL "
            "  SELECT (SELECT o.event_type FROM outbox o WHERE o.event_type > t.event_type "
            "          ORDER BY o.event_type LIMIT 1) "
            "  FROM types t WHERE t.event_type IS NOT NULL), "
            "listed AS (SELECT event_type FROM types WHERE event_type IS NOT NULL LIMIT ?::int + 1), "
            "unpublished AS MATERIALIZED (SELECT * FROM outbox_log_unpublished_within(?::int + 1)), "
            "log AS MATERIALIZED (SELECT u.event_type, "
            "    count(*) FILTER (WHERE NOT u.more AND u.status = 'pending') AS pending, "
            "    count(*) FILTER (WHERE NOT u.more AND u.status = 'in_flight') AS in_flight, "
            "    min(u.created_at) AS oldest "
            "  FROM unpublished u GROUP BY u.event_type), "
            "stopped AS MATERIALIZED (SELECT coalesce(bool_or(u.more), false) AS more, "
            "    coalesce(bool_or(u.more AND u.lease_expires_at IS NOT NULL), false) AS in_flight, "
            "    CASE WHEN bool_or(u.more) THEN outbox_log_floor() END AS floor "
            "  FROM unpublished u) "
            "SELECT l.event_type, "
            "  ARRAY(SELECT (SELECT count(*) FROM (SELECT 1 FROM outbox o WHERE o.event_type = l.event_type "
            "                 AND o.status = s.status LIMIT ?::int + 1) c) "
            "          + CASE s.status WHEN 'pending' THEN coalesce(g.pending, 0) "
            "              WHEN 'in_flight' THEN coalesce(g.in_flight, 0) "
            "              WHEN 'published' THEN CASE WHEN x.more "
            "                THEN (SELECT count(*) FROM (SELECT 1 FROM outbox o WHERE o.event_type = l.event_type "
            "                        AND o.status IS NULL AND o.id < x.floor LIMIT ?::int + 1) c) "
            "                ELSE (SELECT count(*) FROM (SELECT 1 FROM outbox o WHERE o.event_type = l.event_type "
            "                        AND o.status IS NULL "
            "                        LIMIT ?::int + 1 + coalesce(g.pending, 0) + coalesce(g.in_flight, 0)) c) "
            "                  - coalesce(g.pending, 0) - coalesce(g.in_flight, 0) END ELSE 0 END "
            "        FROM unnest(?::text[]) WITH ORDINALITY AS s(status, n) ORDER BY s.n)::text, "
            "  (SELECT epoch_ms(now()) - epoch_ms(least(min(first.created_at), g.oldest)) "
            "   FROM unnest(?::text[]) AS b(status) "
            "   CROSS JOIN LATERAL (SELECT o.id FROM outbox o WHERE o.event_type = l.event_type "
            "                         AND o.status = b.status ORDER BY o.id LIMIT 1) oldest "
            "   JOIN outbox first ON first.id = oldest.id), "
            "  epoch_ms(now()), x.more, x.in_flight "
            "FROM listed l LEFT JOIN log g ON g.event_type = l.event_type CROSS JOIN stopped x "
            "ORDER BY l.event_type"),
        { typeLimit, countCap, countCap, countCap, countCap, SqlValues::nameArray(statuses),
            SqlValues::nameArray(OutboxStatusNames.names(outboxStatusesWhere(isBacklog))) },
        QStringLiteral("counting the rows of each event type"));
    EventTypeBreakdown breakdown;
    while (q.next()) {
        breakdown.serverNow = SqlValues::instant(q.value(3));
        if (breakdown.types.size() == typeLimit) {
            breakdown.moreTypes = true;
            break;
        }
        EventTypeCounts type;
        type.eventType = q.value(0).toString();
        const QList<qint64> counted = SqlValues::parseBigintArray(q.value(1).toString());
        for (qsizetype i = 0; i < counted.size(); ++i) {
            const OutboxStatus status = kinds.value(i);
            const bool atLeast
                = (q.value(4).toBool() && (status == OutboxStatus::Pending || status == OutboxStatus::Published))
                || (q.value(5).toBool() && status == OutboxStatus::InFlight);
            type.counts.append(CappedCount::of(counted.at(i), countCap, atLeast));
        }
        if (!q.value(2).isNull())
            type.oldestUnpublishedAgeMs = q.value(2).toLongLong();
        breakdown.types.append(type);
    }
    return breakdown;
}
