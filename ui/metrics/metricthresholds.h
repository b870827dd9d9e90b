// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QList>
#include <QStringList>

class QSettings;
struct BucketClock;
struct MetricPoint;

// The warning levels of the Metrics tab, drawn as dashed lines on its charts and checked against the latest
// figures. Stored in QSettings under "thresholds/".
class MetricThresholds final {
    Q_DECLARE_TR_FUNCTIONS(MetricThresholds)
public:
    enum class Level { Ok, Warn };
    struct Evaluation {
        Level level = Level::Ok;
        QStringList exceeded; // one line per figure above its level, e.g. "retry rate 12.5 % > 10 %"
    };

    double oldestPendingAgeSeconds = 60;
    double duplicateHitRatePercent = 5;
    double retryRatePercent = 10;

    static MetricThresholds load(const QSettings& settings);
    void save(QSettings& settings) const;

    // Checks the rates of the last complete bucket of `points` (by `clock`): the bucket still being filled has
    // counted a part of its requests only, and seconds into a minute one replay in two requests would read as
    // 50 %. And the oldest pending age of the last bucket the relay sampled the backlog in, the unfinished one
    // included: that is the peak so far, which the closed bucket can only match or exceed, so it raises no
    // warning the complete bucket would not; relays sample every few seconds, so the bucket in progress may have
    // no sample yet, and "no sample" must not read as "no backlog". A rate without a denominator exceeds
    // nothing.
    Evaluation evaluate(const QList<MetricPoint>& points, const BucketClock& clock) const;

    bool operator==(const MetricThresholds& other) const = default;
};
