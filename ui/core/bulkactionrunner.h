// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/progressrunner.h"
#include "operations/outboxoperator.h"

class DatabaseClient;

// Runs an operator action over a frozen set of ids on the action worker, batch by batch, behind a
// progress dialog whose Cancel stops before the next batch (a batch in progress always completes, with
// its audit row). Deletes itself when done.
class BulkActionRunner final : public ProgressRunner {
    Q_OBJECT
public:
    using Action = std::function<OperatorActionReport(
        OutboxOperator&, const QList<qint64>& ids, const QString& reason, const OutboxOperator::Progress&)>;

    // Starts at once; `dialogParent` hosts the progress dialog.
    static BulkActionRunner* start(DatabaseClient& worker, QWidget* dialogParent, const QString& verb,
        const QList<qint64>& ids, const QString& reason, Action action);

signals:
    void finished(const OperatorActionReport& report);
    void failed(const QString& message);

private:
    using ProgressRunner::ProgressRunner;
};
