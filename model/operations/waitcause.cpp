// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/waitcause.h"

#include "outbox/outboxrows.h"
#include "outbox/stuckrowclassifier.h"

WaitCause waitCauseOf(const OutboxRowSummary& row, const QDateTime& now, FleetCondition fleet, qint64 stuckThresholdMs)
{
    const StuckRowClassifier::Kind stuck = StuckRowClassifier(stuckThresholdMs).classify(row, now);
    // Whatever the fleet does, the row is not claimed before the older row of its key: that one is the cause.
    if (row.status == OutboxStatus::Waiting)
        return WaitCause::BehindOlderRow;
    // The same for a paused type: no relay takes it before its type is resumed.
    if (row.status == OutboxStatus::Paused)
        return WaitCause::TypePaused;
    if (row.status == OutboxStatus::InFlight)
        return stuck == StuckRowClassifier::Kind::LeaseExpired ? WaitCause::LeaseExpired : WaitCause::Publishing;
    if (fleet == FleetCondition::NoneRunning)
        return WaitCause::NoRelayAlive;
    // Whatever the row's own state, nothing will publish it before the relays' sink works again.
    if (fleet == FleetCondition::AllFailing)
        return WaitCause::RelaysFailing;
    if (fleet == FleetCondition::AllPaused)
        return WaitCause::RelaysPaused;
    if (row.status == OutboxStatus::Failed)
        return WaitCause::Failing;
    if (row.nextAttemptAt > now)
        return WaitCause::Scheduled;
    return stuck == StuckRowClassifier::Kind::Overdue ? WaitCause::Overdue : WaitCause::Queued;
}
