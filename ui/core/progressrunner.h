// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <atomic>
#include <functional>
#include <memory>

class QProgressDialog;
class QWidget;

// A long job on a database worker behind a progress dialog. The job reports progress through
// progressCallback() from the worker thread; Cancel makes that callback answer false, so the job stops at
// its next checkpoint (between batches or pages). The runner outlives the job and deletes itself in finish().
class ProgressRunner : public QObject {
    Q_OBJECT
protected:
    // `maximum` 0 means "unknown": the dialog shows a busy indicator and a count.
    ProgressRunner(QWidget* dialogParent, const QString& label, qint64 maximum);

    // Safe to call on the worker thread.
    std::function<bool(qint64 done)> progressCallback();
    void finish();

private:
    void showProgress(qint64 done);

    QPointer<QProgressDialog> m_progress;
    QString m_label;
    bool m_unbounded;
    std::shared_ptr<std::atomic<bool>> m_cancelled = std::make_shared<std::atomic<bool>>(false);
};
