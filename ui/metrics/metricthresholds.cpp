// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/metricthresholds.h"

#include "metrics/bucketclock.h"
#include "metrics/metricsrepository.h"

#include <QLocale>
#include <QSettings>

namespace {

const QString AgeKey = QStringLiteral("thresholds/oldestPendingAgeSeconds");
const QString HitRateKey = QStringLiteral("thresholds/duplicateHitRatePercent");
const QString RetryRateKey = QStringLiteral("thresholds/retryRatePercent");

QString number(double value)
{
    return QLocale().toString(value, 'f', 1);
}

} // namespace

MetricThresholds MetricThresholds::load(const QSettings& settings)
{
    const MetricThresholds defaults;
    MetricThresholds loaded;
    loaded.oldestPendingAgeSeconds = settings.value(AgeKey, defaults.oldestPendingAgeSeconds).toDouble();
    loaded.duplicateHitRatePercent = settings.value(HitRateKey, defaults.duplicateHitRatePercent).toDouble();
    loaded.retryRatePercent = settings.value(RetryRateKey, defaults.retryRatePercent).toDouble();
    return loaded;
}

void MetricThresholds::save(QSettings& settings) const
{
    settings.setValue(AgeKey, oldestPendingAgeSeconds);
    settings.setValue(HitRateKey, duplicateHitRatePercent);
    settings.setValue(RetryRateKey, retryRatePercent);
}

MetricThresholds::Evaluation MetricThresholds::evaluate(
    const QList<MetricPoint>& points, const BucketClock& clock) const
{
    Evaluation evaluation;
    const auto complete = std::find_if(
        points.crbegin(), points.crend(), [&clock](const MetricPoint& p) { return clock.isComplete(p); });
    if (complete != points.crend()) {
        const double hitRate = complete->duplicateHitRate().value_or(0) * 100.0;
        if (hitRate > duplicateHitRatePercent) {
            evaluation.exceeded.append(
                tr("duplicate hit rate %1 % > %2 %").arg(number(hitRate), number(duplicateHitRatePercent)));
        }
        const double retryRate = complete->retryRate().value_or(0) * 100.0;
        if (retryRate > retryRatePercent)
            evaluation.exceeded.append(tr("retry rate %1 % > %2 %").arg(number(retryRate), number(retryRatePercent)));
    }
    const auto sampled = std::find_if(points.crbegin(), points.crend(), [](const MetricPoint& p) { return p.backlog; });
    if (sampled != points.crend()) {
        const double ageSeconds = double(sampled->backlog->oldestUnpublishedAgeMs) / 1000.0;
        if (ageSeconds > oldestPendingAgeSeconds) {
            evaluation.exceeded.append(
                tr("oldest pending %1 s > %2 s").arg(number(ageSeconds), number(oldestPendingAgeSeconds)));
        }
    }
    evaluation.level = evaluation.exceeded.isEmpty() ? Level::Ok : Level::Warn;
    return evaluation;
}
