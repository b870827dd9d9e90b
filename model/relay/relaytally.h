// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/relaystatus.h"

#include <QElapsedTimer>
#include <mutex>
#include <optional>

struct RelayBatchResult;

// The running totals of one relay process, added to by all of its workers. Thread-safe.
class RelayTally final {
    Q_DISABLE_COPY_MOVE(RelayTally)
public:
    RelayTally() = default;

    void addBatch(const RelayBatchResult& batch, qint64 batchMs);
    void addRescue(const RelayBatchResult& rescued);
    void addHandedBack(qint64 rows);

    RelayTotals totals() const;

    // The error of the newest failed publish, and how long ago it was; nullopt before the first.
    struct Failure {
        QString error;
        qint64 ageMs = 0;
    };
    std::optional<Failure> lastFailure() const;

private:
    mutable std::mutex m_mutex;
    RelayTotals m_totals;
    QString m_lastFailure;
    QElapsedTimer m_lastFailureAge;
};
