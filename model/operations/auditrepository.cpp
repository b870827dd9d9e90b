// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/auditrepository.h"

#include "db/dbsession.h"
#include "db/keysetquery.h"
#include "db/sqlvalues.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

AuditRepository::AuditRepository(DbSession& session)
    : m_session(session)
{ }

std::optional<qint64> AuditRepository::record(const QString& action, const QString& reason, const QString& entity,
    const QList<StatusChange>& changes, const QString& details, const AuditCount& count)
{
    QList<AuditedChange> named;
    for (const StatusChange& change : changes)
        named.append({ change.id, OutboxStatusNames.name(change.before), OutboxStatusNames.name(change.after) });
    return record(action, reason, entity, named, details, count);
}

// A bigint to bind, NULL when there is none.
static QVariant bigintOrNull(const std::optional<qint64>& value)
{
    return value ? QVariant(*value) : QVariant(QMetaType::fromType<qint64>());
}

std::optional<qint64> AuditRepository::record(const QString& action, const QString& reason, const QString& entity,
    const QList<AuditedChange>& changes, const QString& details, const AuditCount& count)
{
    if (changes.isEmpty())
        return std::nullopt;
    QList<qint64> ids;
    QJsonObject before;
    QJsonObject after;
    for (const AuditedChange& change : changes) {
        ids.append(change.id);
        before.insert(QString::number(change.id), change.before);
        after.insert(QString::number(change.id), change.after);
    }
    // row_count is the database's (the trigger of migration 0026): an action's own entry counts its ids unless given
    // a count, and a continuation adds its ids to its action's entry.
    QSqlQuery& q = m_session.exec(
        QStringLiteral("INSERT INTO audit_log (action, reason, entity, entity_ids, state_before, state_after, details, "
                       "  action_id, row_count) "
                       "VALUES (?::text, ?::text, ?::text, ?::bigint[], ?::jsonb, ?::jsonb, ?::jsonb, ?::bigint, "
                       "  ?::bigint) "
                       "RETURNING id"),
        { action, reason, entity, SqlValues::bigintArray(ids),
            QString::fromUtf8(QJsonDocument(before).toJson(QJsonDocument::Compact)),
            QString::fromUtf8(QJsonDocument(after).toJson(QJsonDocument::Compact)),
            details.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(details),
            bigintOrNull(count.actionId), bigintOrNull(count.rows) },
        QStringLiteral("writing the audit log"));
    q.next();
    return q.value(0).toLongLong();
}

// What lists and a row's history read, in entriesFrom()'s order: an entry as it was written, its details without an
// edit's payloads and headers (which stay out of list queries), its action's count, and whether its action has
// rows in other entries (a continuation, or an action's own entry that continuations follow). The latter is one
// probe of audit_log_continuations_idx per entry read: as EXISTS, the planner may hash the whole log's
// continuations instead, which LIMIT rules out.
static const QString EntryColumns = QStringLiteral(
    "id, epoch_ms(at), actor, action, reason, entity, entity_ids::text, state_before::text, state_after::text, "
    "(details - 'payload' - 'headers')::text, NULL, NULL, NULL, NULL, action_id, "
    "coalesce(row_count, cardinality(entity_ids)), "
    "action_id IS NOT NULL OR (SELECT true FROM audit_log c WHERE c.action_id = audit_log.id LIMIT 1) IS NOT NULL");
// One action whole: its ids and states with its continuations' (in the order they were written), and an edit's
// content. Entries written before migration 0026 have no row_count: they count their ids. A continuation has none of
// its own, so read whole it is still its action's part.
static const QString WholeEntry = QStringLiteral(
    "SELECT a.id, epoch_ms(a.at), a.actor, a.action, a.reason, a.entity, "
    "  (a.entity_ids || coalesce(continued.ids, '{}'))::text, "
    "  (a.state_before || coalesce(continued.state_before, '{}'))::text, "
    "  (a.state_after || coalesce(continued.state_after, '{}'))::text, a.details::text, "
    "  jsonb_pretty(a.details->'payload'->'before'), jsonb_pretty(a.details->'payload'->'after'), "
    "  jsonb_pretty(a.details->'headers'->'before'), jsonb_pretty(a.details->'headers'->'after'), a.action_id, "
    "  coalesce(a.row_count, cardinality(a.entity_ids)), a.action_id IS NOT NULL "
    "FROM audit_log a CROSS JOIN LATERAL ("
    "  SELECT array_agg(e.id ORDER BY c.id, e.n) AS ids, "
    "         jsonb_object_agg(e.id, c.state_before -> e.id::text) AS state_before, "
    "         jsonb_object_agg(e.id, c.state_after -> e.id::text) AS state_after "
    "  FROM audit_log c CROSS JOIN LATERAL unnest(c.entity_ids) WITH ORDINALITY AS e(id, n) "
    "  WHERE c.action_id = a.id) continued "
    "WHERE a.id = ?::bigint");

QList<AuditEntry> AuditRepository::entriesFrom(QSqlQuery& q)
{
    QList<AuditEntry> entries;
    while (q.next()) {
        entries.append(AuditEntry { q.value(0).toLongLong(), SqlValues::instant(q.value(1)), q.value(2).toString(),
            q.value(3).toString(), q.value(4).toString(), q.value(5).toString(),
            SqlValues::parseBigintArray(q.value(6).toString()), q.value(7).toString().toUtf8(),
            q.value(8).toString().toUtf8(), q.value(9).toString().toUtf8(),
            { q.value(10).toString(), q.value(12).toString() }, { q.value(11).toString(), q.value(13).toString() },
            q.value(15).toLongLong(), q.value(14).toLongLong(), q.value(16).toBool() });
    }
    return entries;
}

QList<AuditEntry> AuditRepository::forEntity(const QString& entity, qint64 entityId, int limit)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT ") + EntryColumns
            + QStringLiteral(" FROM audit_log WHERE entity = ?::text AND entity_ids @> ARRAY[?::bigint] "
                             "ORDER BY id DESC LIMIT ?::int"),
        { entity, entityId, limit }, QStringLiteral("reading the audit log"));
    return entriesFrom(q);
}

QList<AuditEntry> AuditRepository::page(const AuditFilter& filter, int limit, qint64 beforeId)
{
    KeysetQuery query(QStringLiteral("audit_log"), EntryColumns);
    // An action's continuations are its later batches, not actions of their own: the walk passes over them.
    query.require(QStringLiteral("action_id IS NULL"));
    if (!filter.actor.isEmpty())
        query.require(QStringLiteral("actor = ?::text"), { filter.actor });
    if (!filter.action.isEmpty())
        query.require(QStringLiteral("action = ?::text"), { filter.action });
    if (filter.from.isValid())
        query.require(QStringLiteral("at >= ?::timestamptz"), { SqlValues::timestamp(filter.from) });
    if (filter.to.isValid())
        query.require(QStringLiteral("at < ?::timestamptz"), { SqlValues::timestamp(filter.to) });
    const SqlFragment sql = query.build(true, beforeId, limit);
    QSqlQuery& q = m_session.exec(sql.sql, sql.binds, QStringLiteral("reading the audit log"));
    return entriesFrom(q);
}

std::optional<AuditEntry> AuditRepository::whole(qint64 id)
{
    QSqlQuery& q = m_session.exec(WholeEntry, { id }, QStringLiteral("reading an audit entry"));
    const QList<AuditEntry> entries = entriesFrom(q);
    return entries.isEmpty() ? std::nullopt : std::optional(entries.first());
}

QList<AuditEntry> AuditRepository::byIds(const QList<qint64>& ids)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT ") + EntryColumns
            + QStringLiteral(" FROM audit_log WHERE id = ANY(?::bigint[]) ORDER BY id DESC"),
        { SqlValues::bigintArray(ids) }, QStringLiteral("reading the audit log"));
    return entriesFrom(q);
}
