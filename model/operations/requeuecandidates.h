// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxfilter.h"

#include <QDateTime>
#include <QList>
#include <QString>

class DbSession;

// The rows an operator is about to requeue, and how long ago they last failed: a failure seconds ago says that its
// cause is probably still there, and a retry now would only fail them again.
struct RequeueCandidates {
    QList<qint64> ids; // ascending
    QDateTime lastFailure; // the newest failure of these rows or, for a failure group, of its cause; invalid: none
    QDateTime serverNow; // the database's clock when this was read, so the age is free of clock skew

    // Milliseconds from the last failure to serverNow; -1 without a failure on record.
    qint64 sinceLastFailureMs() const;
    // Whether the last failure is less than `ms` old.
    bool failedWithin(qint64 ms) const { return sinceLastFailureMs() >= 0 && sinceLastFailureMs() < ms; }

    // For rows the operator chose (`errorSignature` empty) or the rows of a failure group.
    static RequeueCandidates of(DbSession& session, const QList<qint64>& ids, const QString& errorSignature = {});
    // Freezes the failed and dead rows matching `filter` (OutboxOperator::freeze, at most `cap`), then as of().
    static RequeueCandidates freeze(DbSession& session, const OutboxFilter& filter, int cap);
};
