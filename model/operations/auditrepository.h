// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/auditfilter.h"
#include "outbox/messagecontent.h"
#include "outbox/statuschange.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

class DbSession;
class QSqlQuery;

// What an audit entry's ids are (audit_log.entity).
namespace AuditEntity {
inline const QString Outbox = QStringLiteral("outbox");
inline const QString Relay = QStringLiteral("relay");
inline const QString Pause = QStringLiteral("pause"); // a row of outbox_pauses; details name its scope and target
} // namespace AuditEntity

// One entity an action changed, with its state before and after in the entity's own words.
struct AuditedChange {
    qint64 id = 0;
    QString before;
    QString after;
};

struct AuditEntry {
    qint64 id = 0;
    QDateTime at;
    QString actor;
    QString action;
    QString reason;
    QString entity;
    QList<qint64> entityIds;
    QByteArray stateBefore; // JSON {"<id>": "<status>"}
    QByteArray stateAfter;
    // JSON, or empty: what the action changed besides the states (migration 0018); without an edit's content except
    // from withContent().
    QByteArray details;
    // An edit's content before and after, as the database renders it (jsonb_pretty); empty for other actions and
    // except from withContent().
    MessageContent contentBefore;
    MessageContent contentAfter;
};

// The operator audit log: who changed which rows, why, and from which state to which.
class AuditRepository final {
public:
    explicit AuditRepository(DbSession& session);

    // Records one operator action over `changes` (the rows that actually changed), with `details` (JSON text, empty
    // for none) of what it changed besides their states. The actor is the database user of the session. Does
    // nothing for an empty change set.
    void record(const QString& action, const QString& reason, const QString& entity, const QList<StatusChange>& changes,
        const QString& details = {});
    // The same for entities other than outbox rows (relays), whose states are not outbox statuses.
    void record(const QString& action, const QString& reason, const QString& entity,
        const QList<AuditedChange>& changes, const QString& details = {});

    // Entries that touched `entityId`, newest first.
    QList<AuditEntry> forEntity(const QString& entity, qint64 entityId, int limit);

    // Entries matching `filter`, newest first, keyset-paged on id (`beforeId` 0 for the first page); an index for
    // each filter (migration 0006), so a page costs the same at any size of the log.
    QList<AuditEntry> page(const AuditFilter& filter, int limit, qint64 beforeId);
    QList<AuditEntry> byIds(const QList<qint64>& ids);
    // Entry `id` whole, an edit's payloads and headers too (which the list reads above leave out).
    std::optional<AuditEntry> withContent(qint64 id);

private:
    QList<AuditEntry> entriesFrom(QSqlQuery& q);

    DbSession& m_session;
};
