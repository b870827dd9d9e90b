// SPDX-License-Identifier: GPL-3.0-or-later
#include "discardcommand.h"

QString DiscardCommand::summary() const
{
    return QStringLiteral("Discard failed or dead outbox rows (not published; their keys' later rows flow again; "
                          "requeue brings them back), with an audited reason.");
}

OperatorActionReport DiscardCommand::perform(
    OutboxOperator& outboxOperator, const QList<qint64>& ids, const QString& reason, const QDateTime&) const
{
    return outboxOperator.discard(ids, reason);
}
