// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/relayfleet.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"
#include "db/unitofwork.h"
#include "operations/auditrepository.h"
#include "operations/operatorrole.h"

#include <QSet>

RelayFleet::RelayFleet(DbSession& session)
    : m_session(session)
{ }

static const QString NodeColumns
    = QStringLiteral("SELECT id, name, host, pid, version, sink, workers, batch_size, lease_ms, heartbeat_ms, "
                     "epoch_ms(started_at), epoch_ms(last_seen), epoch_ms(stopped_at), "
                     "epoch_ms(now()) - epoch_ms(last_seen), relay_node_state(n), "
                     "sink_up, last_error, epoch_ms(last_error_at), published, failed, dead, rescued, fenced, "
                     "publish_rate, epoch_ms(failing_since), epoch_ms(paused_since), publishing_to "
                     "FROM relay_nodes n ");

QList<RelayNode> RelayFleet::recent(int limit)
{
    return nodesFrom(m_session.exec(NodeColumns + QStringLiteral("ORDER BY last_seen DESC, id DESC LIMIT ?::int"),
        { limit }, QStringLiteral("reading the relay registry")));
}

QList<RelayNode> RelayFleet::byIds(const QList<qint64>& ids)
{
    return nodesFrom(m_session.exec(NodeColumns + QStringLiteral("WHERE id = ANY(?::bigint[]) ORDER BY id"),
        { SqlValues::bigintArray(ids) }, QStringLiteral("reading the relay registry")));
}

QList<RelayNode> RelayFleet::nodesFrom(QSqlQuery& q)
{
    QList<RelayNode> nodes;
    while (q.next()) {
        RelayNode node;
        node.id = q.value(0).toLongLong();
        node.name = q.value(1).toString();
        node.host = q.value(2).toString();
        node.pid = q.value(3).toLongLong();
        node.version = q.value(4).toString();
        node.sink = q.value(5).toString();
        node.workers = q.value(6).toInt();
        node.batchSize = q.value(7).toInt();
        node.leaseMs = q.value(8).toLongLong();
        node.heartbeatMs = q.value(9).toLongLong();
        node.startedAt = SqlValues::instant(q.value(10));
        node.lastSeen = SqlValues::instant(q.value(11));
        node.stoppedAt = SqlValues::instant(q.value(12));
        node.lastSeenAgeMs = q.value(13).toLongLong();
        node.state = RelayStateNames.fromColumn(q.value(14));
        node.sinkUp = q.value(15).toBool();
        node.lastError = q.value(16).toString();
        node.lastErrorAt = SqlValues::instant(q.value(17));
        node.published = q.value(18).toLongLong();
        node.failed = q.value(19).toLongLong();
        node.dead = q.value(20).toLongLong();
        node.rescued = q.value(21).toLongLong();
        node.fenced = q.value(22).toLongLong();
        node.publishRate = q.value(23).toDouble();
        // A relay's own failing_since outlives its death in the row; only a running one is failing now.
        if (node.state == RelayState::Failing)
            node.failingSince = SqlValues::instant(q.value(24));
        if (node.state == RelayState::Paused)
            node.pausedSince = SqlValues::instant(q.value(25));
        // Only a running relay publishes anywhere; a dead one's row keeps where it last did.
        if (isRunning(node.state))
            node.publishingTo = q.value(26).toString();
        nodes.append(node);
    }
    return nodes;
}

OperatorActionReport RelayFleet::forget(const QList<qint64>& ids, const QString& reason)
{
    const QString why = OperatorRole::requiredReason(reason, QStringLiteral("forget"), QStringLiteral("relays"));
    QList<AuditedChange> changes;
    try {
        UnitOfWork uow(m_session);
        // The state guard: relay_node_state() by the database's clock, under the row's lock, so a relay that
        // heartbeats again meanwhile stays.
        QSqlQuery& q = m_session.exec(QStringLiteral("DELETE FROM relay_nodes n WHERE n.id = ANY(?::bigint[]) "
                                                     "  AND relay_node_state(n) NOT IN ('alive', 'paused', 'failing') "
                                                     "RETURNING n.id, relay_node_state(n)"),
            { SqlValues::bigintArray(ids) }, QStringLiteral("forgetting relays"));
        changes = SqlValues::collect(q, [](const QSqlQuery& row) {
            return AuditedChange { row.value(0).toLongLong(), row.value(1).toString(), QStringLiteral("forgotten") };
        });
        std::sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        AuditRepository(m_session).record(AuditAction::ForgetRelay, why, AuditEntity::Relay, changes);
        uow.commit();
    } catch (const OutboxError& error) {
        if (error.kind() != OutboxError::Kind::Permission)
            throw;
        throw OperatorRole::refused(m_session, QStringLiteral("forget"), QStringLiteral("relays"), error);
    }
    OperatorActionReport report;
    QSet<qint64> forgotten;
    for (const AuditedChange& change : changes) {
        forgotten.insert(change.id);
        report.changed.append(change.id);
    }
    for (const qint64 id : ids) {
        if (!forgotten.contains(id))
            report.leftAlone.append(id);
    }
    return report;
}

int RelayFleet::purgeGone(qint64 olderThanMs, int batchSize)
{
    QSqlQuery& q
        = m_session.exec(QStringLiteral("DELETE FROM relay_nodes WHERE id IN ("
                                        "  SELECT id FROM relay_nodes "
                                        "  WHERE last_seen < now() - ?::bigint * interval '1 millisecond' "
                                        "    AND relay_node_state(relay_nodes) NOT IN ('alive', 'paused', 'failing') "
                                        "  ORDER BY last_seen LIMIT ?::int FOR UPDATE SKIP LOCKED)"),
            { olderThanMs, batchSize }, QStringLiteral("purging gone relays"));
    return q.numRowsAffected();
}
