// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/relayregistry.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"

RelayRegistry::RelayRegistry(DbSession& session)
    : m_session(session)
{ }

// Behind a transaction pooler the server sessions a relay's statements run on are shared and outlive it: it names
// none, and is judged by its heartbeat alone (stale, never gone).
bool RelayRegistry::sessionsAreOwn() const
{
    return !m_session.isTransactionPooled();
}

qint64 RelayRegistry::registerNode(const RelayRegistration& node)
{
    QSqlQuery& q = m_session.exec(
        // It has counted every second before it ran (ThroughputRepository::markCounted: one second short).
        QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, lease_ms, "
                       "heartbeat_ms, backend_pids, counted_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                       "CASE WHEN ?::boolean THEN ARRAY[pg_backend_pid()] ELSE '{}' END, "
                       "date_trunc('second', now()) - interval '1 second') "
                       "RETURNING id"),
        { node.name, node.host, node.pid, node.version, node.sink, node.workers, node.batchSize, node.leaseMs,
            node.heartbeatMs, sessionsAreOwn() },
        QStringLiteral("registering the relay"));
    q.next();
    return q.value(0).toLongLong();
}

bool RelayRegistry::update(qint64 id, const RelayHeartbeat& beat, bool stopping)
{
    const RelayTotals& t = beat.totals;
    const QVariant lastError = beat.lastError.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : beat.lastError;
    const QVariant failingForMs
        = beat.failingForMs ? QVariant(*beat.failingForMs) : QVariant(QMetaType::fromType<qlonglong>());
    const QVariant publishingTo = beat.publishingTo.isEmpty() ? QVariant(QMetaType::fromType<QString>())
                                                              : beat.publishingTo.join(QStringLiteral(", "));
    QSqlQuery& q = m_session.exec(
        QStringLiteral("UPDATE relay_nodes SET last_seen = now(), stopped_at = CASE WHEN ?::boolean THEN now() END, "
                       "sink_up = ?, published = ?, failed = ?, dead = ?, rescued = ?, fenced = ?, publish_rate = ?, "
                       "last_error = coalesce(?, last_error), "
                       "last_error_at = CASE WHEN ?::text IS NULL THEN last_error_at "
                       "ELSE now() - ?::bigint * interval '1 millisecond' END, "
                       "failing_since = CASE WHEN ?::bigint IS NULL THEN NULL "
                       "ELSE coalesce(failing_since, now() - ?::bigint * interval '1 millisecond') END, "
                       "backend_pids = CASE WHEN ?::boolean THEN pg_backend_pid() || ?::integer[] ELSE '{}' END, "
                       "paused_since = CASE WHEN ?::boolean THEN coalesce(paused_since, now()) END, "
                       "publishing_to = ?, "
                       // Alive after all (its sessions were ended, not its process): no longer gone.
                       "gone_at = NULL "
                       "WHERE id = ? AND stopped_at IS NULL"),
        { stopping, beat.sinkUp, t.published, t.failed, t.dead, t.rescued, t.fenced, beat.publishRate, lastError,
            lastError, beat.lastErrorAgeMs, failingForMs, failingForMs, sessionsAreOwn(),
            SqlValues::bigintArray(beat.workerBackendPids), beat.paused, publishingTo, id },
        QStringLiteral("sending the relay's heartbeat"));
    return q.numRowsAffected() == 1;
}

bool RelayRegistry::heartbeat(qint64 id, const RelayHeartbeat& beat)
{
    return update(id, beat, false);
}

void RelayRegistry::markStopped(qint64 id, const RelayHeartbeat& beat)
{
    update(id, beat, true);
}

int RelayRegistry::markGone()
{
    QSqlQuery& q = m_session.exec(QStringLiteral("UPDATE relay_nodes n SET gone_at = now() "
                                                 "WHERE n.gone_at IS NULL AND n.stopped_at IS NULL "
                                                 "  AND relay_node_state(n) = 'gone'"),
        {}, QStringLiteral("recording the relays that are gone"));
    return q.numRowsAffected();
}
