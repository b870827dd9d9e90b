// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>

struct MetricPoint;

// Which buckets of a series had closed when it was read. The last bucket of a window that ends now is still
// being filled: its counts and rates cover part of the bucket only and are not comparable with whole
// buckets, so the charts draw it apart and the warning levels do not judge its rates. Judged by the
// database's clock, which also stamps the rollups, never by this machine's.
struct BucketClock {
    int bucketSeconds = 0;
    QDateTime serverNow; // invalid: every bucket counts as complete (a series read without the clock)

    // The bucket had ended when the series was read.
    bool isComplete(const MetricPoint& point) const;
    // The bucket had begun: a custom window may reach into the future, whose buckets hold nothing yet.
    bool hasStarted(const MetricPoint& point) const;
};
