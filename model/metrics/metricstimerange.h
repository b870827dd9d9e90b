// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>

// The span of time the Metrics tab charts: one of the "last …" spans, which slide to the present on every
// refresh, or a fixed custom range.
class MetricsTimeRange final {
public:
    enum class Span { Last15Minutes, LastHour, Last6Hours, Last24Hours, Last7Days, Custom };

    // A "last …" span; Span::Custom needs the other constructor.
    explicit MetricsTimeRange(Span span = Span::LastHour);
    // A fixed range [from, to).
    MetricsTimeRange(const QDateTime& from, const QDateTime& to);

    Span span() const { return m_span; }
    // The range as of `now`: a "last …" span ends at `now`, a custom range ignores it.
    QDateTime from(const QDateTime& now) const;
    QDateTime to(const QDateTime& now) const;

    bool operator==(const MetricsTimeRange& other) const = default;

    static constexpr int MaxPoints = 500;
    // The smallest of 1 min, 5 min, 15 min, 1 h, 6 h and 1 d that cuts a window of `windowSeconds` into at most
    // MaxPoints buckets (1 d for longer windows). Rollups are per minute, so no bucket is finer than a minute:
    // a 15 min window has only 15 points.
    static int bucketSecondsFor(qint64 windowSeconds);

private:
    Span m_span;
    QDateTime m_from; // Custom only
    QDateTime m_to;
};
