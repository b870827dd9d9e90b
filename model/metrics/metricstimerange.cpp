// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/metricstimerange.h"

#include <iterator>

namespace {

qint64 spanSeconds(MetricsTimeRange::Span span)
{
    switch (span) {
    case MetricsTimeRange::Span::Last15Minutes:
        return 15LL * 60;
    case MetricsTimeRange::Span::LastHour:
        return 3600;
    case MetricsTimeRange::Span::Last6Hours:
        return 6LL * 3600;
    case MetricsTimeRange::Span::Last24Hours:
        return 24LL * 3600;
    case MetricsTimeRange::Span::Last7Days:
        return 7LL * 24 * 3600;
    case MetricsTimeRange::Span::Custom:
        break;
    }
    Q_UNREACHABLE();
}

} // namespace

MetricsTimeRange::MetricsTimeRange(Span span)
    : m_span(span)
{
    Q_ASSERT(span != Span::Custom);
}

MetricsTimeRange::MetricsTimeRange(const QDateTime& from, const QDateTime& to)
    : m_span(Span::Custom)
    , m_from(from)
    , m_to(to)
{ }

QDateTime MetricsTimeRange::from(const QDateTime& now) const
{
    return m_span == Span::Custom ? m_from : now.addSecs(-spanSeconds(m_span));
}

QDateTime MetricsTimeRange::to(const QDateTime& now) const
{
    return m_span == Span::Custom ? m_to : now;
}

int MetricsTimeRange::bucketSecondsFor(qint64 windowSeconds)
{
    static constexpr int ladder[] = { 60, 5 * 60, 15 * 60, 3600, 6 * 3600, 24 * 3600 };
    for (int bucket : ladder) {
        const qint64 points = (windowSeconds + bucket - 1) / bucket;
        if (points <= MaxPoints)
            return bucket;
    }
    return ladder[std::size(ladder) - 1];
}
