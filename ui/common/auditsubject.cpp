// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/auditsubject.h"

#include "operations/auditrepository.h"
#include "operations/outboxoperator.h"

#include <QJsonDocument>
#include <QJsonObject>

QString AuditSubject::describe(const AuditEntry& entry)
{
    // The action's count, not its entry's ids: a bulk action's later batches are entries of their own.
    const int count = int(entry.rows);
    if (entry.entity == AuditEntity::Relay)
        return tr("%n relay(s)", nullptr, count);
    if (entry.entity == AuditEntity::Pause) {
        const QJsonObject details = QJsonDocument::fromJson(entry.details).object();
        const PauseScope scope
            = PauseScopeNames.parse(details.value(QStringLiteral("scope")).toString()).value_or(PauseScope::EventType);
        const QString target = pauseTarget(scope, details.value(QStringLiteral("target")).toString());
        // A resume of an event type counts the parked rows it let go (its one id is the pause).
        if (entry.action == AuditAction::Resume && scope == PauseScope::EventType)
            return tr("%1, %Ln held row(s) let go", nullptr, count).arg(target);
        return target;
    }
    return tr("%Ln outbox row(s)", nullptr, count);
}

QString AuditSubject::pauseTarget(PauseScope scope, const QString& target)
{
    return scope == PauseScope::Relay ? tr("relay %1").arg(target) : tr("event type %1").arg(target);
}
