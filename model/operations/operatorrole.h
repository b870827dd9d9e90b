// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/outboxerror.h"

#include <QString>

class DbSession;

// What every audited operator action asks of its caller (roles.sql): the outbox_operator role, and a reason.
namespace OperatorRole {

// `error`, a statement the server refused, as the refusal of `action` on `what` ("outbox rows", "relays") for the
// session's user, naming the role to grant.
OutboxError refused(DbSession& session, const QString& action, const QString& what, const OutboxError& error);

// `reason` trimmed; OutboxError(InvalidInput) when it is blank: the audit log says why.
QString requiredReason(const QString& reason, const QString& action, const QString& what);

} // namespace OperatorRole
