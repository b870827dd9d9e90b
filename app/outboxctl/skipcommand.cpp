// SPDX-License-Identifier: GPL-3.0-or-later
#include "skipcommand.h"

QString SkipCommand::summary() const
{
    return QStringLiteral("Skip failed or dead outbox rows (never published; their keys' later rows flow again), "
                          "with an audited reason.");
}

OperatorActionReport SkipCommand::perform(
    OutboxOperator& outboxOperator, const QList<qint64>& ids, const QString& reason) const
{
    return outboxOperator.skip(ids, reason);
}
