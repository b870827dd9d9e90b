// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/metriccounters.h"

#include <QMap>
#include <QMutex>
#include <functional>

class DbSession;

// In-process metric counters, batched per minute and flushed to metric_rollups by flush(), which the
// owner calls about once a second (and once at shutdown). Recording is a mutex-protected addition, so
// the replay path never pays for a database write of its own. A crash loses at most the counters since
// the last flush plus the last asynchronously committed flush (well under a second); never data.
// Thread-safe.
class MetricsRecorder final {
    Q_DISABLE_COPY_MOVE(MetricsRecorder)
public:
    // Rows are sharded by writer so processes do not contend on one hot row; the shard is random per recorder.
    MetricsRecorder();
    explicit MetricsRecorder(int shard);

    // Adds to the current minute's counters (by this machine's clock).
    void record(const std::function<void(MetricCounters&)>& change);

    // Writes everything recorded so far in one transaction with synchronous_commit off. On failure the
    // counters are kept for the next flush and the OutboxError is rethrown.
    void flush(DbSession& session);

private:
    int m_shard;
    QMutex m_mutex;
    QMap<qint64, MetricCounters> m_pending; // minute start, ms since epoch -> counters
};
