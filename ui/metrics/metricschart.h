// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/bucketclock.h"
#include "metrics/metricsrepository.h"

#include <QChartView>
#include <QFont>
#include <QTimeZone>
#include <concepts>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

class QCategoryAxis;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QValueAxis;

// A figure of one bucket, as MetricsChart::Figure takes it (a lambda converts to a Figure in one step).
template<typename F>
concept MetricFigureFunction = std::invocable<F, const MetricPoint&>;

// One chart of the Metrics tab: lines of per-bucket figures over a time axis in a chosen time zone.
// A refresh replaces the points of the existing lines, so nothing flickers and a range the operator zoomed
// into (rubber band along the time axis) stays until resetZoom(). Hovering a line shows the bucket's exact
// figures, clicking a legend marker hides or shows its line, and the context menu saves the chart as PNG.
// The time axis ticks whole buckets (minutes, 5 or 15 min, hours, days: as many as fit), each label under
// the point of the bucket that starts there. A window without buckets says so instead of showing axes.
class MetricsChart final : public QChartView {
    Q_OBJECT
public:
    // A line's figure in one bucket; nullopt where it has no value (a rate without a denominator, a backlog
    // nobody sampled). Such buckets are drawn as 0, never interpolated across, and hover shows "–".
    struct Figure {
        // PerBucket: what happened in the bucket (counts, rates, latencies). In the bucket still being filled
        // it is a part-count, not comparable with whole buckets: the line ends at the last complete bucket, and
        // the figure so far is a lighter dot apart from it.
        // Gauge: a peak over the bucket's samples; the peak so far is true already, so it is drawn normally.
        enum class Kind { PerBucket, Gauge };

        template<MetricFigureFunction F>
        Figure(F function, Kind kind = Kind::PerBucket)
            : value(std::move(function))
            , kind(kind)
        { }

        std::function<std::optional<double>(const MetricPoint&)> value;
        Kind kind;
    };

    explicit MetricsChart(const QString& title, QWidget* parent = nullptr);

    // A counter of the bucket; a figure of the bucket's backlog sample, where the relay sampled one.
    static Figure counter(qint64 MetricCounters::*member);
    static Figure backlog(double (*figure)(const BacklogSample&));
    // The zone TimeFormatter shows instants in, as a zone PostgreSQL can align buckets to. A local zone that is
    // no IANA name (a POSIX TZ string, say) falls back to UTC; the time axis is titled with the zone used.
    static QTimeZone displayZone();

    // A value axis; `decimals` for its labels.
    QValueAxis* addAxis(const QString& title, Qt::Alignment side, int decimals = 0);
    // `unit` and `decimals` format the figure on hover, e.g. "%" and 1.
    QLineSeries* addLine(
        const QString& name, QValueAxis* axis, Figure figure, const QString& unit = {}, int decimals = 0);
    // A dashed horizontal line across the whole window at the level given to setThreshold().
    QLineSeries* addThreshold(const QString& name, QValueAxis* axis);
    void setThreshold(QLineSeries* threshold, double level);

    // Shows `points`, buckets of `bucketSeconds`, on a time axis in `zone`. `serverNow` is the database's clock
    // when the points were read: a bucket that ends after it is unfinished (see Figure::Kind), one that starts
    // after it is not drawn. Without it every bucket is drawn as complete.
    void setPoints(
        const QList<MetricPoint>& points, int bucketSeconds, const QTimeZone& zone, const QDateTime& serverNow = {});

    // A category axis whose categories end at the ticks, labels on the tick (QCategoryAxis::
    // AxisLabelsPositionOnValue); its values are axisMSecs().
    QCategoryAxis* timeAxis() const { return m_time; }
    // The "so far" dot of `line` (a series of the unfinished bucket's point, if any); nullptr for a gauge's line.
    QLineSeries* soFar(const QLineSeries* line) const;
    // True while the window has no buckets and the chart shows "No data in this window".
    bool showsNoData() const;
    bool isZoomed() const { return m_zoomed; }
    void resetZoom();
    bool saveImage(const QString& path);

    // The msecs since the epoch at which the time axis shows the wall-clock time that `instant` has in `zone`.
    static qint64 axisMSecs(const QDateTime& instant, const QTimeZone& zone);

protected:
    void contextMenuEvent(QContextMenuEvent* event) final override;
    void mouseReleaseEvent(QMouseEvent* event) final override;

private:
    struct Line {
        QLineSeries* series;
        QLineSeries* soFar; // PerBucket figures only
        QValueAxis* axis;
        Figure figure;
        QString unit;
        int decimals;
    };
    struct ValueAxis {
        QValueAxis* axis;
        Qt::Alignment side;
        int decimals;
        QFont titleFont; // the theme's, which fitAxisTitles() shrinks for a low plot
        // The nice numbers that hold every figure: the top label and how many labels up to it.
        qreal top = 0;
        int ticks = 0;
    };
    struct Threshold {
        QLineSeries* series;
        QValueAxis* axis;
        double level;
    };

    void attach(QLineSeries* series, QValueAxis* axis);
    void toggle(QLineSeries* series);
    void showTimeRange(std::pair<qreal, qreal> range);
    // Where the unfinished bucket's dots are on the time axis, if the window has one.
    std::optional<qreal> dotX() const;
    std::pair<qreal, qreal> fullRange() const;
    void placeTicks();
    void showNoData(bool empty);
    void placeThresholds();
    void rescaleValueAxes();
    // The room the unfinished bucket's dot needs to be drawn whole inside the plot: the time axis beyond the
    // window's edge, the value axes below 0 and above their top.
    void makeRoom();
    // Qt Charts cuts a vertical axis's title to "…" where it is longer than the plot is high, or where the axis's
    // labels are narrower than "..." (see padLabels()).
    void fitAxisTitles();
    void padLabels(ValueAxis& value);
    void showFigures(const QPointF& hovered);
    void saveImageAs();

    QCategoryAxis* m_time;
    QGraphicsSimpleTextItem* m_noData;
    QList<ValueAxis> m_axes;
    QList<Line> m_lines;
    QList<Threshold> m_thresholds;
    QList<MetricPoint> m_points;
    QList<qreal> m_x; // axisMSecs of each point's start
    BucketClock m_clock;
    QTimeZone m_zone;
    qreal m_fullMin = 0;
    qreal m_fullMax = 0;
    bool m_zoomed = false;
    bool m_changingRange = false; // set while this class, not the operator, changes the axes
    bool m_makingRoom = false; // makeRoom() and fitAxisTitles() are due, after the layout under way
};
