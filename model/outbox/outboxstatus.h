// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/enumnames.h"

// The states of an outbox row (outbox.status); README "Outbox statuses" says who may change which.
enum class OutboxStatus {
    Pending, // waiting for its first publish
    InFlight, // claimed by a relay worker under a lease
    Published,
    Failed, // the last attempt failed; retried after a backoff
    Dead, // gave up after the maximum attempts; only an operator brings it back
    Waiting, // parked behind an older row of its ordering key (failing, dead, delayed) until that one publishes
    Skipped, // given up by an operator so that its ordering key flows again; never published
};

// The names as the CHECK constraint on outbox.status spells them (a unit test compares the two).
inline constexpr EnumNames<OutboxStatus, 7> OutboxStatusNames({ {
    { OutboxStatus::Pending, "pending" },
    { OutboxStatus::InFlight, "in_flight" },
    { OutboxStatus::Published, "published" },
    { OutboxStatus::Failed, "failed" },
    { OutboxStatus::Dead, "dead" },
    { OutboxStatus::Waiting, "waiting" },
    { OutboxStatus::Skipped, "skipped" },
} });

// The backlog: rows not yet published that the relay still means to publish (dead rows wait for an operator;
// waiting rows for an older row of their key), as outbox_unpublished_created_idx (migration 0013) indexes them.
inline constexpr char BacklogCondition[] = "status IN ('pending', 'in_flight', 'failed', 'waiting')";

// Failed and dead rows are the ones an operator may requeue or skip.
constexpr bool isRequeueable(OutboxStatus status)
{
    return status == OutboxStatus::Failed || status == OutboxStatus::Dead;
}

// The requeueable statuses, in declaration order.
inline QList<OutboxStatus> requeueableStatuses()
{
    QList<OutboxStatus> statuses = OutboxStatusNames.values();
    statuses.removeIf([](OutboxStatus status) { return !isRequeueable(status); });
    return statuses;
}
