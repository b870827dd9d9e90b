// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/bulkactionrunner.h"

#include "core/databaseclient.h"

BulkActionRunner* BulkActionRunner::start(DatabaseClient& worker, QWidget* dialogParent, const QString& verb,
    const QList<qint64>& ids, const QString& reason, Action action)
{
    auto* runner
        = new BulkActionRunner(dialogParent, tr("%1 %n row(s)…", nullptr, int(ids.size())).arg(verb), ids.size());
    worker.run<OperatorActionReport>(
        runner,
        [ids, reason, action = std::move(action), progress = runner->progressCallback()](DbSession& session) {
            OutboxOperator outboxOperator(session);
            return action(
                outboxOperator, ids, reason, [progress](qsizetype done, qsizetype) { return progress(done); });
        },
        [runner](const OperatorActionReport& report) {
            emit runner->finished(report);
            runner->finish();
        },
        [runner](const OutboxError& error) {
            emit runner->failed(error.message());
            runner->finish();
        });
    return runner;
}
