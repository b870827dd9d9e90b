// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/bucketclock.h"

#include "metrics/metricsrepository.h"

bool BucketClock::isComplete(const MetricPoint& point) const
{
    return !serverNow.isValid() || point.start.addSecs(bucketSeconds) <= serverNow;
}

bool BucketClock::hasStarted(const MetricPoint& point) const
{
    return !serverNow.isValid() || point.start < serverNow;
}
