// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxstatus.h"

#include <QDateTime>
#include <QList>
#include <QString>

// What the operator is looking at in the outbox. Every field narrows the set; an empty field does not.
struct OutboxFilter {
    static constexpr qint64 DefaultStuckThresholdMs = 5LL * 60 * 1000;

    QList<OutboxStatus> statuses; // any of these
    QString eventType; // exact
    QString aggregateId; // exact
    QString dedupeKey; // exact: the message's dedupe key, which is also its message id at the broker
    // Case-insensitive substring of the payload's JSON text. No index serves it: it is looked for only among the rows
    // of a created-time range (createdFrom is required), so a search that matches nothing reads that range once.
    QString payloadContains;
    QString errorContains; // case-insensitive substring of last_error
    QString errorSignature; // exact: the signature of last_error (a failure group)
    QList<qint64> ids; // only these rows (e.g. those an audited action touched); empty = any
    QDateTime createdFrom; // inclusive
    QDateTime createdTo; // exclusive
    qint64 unchangedForMs = 0; // last state change at least this long ago (e.g. dead for an hour); 0 = any
    bool stuckOnly = false; // see StuckRowClassifier
    bool blockingOnly = false; // dead rows with an ordering key: each holds back every later row of its key
    qint64 stuckThresholdMs = DefaultStuckThresholdMs;

    bool operator==(const OutboxFilter&) const = default;
};
