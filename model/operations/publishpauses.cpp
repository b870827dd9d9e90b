// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/publishpauses.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/sqlvalues.h"
#include "db/unitofwork.h"
#include "operations/auditrepository.h"
#include "operations/operatorrole.h"
#include "operations/outboxoperator.h"
#include "outbox/outboxrepository.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

namespace {

const QString Paused = QStringLiteral("paused");

QString what(PauseScope scope)
{
    return scope == PauseScope::Relay ? QStringLiteral("relays") : QStringLiteral("event types");
}

QString detailsOf(PauseScope scope, const QString& target)
{
    return QString::fromUtf8(QJsonDocument(
        QJsonObject { { QStringLiteral("scope"), PauseScopeNames.name(scope) }, { QStringLiteral("target"), target } })
                                 .toJson(QJsonDocument::Compact));
}

QString requiredTarget(PauseScope scope, const QString& target)
{
    const QString trimmed = target.trimmed();
    if (trimmed.isEmpty()) {
        throw OutboxError(OutboxError::Kind::InvalidInput,
            scope == PauseScope::Relay ? QStringLiteral("name the relay to pause or resume")
                                       : QStringLiteral("name the event type to pause or resume"));
    }
    return trimmed;
}

} // namespace

PublishPauses::PublishPauses(DbSession& session)
    : m_session(session)
{ }

// The columns of a pause and, for an event type, its parked rows through outbox_event_type_idx (event_type, status,
// id), at most the cap + 1 each; bound: the cap + 1.
static const QString PauseColumns = QStringLiteral(
    "SELECT p.id, p.scope, p.target, p.paused_by, p.reason, epoch_ms(p.paused_at), epoch_ms(p.resumed_at), "
    "  CASE WHEN p.scope = 'event_type' THEN "
    "    (SELECT count(*) FROM (SELECT 1 FROM outbox o WHERE o.event_type = p.target "
    "       AND o.status = 'paused' LIMIT ?::int) c) ELSE 0 END "
    "FROM outbox_pauses p ");

static PublishPause pauseFrom(const QSqlQuery& row)
{
    PublishPause pause;
    pause.id = row.value(0).toLongLong();
    pause.scope = PauseScopeNames.fromColumn(row.value(1));
    pause.target = row.value(2).toString();
    pause.pausedBy = row.value(3).toString();
    pause.reason = row.value(4).toString();
    pause.pausedAt = SqlValues::instant(row.value(5));
    pause.resumedAt = SqlValues::instant(row.value(6));
    const qint64 parked = row.value(7).toLongLong();
    pause.parkedRows = qMin<qint64>(parked, PublishPauses::ParkedCountCap);
    pause.parkedCapped = parked > PublishPauses::ParkedCountCap;
    return pause;
}

QList<PublishPause> PublishPauses::current()
{
    QSqlQuery& q = m_session.exec(PauseColumns + QStringLiteral("ORDER BY p.scope DESC, p.target"),
        { ParkedCountCap + 1 }, QStringLiteral("reading the pauses"));
    return SqlValues::collect(q, pauseFrom);
}

std::optional<PublishPause> PublishPauses::find(PauseScope scope, const QString& target)
{
    QSqlQuery& q = m_session.exec(PauseColumns + QStringLiteral("WHERE p.scope = ?::text AND p.target = ?::text"),
        { ParkedCountCap + 1, PauseScopeNames.name(scope), target.trimmed() }, QStringLiteral("reading the pause"));
    return q.next() ? std::optional(pauseFrom(q)) : std::nullopt;
}

std::optional<PublishPause> PublishPauses::pause(PauseScope scope, const QString& target, const QString& reason)
{
    const QString name = requiredTarget(scope, target);
    const QString why = OperatorRole::requiredReason(reason, QStringLiteral("pause"), what(scope));
    std::optional<PublishPause> paused;
    try {
        UnitOfWork uow(m_session);
        // The state guard: a pause in force is left as it is; one being resumed (its rows still being let go) is
        // in force again, and its rows not yet let go stay parked.
        QSqlQuery& q = m_session.exec(
            QStringLiteral("INSERT INTO outbox_pauses AS p (scope, target, reason) VALUES (?::text, ?::text, ?::text) "
                           "ON CONFLICT ON CONSTRAINT outbox_pauses_target_unique DO UPDATE "
                           "  SET paused_by = session_user, reason = excluded.reason, paused_at = now(), "
                           "      resumed_at = NULL "
                           "  WHERE p.resumed_at IS NOT NULL "
                           "RETURNING p.id, p.paused_by, epoch_ms(p.paused_at)"),
            { PauseScopeNames.name(scope), name, why }, QStringLiteral("pausing %1").arg(what(scope)));
        if (!q.next())
            return std::nullopt;
        paused = PublishPause { q.value(0).toLongLong(), scope, name, q.value(1).toString(), why,
            SqlValues::instant(q.value(2)), {}, 0, false };
        AuditRepository(m_session).record(AuditAction::Pause, why, AuditEntity::Pause,
            QList<AuditedChange> { { paused->id, QStringLiteral("running"), Paused } }, detailsOf(scope, name));
        uow.commit();
    } catch (const OutboxError& error) {
        if (error.kind() != OutboxError::Kind::Permission)
            throw;
        throw OperatorRole::refused(m_session, QStringLiteral("pause"), what(scope), error);
    }
    return paused;
}

std::optional<qint64> PublishPauses::resume(PauseScope scope, const QString& target, const QString& reason)
{
    const QString name = requiredTarget(scope, target);
    const QString why = OperatorRole::requiredReason(reason, QStringLiteral("resume"), what(scope));
    try {
        qint64 released = 0;
        {
            UnitOfWork uow(m_session);
            // A relay's pause goes at once; an event type's is marked resumed, and goes with its last parked row.
            // Either change waits for the claims that hold the pause's share lock, so the release below sees the
            // rows they parked.
            QSqlQuery& q = m_session.exec(scope == PauseScope::Relay
                    ? QStringLiteral("DELETE FROM outbox_pauses WHERE scope = ?::text AND target = ?::text "
                                     "  AND resumed_at IS NULL RETURNING id")
                    : QStringLiteral("UPDATE outbox_pauses SET resumed_at = now() "
                                     "WHERE scope = ?::text AND target = ?::text AND resumed_at IS NULL RETURNING id"),
                { PauseScopeNames.name(scope), name }, QStringLiteral("resuming %1").arg(what(scope)));
            if (!q.next())
                return std::nullopt;
            const qint64 id = q.value(0).toLongLong();
            // What this resume lets go: the type's rows parked now. Counted here rather than as the release goes,
            // since the release also lets go of other resumed types and relays' heartbeats help with this one. The
            // resume's one audit entry counts them, so that it says how many rows it let go, not the one pause it
            // changed.
            if (scope == PauseScope::EventType) {
                QSqlQuery& parked = m_session.exec(
                    QStringLiteral("SELECT count(*) FROM outbox WHERE event_type = ?::text AND status = 'paused'"),
                    { name }, QStringLiteral("counting the parked rows"));
                released = parked.next() ? parked.value(0).toLongLong() : 0;
            }
            AuditRepository(m_session).record(AuditAction::Resume, why, AuditEntity::Pause,
                QList<AuditedChange> { { id, Paused, QStringLiteral("resumed") } }, detailsOf(scope, name),
                AuditCount { std::nullopt, scope == PauseScope::EventType ? std::optional(released) : std::nullopt });
            uow.commit();
        }
        if (scope == PauseScope::EventType) {
            OutboxRepository outbox(m_session);
            while (outbox.releaseResumed(ReleaseBatch) > 0) { }
        }
        return released;
    } catch (const OutboxError& error) {
        if (error.kind() != OutboxError::Kind::Permission)
            throw;
        throw OperatorRole::refused(m_session, QStringLiteral("resume"), what(scope), error);
    }
}

bool PublishPauses::isKnown(PauseScope scope, const QString& target)
{
    // relay_nodes is small; outbox_event_type_idx answers the event type with one index probe.
    QSqlQuery& q = m_session.exec(scope == PauseScope::Relay
            ? QStringLiteral("SELECT EXISTS (SELECT FROM relay_nodes WHERE name = ?::text)")
            : QStringLiteral("SELECT EXISTS (SELECT FROM outbox WHERE event_type = ?::text)"),
        { target.trimmed() }, QStringLiteral("looking up %1").arg(what(scope)));
    return q.next() && q.value(0).toBool();
}
