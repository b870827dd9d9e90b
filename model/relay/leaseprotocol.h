// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// The values of the relay's lease protocol (OutboxLeaseRepository). Every completion names the claim it
// completes by its fencing token, so a worker whose lease was taken over cannot overwrite the new owner's result.
struct LeaseFence {
    qint64 id = 0;
    qint64 leaseToken = 0;
};

struct PublishFailure {
    qint64 id = 0;
    qint64 leaseToken = 0;
    QString error;
    qint64 backoffMs = 0;
};

struct PublishedRow {
    qint64 id = 0;
    qint64 latencyMs = 0; // created_at -> published_at
};

struct FailedRow {
    qint64 id = 0;
    bool dead = false;
    QString eventType;
};

// An operator's pause of a relay's name (outbox_pauses, migration 0019), as the relay's claim reads it.
struct RelayPause {
    QString pausedBy;
    QString reason;

    bool operator==(const RelayPause&) const = default;
};
