// SPDX-License-Identifier: GPL-3.0-or-later
#include "requeuecommand.h"

QString RequeueCommand::summary() const
{
    return QStringLiteral(
        "Requeue failed, dead or discarded outbox rows (by id, status or failure group), with an audited reason.");
}

OperatorActionReport RequeueCommand::perform(
    OutboxOperator& outboxOperator, const QList<qint64>& ids, const QString& reason, const QDateTime& at) const
{
    return outboxOperator.requeue(ids, reason, at);
}
