// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QtGlobal>

// A fixed log2-scale latency histogram. Bucket 0 holds [0, 1) ms, bucket i (1..Buckets-2) holds
// [2^(i-1), 2^i) ms, the last bucket everything from 2^(Buckets-2) ms (about 35 min) up. Fixed bounds make
// histograms from different processes and minutes addable element by element.
class LatencyHistogram final {
public:
    static constexpr int Buckets = 24;

    static int bucketFor(qint64 latencyMs);
    static qint64 upperBoundMs(int bucket); // exclusive; the last bucket reports its lower bound

    // The upper bound of the bucket holding the q-quantile (0 < q <= 1), clamped to `observedMaxMs`;
    // -1 when the histogram is empty.
    static qint64 quantileMs(const QList<qint64>& counts, double q, qint64 observedMaxMs);
};

// Observations counted into LatencyHistogram's buckets, with their number and sum: what a Prometheus histogram
// reports.
struct LatencyTally {
    QList<qint64> buckets = QList<qint64>(LatencyHistogram::Buckets, 0);
    qint64 count = 0;
    qint64 sumMs = 0;

    void add(qint64 ms)
    {
        ++buckets[LatencyHistogram::bucketFor(ms)];
        ++count;
        sumMs += qMax<qint64>(0, ms);
    }
};
