// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QList>
#include <QStringList>

class QSettings;
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

    // Checks the rates of the last bucket of `points` and the oldest pending age of the last bucket the relay
    // sampled the backlog in: the relay samples once a minute, so the bucket in progress often has no sample
    // yet, and "no sample" must not read as "no backlog". A rate without a denominator exceeds nothing.
    Evaluation evaluate(const QList<MetricPoint>& points) const;

    bool operator==(const MetricThresholds& other) const = default;
};
