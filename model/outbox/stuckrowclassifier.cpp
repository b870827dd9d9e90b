// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/stuckrowclassifier.h"

#include "outbox/outboxrows.h"

#include <QCoreApplication>

StuckRowClassifier::StuckRowClassifier(qint64 thresholdMs)
    : m_thresholdMs(thresholdMs)
{ }

StuckRowClassifier::Kind StuckRowClassifier::classify(const OutboxRowSummary& row, const QDateTime& now) const
{
    switch (row.status) {
    case OutboxStatus::Dead:
        return Kind::Dead;
    case OutboxStatus::InFlight:
        return row.leaseExpiresAt.isValid() && row.leaseExpiresAt < now ? Kind::LeaseExpired : Kind::NotStuck;
    case OutboxStatus::Pending:
    case OutboxStatus::Failed:
        return row.nextAttemptAt.isValid() && row.nextAttemptAt.msecsTo(now) > m_thresholdMs ? Kind::Overdue
                                                                                             : Kind::NotStuck;
    case OutboxStatus::Waiting: // what holds it back is the row it waits behind, classified by itself
    case OutboxStatus::Paused: // held back on purpose, by an operator
    case OutboxStatus::Published:
    case OutboxStatus::Discarded:
        break;
    }
    return Kind::NotStuck;
}

QString StuckRowClassifier::condition(OutboxStatus status)
{
    switch (status) {
    case OutboxStatus::Dead:
        return QStringLiteral("true");
    case OutboxStatus::InFlight:
        return QStringLiteral("lease_expires_at < now()");
    case OutboxStatus::Pending:
    case OutboxStatus::Failed:
        return QStringLiteral("next_attempt_at < now() - ?::bigint * interval '1 millisecond'");
    case OutboxStatus::Waiting:
    case OutboxStatus::Paused:
    case OutboxStatus::Published:
    case OutboxStatus::Discarded:
        break;
    }
    return {};
}

bool StuckRowClassifier::needsThreshold(OutboxStatus status)
{
    return status == OutboxStatus::Pending || status == OutboxStatus::Failed;
}

QString StuckRowClassifier::describe(Kind kind)
{
    // Translated where a translator is installed (the console), English otherwise.
    switch (kind) {
    case Kind::NotStuck:
        return {};
    case Kind::LeaseExpired:
        return QCoreApplication::translate("StuckRowClassifier", "in flight, but the worker's lease has expired");
    case Kind::Overdue:
        return QCoreApplication::translate("StuckRowClassifier", "due, but no relay has picked it up");
    case Kind::Dead:
        return QCoreApplication::translate("StuckRowClassifier", "dead: gave up after the maximum attempts");
    }
    return {};
}
