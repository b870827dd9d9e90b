// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/waitcause.h"

#include "outbox/outboxrows.h"
#include "outbox/stuckrowclassifier.h"

WaitCause waitCauseOf(const OutboxRowSummary& row, const QDateTime& now, bool anyRelayAlive, qint64 stuckThresholdMs)
{
    const StuckRowClassifier::Kind stuck = StuckRowClassifier(stuckThresholdMs).classify(row, now);
    if (row.status == OutboxStatus::InFlight)
        return stuck == StuckRowClassifier::Kind::LeaseExpired ? WaitCause::LeaseExpired : WaitCause::Publishing;
    if (!anyRelayAlive)
        return WaitCause::NoRelayAlive;
    if (row.status == OutboxStatus::Failed)
        return WaitCause::Failing;
    if (row.nextAttemptAt > now)
        return WaitCause::Scheduled;
    return stuck == StuckRowClassifier::Kind::Overdue ? WaitCause::Overdue : WaitCause::Queued;
}
