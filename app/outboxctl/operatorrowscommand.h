// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"
#include "operations/outboxoperator.h"

// An audited operator action on outbox rows (requeue, discard), on a frozen set of ids: by id, or by
// status and failure group with the same filters, a dry run and the same report. A subclass says what the action
// is and does.
class OperatorRowsCommand : public Command {
public:
    QString name() const final override { return verb(); }

protected:
    // "requeue", "discard": the subcommand's name and the audit log's action.
    virtual QString verb() const = 0;
    // "requeued", "discarded".
    virtual QString pastTense() const = 0;
    // The states the action moves rows out of; rows in any other are left alone.
    virtual QList<OutboxStatus> sourceStatuses() const = 0;
    // Whether the action takes --at, the time the rows become due (a retry later).
    virtual bool takesDueTime() const { return false; }
    // `at`: the --at time, invalid when not given.
    virtual OperatorActionReport perform(
        OutboxOperator& outboxOperator, const QList<qint64>& ids, const QString& reason, const QDateTime& at) const = 0;

    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
