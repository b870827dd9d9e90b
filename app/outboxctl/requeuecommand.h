// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operatorrowscommand.h"

// outboxctl requeue: moves failed, dead or discarded outbox rows back to pending with a fresh attempt budget.
class RequeueCommand final : public OperatorRowsCommand {
public:
    QString summary() const final override;

protected:
    QString verb() const final override { return QStringLiteral("requeue"); }
    QString pastTense() const final override { return QStringLiteral("requeued"); }
    QList<OutboxStatus> sourceStatuses() const final override { return retryableStatuses(); }
    bool takesDueTime() const final override { return true; }
    OperatorActionReport perform(OutboxOperator& outboxOperator, const QList<qint64>& ids, const QString& reason,
        const QDateTime& at) const final override;
};
