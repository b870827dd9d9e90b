// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/enumnames.h"

#include <QDateTime>
#include <QString>

// What an operator pauses (outbox_pauses.scope, migration 0019).
enum class PauseScope {
    Relay, // every relay registered under a name: it claims nothing
    EventType, // the rows of one event type: no relay claims them
};

inline constexpr EnumNames<PauseScope, 2> PauseScopeNames({ {
    { PauseScope::Relay, "relay" },
    { PauseScope::EventType, "event_type" },
} });

// One row of outbox_pauses, as the Overview and `outboxctl pauses` show it.
struct PublishPause {
    qint64 id = 0;
    PauseScope scope = PauseScope::Relay;
    QString target; // the relay's name or the event type
    QString pausedBy;
    QString reason;
    QDateTime pausedAt;
    QDateTime resumedAt; // valid while a resumed type's parked rows are being let go
    // An event type's rows parked as paused, counted up to a cap (capped: at least that many).
    qint64 parkedRows = 0;
    bool parkedCapped = false;

    bool resuming() const { return resumedAt.isValid(); }
};
