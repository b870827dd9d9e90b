// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/auditsubject.h"

#include "operations/auditrepository.h"

#include <QJsonDocument>
#include <QJsonObject>

QString AuditSubject::describe(const AuditEntry& entry)
{
    const int count = int(entry.entityIds.size());
    if (entry.entity == AuditEntity::Relay)
        return tr("%n relay(s)", nullptr, count);
    if (entry.entity == AuditEntity::Pause) {
        const QJsonObject details = QJsonDocument::fromJson(entry.details).object();
        return pauseTarget(
            PauseScopeNames.parse(details.value(QStringLiteral("scope")).toString()).value_or(PauseScope::EventType),
            details.value(QStringLiteral("target")).toString());
    }
    return tr("%n outbox row(s)", nullptr, count);
}

QString AuditSubject::pauseTarget(PauseScope scope, const QString& target)
{
    return scope == PauseScope::Relay ? tr("relay %1").arg(target) : tr("event type %1").arg(target);
}
