// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/latencyhistogram.h"

#include <bit>
#include <cmath>

int LatencyHistogram::bucketFor(qint64 latencyMs)
{
    if (latencyMs < 1)
        return 0;
    const int width = int(std::bit_width(quint64(latencyMs))); // 1 -> 1, 2..3 -> 2, 4..7 -> 3, ...
    return qMin(width, Buckets - 1);
}

qint64 LatencyHistogram::upperBoundMs(int bucket)
{
    if (bucket >= Buckets - 1)
        return qint64(1) << (Buckets - 2);
    return qint64(1) << bucket;
}

qint64 LatencyHistogram::quantileMs(const QList<qint64>& counts, double q, qint64 observedMaxMs)
{
    qint64 total = 0;
    for (qint64 c : counts)
        total += c;
    if (total == 0)
        return -1;
    const qint64 rank = qMax<qint64>(1, qint64(std::ceil(q * double(total))));
    qint64 seen = 0;
    for (int i = 0; i < counts.size(); ++i) {
        seen += counts.at(i);
        if (seen >= rank)
            return qMin(upperBoundMs(i), observedMaxMs);
    }
    return observedMaxMs;
}
