#include "metricswindow.h"

#include <iterator>

namespace {

qint64 spanSeconds(MetricsWindow::Span span)
{
    switch (span) {
    case MetricsWindow::Span::Last15Minutes:
        return 15 * 60;
    case MetricsWindow::Span::LastHour:
        return 3600;
    case MetricsWindow::Span::Last6Hours:
        return 6 * 3600;
    case MetricsWindow::Span::Last24Hours:
        return 24 * 3600;
    case MetricsWindow::Span::Last7Days:
        return 7 * 24 * 3600;
    case MetricsWindow::Span::Custom:
        break;
    }
    Q_UNREACHABLE();
}

} // namespace

MetricsWindow::MetricsWindow(Span span)
    : m_span(span)
{
    Q_ASSERT(span != Span::Custom);
}

MetricsWindow::MetricsWindow(const QDateTime& from, const QDateTime& to)
    : m_span(Span::Custom)
    , m_from(from)
    , m_to(to)
{ }

QDateTime MetricsWindow::from(const QDateTime& now) const
{
    return m_span == Span::Custom ? m_from : now.addSecs(-spanSeconds(m_span));
}

QDateTime MetricsWindow::to(const QDateTime& now) const
{
    return m_span == Span::Custom ? m_to : now;
}

int MetricsWindow::bucketSecondsFor(qint64 windowSeconds)
{
    static constexpr int ladder[] = { 60, 5 * 60, 15 * 60, 3600, 6 * 3600, 24 * 3600 };
    for (int bucket : ladder) {
        const qint64 points = (windowSeconds + bucket - 1) / bucket;
        if (points <= MaxPoints)
            return bucket;
    }
    return ladder[std::size(ladder) - 1];
}
