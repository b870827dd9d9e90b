// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/operatorrole.h"

#include "db/dbsession.h"

OutboxError OperatorRole::refused(
    DbSession& session, const QString& action, const QString& what, const OutboxError& error)
{
    return OutboxError(OutboxError::Kind::Permission,
        QStringLiteral("database user '%1' may not %2 %3 (grant it the outbox_operator role; after an upgrade, "
                       "outboxctl migrate --grant-roles gives that role what the new schema needs): %4")
            .arg(session.currentUser(), action, what, error.message()),
        error.sqlState());
}

QString OperatorRole::requiredReason(const QString& reason, const QString& action, const QString& what)
{
    const QString trimmed = reason.trimmed();
    if (trimmed.isEmpty())
        throw OutboxError(
            OutboxError::Kind::InvalidInput, QStringLiteral("a reason is required to %1 %2").arg(action, what));
    return trimmed;
}
