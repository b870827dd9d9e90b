// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

class DbSession;

// Where the rows of a requeue (or a lease release) are now: published, failed again, or still on their way. The
// console reads it until every row has settled, to say what the retry achieved.
struct RequeueOutcome {
    qint64 pending = 0;
    qint64 inFlight = 0;
    qint64 published = 0;
    qint64 failed = 0; // failed again, a retry scheduled
    qint64 dead = 0; // failed again, for the last time
    qint64 gone = 0; // purged meanwhile
    QList<qint64> failedIds; // the failed and dead ones, ascending
    QString commonError; // the most frequent cause (error signature) among them
    qint64 commonErrorRows = 0; // how many of them it failed

    qint64 failedAgain() const { return failed + dead; }
    // No row is pending or in flight any more.
    bool settled() const { return pending + inFlight == 0; }

    // One statement over the primary key (id = ANY): the cost grows with the ids, not with the table.
    static RequeueOutcome read(DbSession& session, const QList<qint64>& ids);
};
