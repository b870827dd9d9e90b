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

void AuditRepository::record(const QString& action, const QString& reason, const QString& entity,
    const QList<StatusChange>& changes, const QString& details)
{
    QList<AuditedChange> named;
    for (const StatusChange& change : changes)
        named.append({ change.id, OutboxStatusNames.name(change.before), OutboxStatusNames.name(change.after) });
    record(action, reason, entity, named, details);
}

void AuditRepository::record(const QString& action, const QString& reason, const QString& entity,
    const QList<AuditedChange>& changes, const QString& details)
{
    if (changes.isEmpty())
        return;
    QList<qint64> ids;
    QJsonObject before;
    QJsonObject after;
    for (const AuditedChange& change : changes) {
        ids.append(change.id);
        before.insert(QString::number(change.id), change.before);
        after.insert(QString::number(change.id), change.after);
    }
    m_session.exec(
        QStringLiteral("INSERT INTO audit_log (action, reason, entity, entity_ids, state_before, state_after, details) "
                       "VALUES (?::text, ?::text, ?::text, ?::bigint[], ?::jsonb, ?::jsonb, ?::jsonb)"),
        { action, reason, entity, SqlValues::bigintArray(ids),
            QString::fromUtf8(QJsonDocument(before).toJson(QJsonDocument::Compact)),
            QString::fromUtf8(QJsonDocument(after).toJson(QJsonDocument::Compact)),
            details.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(details) },
        QStringLiteral("writing the audit log"));
}

// What lists read: the details without an edit's payloads and headers, which stay out of list queries.
static const QString EntryColumns = QStringLiteral(
    "id, epoch_ms(at), actor, action, reason, entity, entity_ids::text, state_before::text, state_after::text, "
    "(details - 'payload' - 'headers')::text, NULL, NULL, NULL, NULL");
// One entry whole: an edit's content too.
static const QString EntryWithContentColumns = QStringLiteral(
    "id, epoch_ms(at), actor, action, reason, entity, entity_ids::text, state_before::text, state_after::text, "
    "details::text, jsonb_pretty(details->'payload'->'before'), jsonb_pretty(details->'payload'->'after'), "
    "jsonb_pretty(details->'headers'->'before'), jsonb_pretty(details->'headers'->'after')");

QList<AuditEntry> AuditRepository::entriesFrom(QSqlQuery& q)
{
    QList<AuditEntry> entries;
    while (q.next()) {
        entries.append(AuditEntry { q.value(0).toLongLong(), SqlValues::instant(q.value(1)), q.value(2).toString(),
            q.value(3).toString(), q.value(4).toString(), q.value(5).toString(),
            SqlValues::parseBigintArray(q.value(6).toString()), q.value(7).toString().toUtf8(),
            q.value(8).toString().toUtf8(), q.value(9).toString().toUtf8(),
            { q.value(10).toString(), q.value(12).toString() }, { q.value(11).toString(), q.value(13).toString() } });
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

std::optional<AuditEntry> AuditRepository::withContent(qint64 id)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT ") + EntryWithContentColumns + QStringLiteral(" FROM audit_log WHERE id = ?::bigint"),
        { id }, QStringLiteral("reading an audit entry"));
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
