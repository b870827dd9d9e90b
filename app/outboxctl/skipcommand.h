// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operatorrowscommand.h"

// outboxctl skip: gives up on failed or dead outbox rows (status skipped, never published), so that the rows of
// their ordering keys waiting behind them flow again.
class SkipCommand final : public OperatorRowsCommand {
public:
    QString summary() const final override;

protected:
    QString verb() const final override { return QStringLiteral("skip"); }
    QString pastTense() const final override { return QStringLiteral("skipped"); }
    OperatorActionReport perform(
        OutboxOperator& outboxOperator, const QList<qint64>& ids, const QString& reason) const final override;
};
