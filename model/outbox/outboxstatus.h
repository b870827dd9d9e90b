// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/enumnames.h"
#include "db/sqlfragment.h"

#include <QStringList>
#include <optional>

struct OutboxLogBounds;

// The states of an outbox row (outbox.status); docs/operators-guide.md, "Outbox statuses and who may change them",
// says who may change which.
enum class OutboxStatus {
    Pending, // waiting for its first publish
    InFlight, // claimed by a relay worker under a lease
    Published,
    Failed, // the last attempt failed; retried after a backoff
    Dead, // gave up after the maximum attempts; only an operator brings it back
    Waiting, // parked behind an older row of its ordering key (failing, dead, delayed) until that one publishes
    Discarded, // given up by an operator (its ordering key flows again); never published unless retried
    Paused, // its event type is paused (outbox_pauses): parked by a claim until the type is resumed
};

// The names as the CHECK constraint on outbox.status spells them (a unit test compares the two).
inline constexpr EnumNames<OutboxStatus, 8> OutboxStatusNames({ {
    { OutboxStatus::Pending, "pending" },
    { OutboxStatus::InFlight, "in_flight" },
    { OutboxStatus::Published, "published" },
    { OutboxStatus::Failed, "failed" },
    { OutboxStatus::Dead, "dead" },
    { OutboxStatus::Waiting, "waiting" },
    { OutboxStatus::Discarded, "discarded" },
    { OutboxStatus::Paused, "paused" },
} });

// The backlog: rows not yet published that the relay still means to publish (dead rows wait for an operator;
// waiting rows for an older row of their key, paused ones for their type's resume), as
// outbox_unpublished_created_idx (migration 0019) indexes them among the rows off the log (outbox.status set). The
// rows of the log not yet published (migration 0028) are outbox_log_unpublished()'s.
inline constexpr char BacklogCondition[] = "status IN ('pending', 'in_flight', 'failed', 'waiting', 'paused')";

// The rows in `statuses`, over outbox_messages, as conditions each of which one index serves in the list's order: one
// per status off the log (the stored status says it), and for the rows of the log (stored_status NULL) one per state
// asked for (one for all three), each bounded by `logBounds` (OutboxLogBounds::readFrom() when neededFor() says so)
// so that it reads the state of few rows it skips; none when `logBounds` is null (a search that only rows off the
// log can match). `inIdOrder` says whether the branches are walked in id order (not in created_at order).
// outboxstatus.cpp says why each is shaped as it is.
QList<SqlFragment> outboxStatusBranches(
    const QList<OutboxStatus>& statuses, const OutboxLogBounds* logBounds, bool inIdOrder = true);

// Whether rows in `status` are in the backlog (BacklogCondition says the same in SQL; a unit test compares the two).
constexpr bool isBacklog(OutboxStatus status)
{
    return status == OutboxStatus::Pending || status == OutboxStatus::InFlight || status == OutboxStatus::Failed
        || status == OutboxStatus::Waiting || status == OutboxStatus::Paused;
}

// What an operator may retry (back to pending): failed and dead rows, and discarded ones, which a retry brings back.
constexpr bool isRetryable(OutboxStatus status)
{
    return status == OutboxStatus::Failed || status == OutboxStatus::Dead || status == OutboxStatus::Discarded;
}

// The rows the relay failed to publish, as failure groups count them: what an operator may discard.
constexpr bool isFailure(OutboxStatus status)
{
    return status == OutboxStatus::Failed || status == OutboxStatus::Dead;
}

// The statuses for which `holds` is true, in declaration order.
template<typename Predicate> QList<OutboxStatus> outboxStatusesWhere(Predicate holds)
{
    QList<OutboxStatus> statuses = OutboxStatusNames.values();
    statuses.removeIf([&holds](OutboxStatus status) { return !holds(status); });
    return statuses;
}

inline QList<OutboxStatus> retryableStatuses()
{
    return outboxStatusesWhere(isRetryable);
}

inline QList<OutboxStatus> failureStatuses()
{
    return outboxStatusesWhere(isFailure);
}
