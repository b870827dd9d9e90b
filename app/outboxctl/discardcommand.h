// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operatorrowscommand.h"

// outboxctl discard: gives up on failed or dead outbox rows (status discarded, not published), so that the rows of
// their ordering keys waiting behind them flow again; `outboxctl requeue` brings them back.
class DiscardCommand final : public OperatorRowsCommand {
public:
    QString summary() const final override;

protected:
    QString verb() const final override { return QStringLiteral("discard"); }
    QString pastTense() const final override { return QStringLiteral("discarded"); }
    QList<OutboxStatus> sourceStatuses() const final override { return failureStatuses(); }
    OperatorActionReport perform(OutboxOperator& outboxOperator, const QList<qint64>& ids, const QString& reason,
        const QDateTime& at) const final override;
};
