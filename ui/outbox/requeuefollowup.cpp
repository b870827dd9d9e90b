// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/requeuefollowup.h"

#include "core/databaseclient.h"
#include "core/timeformatter.h"

#include <QLocale>
#include <QStringList>
#include <QTimer>

RequeueFollowUp::RequeueFollowUp(
    DatabaseClient& worker, QObject* parent, const QString& what, const QList<qint64>& ids, int limitMs)
    : QObject(parent)
    , m_worker(worker)
    , m_what(what)
    , m_ids(ids)
    , m_limitMs(limitMs)
{
    m_last.pending = ids.size();
    m_elapsed.start();
}

RequeueFollowUp* RequeueFollowUp::start(
    DatabaseClient& worker, QObject* parent, const QString& what, const QList<qint64>& ids, int limitMs)
{
    auto* followUp = new RequeueFollowUp(worker, parent, what, ids, limitMs);
    QTimer::singleShot(PollMs, followUp, &RequeueFollowUp::poll);
    return followUp;
}

void RequeueFollowUp::poll()
{
    m_worker.run<RequeueOutcome>(
        this, [ids = m_ids](DbSession& session) { return RequeueOutcome::read(session, ids); },
        [this](const RequeueOutcome& outcome) {
            m_last = outcome;
            if (outcome.settled() || m_elapsed.elapsed() >= m_limitMs)
                finish(outcome);
            else
                QTimer::singleShot(PollMs, this, &RequeueFollowUp::poll);
        },
        [this](const OutboxError&) {
            // A lost connection comes back on its own; until the limit, the next read may work.
            if (m_elapsed.elapsed() >= m_limitMs)
                finish(m_last);
            else
                QTimer::singleShot(PollMs, this, &RequeueFollowUp::poll);
        });
}

void RequeueFollowUp::finish(const RequeueOutcome& outcome)
{
    emit finished(describe(m_what, outcome, m_elapsed.elapsed()), linkedRows(m_ids, outcome), outcome);
    deleteLater();
}

QString RequeueFollowUp::describe(const QString& what, const RequeueOutcome& outcome, qint64 elapsedMs)
{
    const QLocale locale;
    QStringList parts;
    if (outcome.published > 0 || outcome.failedAgain() == 0)
        parts.append(tr("%1 published").arg(locale.toString(outcome.published)));
    if (outcome.failedAgain() > 0) {
        QString failed = tr("%1 failed again").arg(locale.toString(outcome.failedAgain()));
        if (outcome.dead > 0)
            failed += tr(" (%1 of them dead)").arg(locale.toString(outcome.dead));
        if (!outcome.commonError.isEmpty()) {
            failed += outcome.commonErrorRows == outcome.failedAgain()
                ? tr(", all with “%1”").arg(outcome.commonError)
                : tr(", %1 of them with “%2”").arg(locale.toString(outcome.commonErrorRows), outcome.commonError);
        }
        parts.append(failed);
    }
    if (!outcome.settled()) {
        parts.append(tr("%1 still pending or in flight after %2")
                         .arg(locale.toString(outcome.pending + outcome.inFlight), TimeFormatter::duration(elapsedMs)));
    }
    if (outcome.gone > 0)
        parts.append(tr("%1 purged meanwhile").arg(locale.toString(outcome.gone)));
    return tr("%1: %2.").arg(what, parts.join(QStringLiteral("; ")));
}

QList<qint64> RequeueFollowUp::linkedRows(const QList<qint64>& ids, const RequeueOutcome& outcome)
{
    return outcome.failedIds.isEmpty() ? ids : outcome.failedIds;
}
