// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/progressrunner.h"

#include <QLocale>
#include <QProgressDialog>

ProgressRunner::ProgressRunner(QWidget* dialogParent, const QString& label, qint64 maximum)
    : m_label(label)
    , m_unbounded(maximum <= 0)
{
    auto* progress = new QProgressDialog(label, tr("Cancel"), 0, m_unbounded ? 0 : int(maximum), dialogParent);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    m_progress = progress;
    connect(progress, &QProgressDialog::canceled, this, [cancelled = m_cancelled] { *cancelled = true; });
}

std::function<bool(qint64)> ProgressRunner::progressCallback()
{
    return [this, cancelled = m_cancelled](qint64 done) {
        // Runs on the worker thread: post to the runner, which outlives the job.
        QMetaObject::invokeMethod(
            this, [this, done] { showProgress(done); }, Qt::QueuedConnection);
        return !cancelled->load();
    };
}

void ProgressRunner::showProgress(qint64 done)
{
    if (!m_progress)
        return;
    if (m_unbounded)
        m_progress->setLabelText(tr("%1 (%2 so far)").arg(m_label, QLocale().toString(done)));
    else
        m_progress->setValue(int(done));
}

void ProgressRunner::finish()
{
    if (m_progress)
        m_progress->deleteLater();
    deleteLater();
}
