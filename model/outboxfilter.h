#pragma once

#include <QDateTime>
#include <QStringList>

// What the operator is looking at in the outbox. Every field narrows the set; an empty field does not.
struct OutboxFilter {
    static constexpr qint64 DefaultStuckThresholdMs = 5 * 60 * 1000;

    QStringList statuses; // any of pending, in_flight, published, failed, dead
    QString eventType; // exact
    QString aggregateId; // exact
    QString errorContains; // case-insensitive substring of last_error
    QDateTime createdFrom; // inclusive
    QDateTime createdTo; // exclusive
    qint64 unchangedForMs = 0; // last state change at least this long ago (e.g. dead for an hour); 0 = any
    bool stuckOnly = false; // see StuckRowClassifier
    qint64 stuckThresholdMs = DefaultStuckThresholdMs;

    bool operator==(const OutboxFilter&) const = default;
};

// The same for idempotency keys.
struct KeyFilter {
    QString keyPrefix;
    QStringList statuses; // any of in_progress, completed, failed
    QDateTime createdFrom;
    QDateTime createdTo;

    bool operator==(const KeyFilter&) const = default;
};
