// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/throughputrepository.h"

#include "db/dbsession.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

namespace {

// Expired rows deleted per flush: each second one second expires, so this keeps up with any number of event types
// a deployment has.
constexpr int ExpireBatch = 1000;

} // namespace

QDateTime ThroughputRepository::Window::completeUntil() const
{
    if (runningRelays == 0)
        return serverNow; // nobody counts: nothing more will arrive
    if (countedUntil.isValid())
        return qMin(countedUntil, serverNow);
    return points.isEmpty() ? serverNow : points.first().start;
}

bool ThroughputRepository::isComplete(const Window& window, const MetricPoint& point)
{
    return point.start.addSecs(1) <= window.completeUntil();
}

ThroughputRepository::ThroughputRepository(DbSession& session)
    : m_session(session)
{ }

void ThroughputRepository::add(const QList<AddedSecond>& seconds)
{
    if (seconds.isEmpty())
        return;
    QJsonArray rows;
    for (const AddedSecond& second : seconds) {
        rows.append(QJsonObject { { QStringLiteral("age"), second.age },
            { QStringLiteral("event_type"), second.eventType }, { QStringLiteral("published"), second.published },
            { QStringLiteral("failed"), second.failed }, { QStringLiteral("dead"), second.dead } });
    }
    // As the metric rollups: a crash may lose the last second's counts, never data, so no flush waits for the disk.
    m_session.exec(QStringLiteral("SELECT set_config('synchronous_commit', 'off', true)"), {},
        QStringLiteral("adding the relay's seconds"));
    // Two of the relay's seconds may land on one of the database's (their clocks tick apart): summed first, since
    // one statement cannot update a row twice. In key order, so that relays adding at once cannot deadlock.
    m_session.exec(
        QStringLiteral(
            "INSERT INTO outbox_throughput_seconds AS t (second, event_type, published, failed, dead) "
            "SELECT date_trunc('second', now()) - r.age * interval '1 second', r.event_type, sum(r.published), "
            "  sum(r.failed), sum(r.dead) "
            "FROM jsonb_to_recordset(?::jsonb) AS r(age integer, event_type text, published integer, failed integer, "
            "  dead integer) "
            "GROUP BY 1, 2 ORDER BY 1, 2 "
            "ON CONFLICT (second, event_type) DO UPDATE SET published = t.published + excluded.published, "
            "  failed = t.failed + excluded.failed, dead = t.dead + excluded.dead"),
        { QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Compact)) },
        QStringLiteral("adding the relay's seconds"));
}

void ThroughputRepository::markCounted(qint64 relayId)
{
    // One second short of the current one: a relay's second maps to the database's by each flush's own clock, and
    // the two clocks' second boundaries lie apart, so the next flush may stamp a second one earlier than this one
    // would have. A second marked counted can then never grow.
    m_session.exec(QStringLiteral("UPDATE relay_nodes SET counted_until = date_trunc('second', now()) - interval "
                                  "'1 second' WHERE id = ?::bigint"),
        { relayId }, QStringLiteral("recording the relay's counted seconds"));
}

void ThroughputRepository::expire()
{
    m_session.exec(QStringLiteral("DELETE FROM outbox_throughput_seconds WHERE (second, event_type) IN ("
                                  "  SELECT second, event_type FROM outbox_throughput_seconds "
                                  "  WHERE second < now() - ?::integer * interval '1 second' "
                                  "  ORDER BY second LIMIT ?::integer FOR UPDATE SKIP LOCKED)"),
        { KeptSeconds, ExpireBatch }, QStringLiteral("deleting expired seconds"));
}

ThroughputRepository::Window ThroughputRepository::lastSeconds(int seconds, const QString& eventType)
{
    Window window;
    // A relay is running when its state says so; stale and gone ones count no more, and a relay seen last an hour
    // ago is neither (the bound keeps the read on relay_nodes_last_seen_idx however many relays the registry kept).
    QSqlQuery& relays = m_session.exec(
        QStringLiteral("SELECT epoch_ms(now()), "
                       "  CASE WHEN bool_and(n.counted_until IS NOT NULL) THEN epoch_ms(min(n.counted_until)) END, "
                       "  count(*) FROM relay_nodes n "
                       "WHERE n.last_seen > now() - interval '1 hour' "
                       "  AND relay_node_state(n) IN ('alive', 'failing', 'paused')"),
        {}, QStringLiteral("reading the relays' counted seconds"));
    if (relays.next()) {
        window.serverNow = QDateTime::fromMSecsSinceEpoch(relays.value(0).toLongLong(), Qt::UTC);
        window.runningRelays = relays.value(2).toInt();
        if (!relays.value(1).isNull())
            window.countedUntil = QDateTime::fromMSecsSinceEpoch(relays.value(1).toLongLong(), Qt::UTC);
    }
    // Every second of the window, also those without a row (nothing happened): a line drawn across a missing second
    // would invent a rate for it.
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT epoch_ms(g.second), coalesce(sum(s.published), 0), coalesce(sum(s.failed), 0), "
                       "  coalesce(sum(s.dead), 0) "
                       "FROM generate_series(date_trunc('second', now()) - (?::integer - 1) * interval '1 second', "
                       "  date_trunc('second', now()), interval '1 second') AS g(second) "
                       "LEFT JOIN outbox_throughput_seconds s ON s.second = g.second "
                       "  AND (coalesce(?::text, '') = '' OR s.event_type = ?::text) "
                       "GROUP BY g.second ORDER BY g.second"),
        { qBound(1, seconds, KeptSeconds), eventType, eventType }, QStringLiteral("reading the last seconds"));
    while (q.next()) {
        MetricPoint point;
        point.start = QDateTime::fromMSecsSinceEpoch(q.value(0).toLongLong(), Qt::UTC);
        point.counters.published = q.value(1).toLongLong();
        point.counters.failedAttempts = q.value(2).toLongLong();
        point.counters.deadLetters = q.value(3).toLongLong();
        window.points.append(point);
    }
    return window;
}
