// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxstatus.h"

#include <QDateTime>
#include <QString>

struct OutboxRowSummary;

// Which outbox rows need an operator. The SQL behind OutboxFilter::stuckOnly applies the same rules, so
// what is highlighted in a list and what the "stuck only" filter returns always agree.
class StuckRowClassifier final {
public:
    enum class Kind {
        NotStuck,
        LeaseExpired, // in_flight, but its worker's lease has run out: the worker is presumably gone
        Overdue, // pending or failed, due for longer than the threshold: no relay is picking it up
        Dead, // gave up after the maximum attempts
    };

    explicit StuckRowClassifier(qint64 thresholdMs);

    Kind classify(const OutboxRowSummary& row, const QDateTime& now) const;

    // The SQL condition for rows of `status` that count as stuck, with `?` for the threshold in ms where
    // the condition needs it (see needsThreshold), or an empty string if no row of that status is stuck.
    static QString condition(OutboxStatus status);
    static bool needsThreshold(OutboxStatus status);

    static QString describe(Kind kind);

private:
    qint64 m_thresholdMs;
};
