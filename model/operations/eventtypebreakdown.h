// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/outboxoverview.h"
#include "outbox/outboxstatus.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

class DbSession;

// One event type's rows by state, like a queue in Sidekiq's or Oban's views: each count read through
// outbox_event_type_idx (event_type, status, id) up to a cap, and how long its oldest unpublished row has waited.
struct EventTypeCounts {
    QString eventType;
    QList<CappedCount> counts; // one per status, in the order of OutboxStatusNames.values()
    std::optional<qint64> oldestUnpublishedAgeMs; // by the database's clock; none when nothing of it waits

    const CappedCount& count(OutboxStatus status) const;
};

// Every event type of the outbox with its counts per state (`outboxctl event-types`, the console's Event types
// tab). The types are found by a skip scan of outbox_event_type_idx (one index probe per type, however many rows
// each has), the counts stop at the cap, and the oldest row of a type is the first index entry of each of its
// unpublished states: the cost grows with the number of types, not with the table.
struct EventTypeBreakdown {
    static constexpr int DefaultCountCap = 10'000;
    static constexpr int DefaultTypeLimit = 500;

    QList<EventTypeCounts> types; // by name
    bool moreTypes = false; // there were more than the limit
    QDateTime serverNow;

    static EventTypeBreakdown load(
        DbSession& session, int countCap = DefaultCountCap, int typeLimit = DefaultTypeLimit);
};
