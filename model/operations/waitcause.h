// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>

struct OutboxRowSummary;

// What the relay fleet can do for a waiting row right now.
enum class FleetCondition {
    NoneRunning, // no relay is alive or failing: nobody will claim the row
    AllPaused, // every running relay is paused by an operator
    AllFailing, // no running relay publishes: each is failing (its sink unreachable, or its publishes all fail) or
                // paused
    Publishing, // at least one running relay publishes
};

// Why an unpublished row still waits: what the Overview says beside the oldest ones, so the operator knows
// which action helps (start a relay, fix the broker, wait for the rescue of a dead worker's rows).
enum class WaitCause {
    BehindOlderRow, // waiting: an older row of its ordering key must be published (or discarded) first
    TypePaused, // paused: an operator paused its event type; resuming the type lets it go
    NoRelayAlive, // pending or failed, and no relay is running to publish it
    RelaysPaused, // pending or failed, and every running relay is paused: resuming one lets it go
    RelaysFailing, // pending or failed, and no running relay publishes, some failing: the broker is the cause
    Failing, // its last attempt failed; the next one is scheduled
    LeaseExpired, // in flight, but its worker's lease ran out: the worker is presumed dead, a relay rescues it
    Publishing, // in flight: a worker holds its lease now
    Scheduled, // pending, not due yet (released or requeued with a delay)
    Overdue, // due for longer than the stuck threshold while relays publish: they are not keeping up
    Queued, // due, waiting its turn
};

// The cause for `row` at the database's time `now`; the stuck rules are StuckRowClassifier's.
WaitCause waitCauseOf(const OutboxRowSummary& row, const QDateTime& now, FleetCondition fleet, qint64 stuckThresholdMs);
