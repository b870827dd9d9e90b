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

// Where an entry stands in its operator action, and so what it counts (migration 0026). By default it is the
// action's own entry, counting its ids.
struct AuditCount {
    // A continuation: a later batch of the action whose own entry is `actionId`, in a transaction of its own. Its ids
    // are added to that entry's count (by the database, in the continuation's transaction), and the lists show the
    // action alone.
    std::optional<qint64> actionId;
    // For an action's own entry, what it counts when that is not its ids: a resume of an event type, the parked rows
    // it let go (its one id is the pause).
    std::optional<qint64> rows;
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
    // from whole().
    QByteArray details;
    // An edit's content before and after, as the database renders it (jsonb_pretty); empty for other actions and
    // except from whole().
    MessageContent contentBefore;
    MessageContent contentAfter;
    // How many rows the action changed, as every reader shows it: its ids and its continuations' (so far: a running
    // action's count grows batch by batch), or the rows a resume let go. A continuation (as forEntity() returns one)
    // counts its own ids.
    qint64 rows = 0;
    // The action's own entry when this is a continuation (a later batch of it); 0 for an action's own entry.
    qint64 actionId = 0;
    // The ids and states are not all the action's: a list's read of an action that continues in later entries (its
    // first batch's), or a continuation. whole() reads them all.
    bool partial = false;
};

// The operator audit log: who changed which rows, why, and from which state to which.
class AuditRepository final {
public:
    explicit AuditRepository(DbSession& session);

    // Records one operator action over `changes` (the rows that actually changed), with `details` (JSON text, empty
    // for none) of what it changed besides their states, as the action's own entry or as a continuation of one
    // (`count`). The actor is the database user of the session; the database refuses a continuation of another
    // actor's or another action's entry, or of a continuation. Returns the new entry's id, or nothing for an empty
    // change set, which records nothing.
    std::optional<qint64> record(const QString& action, const QString& reason, const QString& entity,
        const QList<StatusChange>& changes, const QString& details = {}, const AuditCount& count = {});
    // The same for entities other than outbox rows (relays), whose states are not outbox statuses.
    std::optional<qint64> record(const QString& action, const QString& reason, const QString& entity,
        const QList<AuditedChange>& changes, const QString& details = {}, const AuditCount& count = {});

    // Entries that touched `entityId`, newest first, each as it was written: the batch that changed the row, a
    // continuation too (with its actionId), so that a row's own history says exactly when it changed.
    QList<AuditEntry> forEntity(const QString& entity, qint64 entityId, int limit);

    // Operator actions matching `filter` (their own entries, not their continuations), newest first, keyset-paged on
    // id (`beforeId` 0 for the first page); an index for each filter (migration 0006), so a page costs the same at any
    // size of the log. Each counts all its rows, but carries its first batch's ids and states alone (`partial` when
    // it has more), so that a page costs the same however large its actions were.
    QList<AuditEntry> page(const AuditFilter& filter, int limit, qint64 beforeId);
    // Entries `ids` as page() reads them: what a list reads again to show a running action's count grow.
    QList<AuditEntry> byIds(const QList<qint64>& ids);
    // Entry `id` whole, which the list reads above leave out: its continuations' ids and states (found by
    // audit_log_continuations_idx), as many as the action's rows, and an edit's payloads and headers.
    std::optional<AuditEntry> whole(qint64 id);

private:
    QList<AuditEntry> entriesFrom(QSqlQuery& q);

    DbSession& m_session;
};
