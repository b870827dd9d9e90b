#include "bulkactionrunner.h"

#include "databaseworker.h"

#include <QProgressDialog>

BulkActionRunner* BulkActionRunner::start(DatabaseWorker& worker, QWidget* dialogParent, const QString& verb,
    const QList<qint64>& ids, const QString& reason, Action action)
{
    auto* runner = new BulkActionRunner;
    auto* progress = new QProgressDialog(
        tr("%1 %n row(s)…", nullptr, int(ids.size())).arg(verb), tr("Cancel"), 0, int(ids.size()), dialogParent);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    runner->m_progress = progress;
    connect(progress, &QProgressDialog::canceled, runner, [cancelled = runner->m_cancelled] { *cancelled = true; });

    worker.run<OperatorActionReport>(
        runner,
        [runner, ids, reason, action = std::move(action), cancelled = runner->m_cancelled](DbSession& session) {
            OutboxOperator outboxOperator(session);
            // Runs on the worker thread: report progress by posting to the runner, which outlives the job.
            return action(outboxOperator, ids, reason, [runner, cancelled](qsizetype done, qsizetype) {
                QMetaObject::invokeMethod(
                    runner, [runner, done] { runner->showProgress(done); }, Qt::QueuedConnection);
                return !cancelled->load();
            });
        },
        [runner](const OperatorActionReport& report) {
            if (runner->m_progress)
                runner->m_progress->deleteLater();
            emit runner->finished(report);
            runner->deleteLater();
        },
        [runner](const OutboxError& error) {
            if (runner->m_progress)
                runner->m_progress->deleteLater();
            emit runner->failed(error.message());
            runner->deleteLater();
        });
    return runner;
}

void BulkActionRunner::showProgress(qsizetype done)
{
    if (m_progress)
        m_progress->setValue(int(done));
}
