// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxstatus.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

// The outbox rows that need an operator, grouped by the signature of their last error (migration 0005).
struct FailureGroup {
    QString signature; // the normalised error text
    QString id; // outbox_signature_id(): 12 hex digits, what `--signature` takes
    qint64 failed = 0; // rows currently failed (retry scheduled)
    qint64 dead = 0; // rows currently dead
    QDateTime firstSeen; // the first and the last failure with this signature on record
    QDateTime lastSeen;
    QStringList eventTypes; // of the group's current rows
    qint64 sampleId = 0; // one of them
    QString sampleError; // its full last error
    // Ordering (migration 0013), each counted up to HoldCap: the group's dead rows with an ordering key (each blocks
    // its key), and the rows of those keys that wait behind them.
    static constexpr int HoldCap = 1000;
    qint64 blockedKeys = 0;
    qint64 heldBack = 0;

    qint64 rows() const { return failed + dead; }
};

// Which groups to show.
struct FailureGroupFilter {
    QList<OutboxStatus> statuses { OutboxStatus::Failed, OutboxStatus::Dead }; // of these only
    QDateTime seenSince; // groups with a failure since then; invalid = any
    int limit = 100;
};
