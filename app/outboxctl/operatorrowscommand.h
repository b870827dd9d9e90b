// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"
#include "operations/outboxoperator.h"

// An audited operator action on failed or dead outbox rows (requeue, skip), on a frozen set of ids: by id, or by
// status and failure group with the same filters, a dry run and the same report. A subclass says what the action
// is and does.
class OperatorRowsCommand : public Command {
public:
    QString name() const final override { return verb(); }

protected:
    // "requeue", "skip": the subcommand's name and the audit log's action.
    virtual QString verb() const = 0;
    // "requeued", "skipped".
    virtual QString pastTense() const = 0;
    virtual OperatorActionReport perform(
        OutboxOperator& outboxOperator, const QList<qint64>& ids, const QString& reason) const = 0;

    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
