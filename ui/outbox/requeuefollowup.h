// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/requeueoutcome.h"

#include <QElapsedTimer>
#include <QObject>

class DatabaseClient;

// Follows the rows of a requeue (or a lease release) after the action: reads where they are on the database worker
// every PollMs until none is pending or in flight, or `limitMs` pass, then says how many were published and how many
// failed again, with which cause. The operator learns what the retry achieved without watching the list. Deletes
// itself after finished().
class RequeueFollowUp final : public QObject {
    Q_OBJECT
public:
    static constexpr int PollMs = 1000;
    static constexpr int DefaultLimitMs = 120'000;

    // `what` names the action for the message, e.g. "Requeued 32 rows".
    static RequeueFollowUp* start(DatabaseClient& worker, QObject* parent, const QString& what,
        const QList<qint64>& ids, int limitMs = DefaultLimitMs);

    // The message for `outcome`, e.g. "Requeued 32 rows: 2 published; 30 failed again …"; `elapsedMs` is said when
    // rows are still on their way.
    static QString describe(const QString& what, const RequeueOutcome& outcome, qint64 elapsedMs);
    // The rows the message links to: those that failed again if any, else all of them.
    static QList<qint64> linkedRows(const QList<qint64>& ids, const RequeueOutcome& outcome);

signals:
    void finished(const QString& message, const QList<qint64>& rows, const RequeueOutcome& outcome);

private:
    RequeueFollowUp(
        DatabaseClient& worker, QObject* parent, const QString& what, const QList<qint64>& ids, int limitMs);
    void poll();
    void finish(const RequeueOutcome& outcome);

    DatabaseClient& m_worker;
    QString m_what;
    QList<qint64> m_ids;
    int m_limitMs;
    QElapsedTimer m_elapsed;
    RequeueOutcome m_last;
};
