// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/metricschart.h"

#include "core/timeformatter.h"

#include <QContextMenuEvent>
#include <QDateTimeAxis>
#include <QDir>
#include <QFileDialog>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QToolTip>
#include <QValueAxis>
#include <cmath>

namespace {

constexpr qint64 DayMSecs = 24LL * 3600 * 1000;
const QColor ThresholdColor(0xdc, 0x32, 0x2f); // the Overview's alarm red, readable on light and dark themes

} // namespace

MetricsChart::Figure MetricsChart::counter(qint64 MetricCounters::*member)
{
    return [member](const MetricPoint& point) { return std::optional<double>(double(point.counters.*member)); };
}

MetricsChart::Figure MetricsChart::backlog(double (*figure)(const BacklogSample&))
{
    return [figure](const MetricPoint& point) {
        return point.backlog ? std::optional<double>(figure(*point.backlog)) : std::nullopt;
    };
}

QTimeZone MetricsChart::displayZone()
{
    if (TimeFormatter::zone() == TimeFormatter::Zone::Local) {
        const QByteArray local = QTimeZone::systemTimeZoneId();
        if (MetricsRepository::isSupportedTimeZone(QString::fromUtf8(local)))
            return QTimeZone(local);
    }
    return QTimeZone::utc();
}

MetricsChart::MetricsChart(const QString& title, QWidget* parent)
    : QChartView(new QChart, parent)
    , m_time(new QDateTimeAxis)
{
    QChart* chart = this->chart();
    chart->setTheme(
        palette().color(QPalette::Window).lightness() < 128 ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    chart->legend()->setFont(legendFont);
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::HorizontalRubberBand);
    setMinimumSize(360, 260);

    m_time->setTickCount(7);
    m_time->setFormat(QStringLiteral("HH:mm"));
    chart->addAxis(m_time, Qt::AlignBottom);
    // The rubber band zooms by changing this axis's range; everything else that changes it sets the flag.
    connect(m_time, &QDateTimeAxis::rangeChanged, this, [this] {
        if (!m_changingRange)
            m_zoomed = true;
    });
}

QValueAxis* MetricsChart::addAxis(const QString& title, Qt::Alignment side, int decimals)
{
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
    // One grid, the left axis's: a second one that matches no label would only confuse.
    axis->setGridLineVisible(side == Qt::AlignLeft);
    chart()->addAxis(axis, side);
    m_axes.append({ axis, decimals });
    return axis;
}

QLineSeries* MetricsChart::addLine(
    const QString& name, QValueAxis* axis, Figure figure, const QString& unit, int decimals)
{
    auto* series = new QLineSeries;
    series->setName(name);
    attach(series, axis);
    connect(series, &QXYSeries::hovered, this, [this](const QPointF& point, bool entered) {
        if (entered)
            showFigures(point);
        else
            QToolTip::hideText();
    });
    m_lines.append({ series, axis, std::move(figure), unit, decimals });
    return series;
}

QLineSeries* MetricsChart::addThreshold(const QString& name, QValueAxis* axis)
{
    auto* series = new QLineSeries;
    series->setName(name);
    attach(series, axis);
    // After attach(): adding a series to a chart gives it the theme's pen.
    series->setPen(QPen(ThresholdColor, 1.5, Qt::DashLine));
    m_thresholds.append({ series, axis, 0 });
    return series;
}

void MetricsChart::setThreshold(QLineSeries* threshold, double level)
{
    for (Threshold& candidate : m_thresholds) {
        if (candidate.series == threshold)
            candidate.level = level;
    }
    placeThresholds();
    rescaleValueAxes();
}

void MetricsChart::attach(QLineSeries* series, QValueAxis* axis)
{
    const QScopedValueRollback changing(m_changingRange, true);
    chart()->addSeries(series);
    series->attachAxis(m_time);
    series->attachAxis(axis);
    for (QLegendMarker* marker : chart()->legend()->markers(series))
        connect(marker, &QLegendMarker::clicked, this, [this, series] { toggle(series); });
}

void MetricsChart::toggle(QLineSeries* series)
{
    const QScopedValueRollback changing(m_changingRange, true);
    series->setVisible(!series->isVisible());
    for (QLegendMarker* marker : chart()->legend()->markers(series)) {
        // Hiding a series hides its marker too; keep the marker, dimmed, so that a click shows the line again.
        marker->setVisible(true);
        QColor label = marker->labelBrush().color();
        label.setAlphaF(series->isVisible() ? 1.0 : 0.4);
        marker->setLabelBrush(label);
    }
    rescaleValueAxes();
}

// QDateTimeAxis (Qt 6.4) has no time zone: it labels a value v as QDateTime::fromMSecsSinceEpoch(v), that is
// in the process's local time. To label the axis in another zone (UTC, or any zone but the machine's), each
// bucket goes to the msecs whose local-time rendering is the bucket's wall-clock time in `zone`. Where the
// instant itself already renders so (the zone is the local one, or both agree at that instant) it is kept:
// that stays exact in an hour the local zone repeats when its clocks go back. Otherwise the wall-clock time
// is read as local time. Only hover and the CSV export need the true instants, and they read them from the
// points, not from the axis.
qint64 MetricsChart::axisMSecs(const QDateTime& instant, const QTimeZone& zone)
{
    const QDateTime wallClock = instant.toTimeZone(zone);
    const QDateTime local = instant.toLocalTime();
    if (local.date() == wallClock.date() && local.time() == wallClock.time())
        return instant.toMSecsSinceEpoch();
    return QDateTime(wallClock.date(), wallClock.time(), Qt::LocalTime).toMSecsSinceEpoch();
}

void MetricsChart::setPoints(const QList<MetricPoint>& points, int bucketSeconds, const QTimeZone& zone)
{
    const QScopedValueRollback changing(m_changingRange, true);
    m_points = points;
    m_bucketSeconds = bucketSeconds;
    m_zone = zone;
    m_x.clear();
    m_x.reserve(points.size());
    for (const MetricPoint& point : points)
        m_x.append(qreal(axisMSecs(point.start, zone)));
    for (const Line& line : m_lines) {
        QList<QPointF> xy;
        xy.reserve(points.size());
        for (qsizetype i = 0; i < points.size(); ++i)
            xy.append(QPointF(m_x.at(i), line.figure(points.at(i)).value_or(0)));
        line.series->replace(xy);
    }
    m_time->setTitleText(QString::fromUtf8(zone.id()));
    if (!points.isEmpty()) {
        m_fullMin = m_x.first();
        m_fullMax = qreal(axisMSecs(points.last().start.addSecs(bucketSeconds), zone));
        m_time->setFormat(m_fullMax - m_fullMin > DayMSecs ? QStringLiteral("MM-dd HH:mm") : QStringLiteral("HH:mm"));
        if (!m_zoomed)
            showTimeRange(m_fullMin, m_fullMax);
    }
    placeThresholds();
    rescaleValueAxes();
}

void MetricsChart::resetZoom()
{
    m_zoomed = false;
    if (!m_points.isEmpty())
        showTimeRange(m_fullMin, m_fullMax);
    rescaleValueAxes();
}

void MetricsChart::showTimeRange(qreal minMSecs, qreal maxMSecs)
{
    const QScopedValueRollback changing(m_changingRange, true);
    m_time->setRange(
        QDateTime::fromMSecsSinceEpoch(qint64(minMSecs)), QDateTime::fromMSecsSinceEpoch(qint64(maxMSecs)));
}

void MetricsChart::placeThresholds()
{
    for (const Threshold& threshold : m_thresholds) {
        if (m_points.isEmpty())
            threshold.series->clear();
        else
            threshold.series->replace({ QPointF(m_fullMin, threshold.level), QPointF(m_fullMax, threshold.level) });
    }
}

void MetricsChart::rescaleValueAxes()
{
    const QScopedValueRollback changing(m_changingRange, true);
    for (const auto& [axis, decimals] : std::as_const(m_axes)) {
        double top = 0;
        for (const Line& line : std::as_const(m_lines)) {
            if (line.axis != axis || !line.series->isVisible())
                continue;
            for (const QPointF& point : line.series->points())
                top = qMax(top, point.y());
        }
        // A warning level stays in view even while every figure is far below it.
        for (const Threshold& threshold : std::as_const(m_thresholds)) {
            if (threshold.axis == axis && threshold.series->isVisible())
                top = qMax(top, threshold.level);
        }
        // At least four label steps of the axis's precision, so that no label repeats: an axis of whole counts
        // from 0 to 1 would read "0 0 0 1 1 1".
        axis->setRange(0, qMax(top * 1.05, 4.0 / std::pow(10.0, decimals)));
        axis->applyNiceNumbers();
    }
}

void MetricsChart::showFigures(const QPointF& hovered)
{
    if (m_x.isEmpty())
        return;
    qsizetype nearest = 0;
    for (qsizetype i = 1; i < m_x.size(); ++i) {
        if (qAbs(m_x.at(i) - hovered.x()) < qAbs(m_x.at(nearest) - hovered.x()))
            nearest = i;
    }
    const MetricPoint& point = m_points.at(nearest);
    const QDateTime start = point.start.toTimeZone(m_zone);
    const QDateTime end = point.start.addSecs(m_bucketSeconds).toTimeZone(m_zone);
    QStringList text {
        tr("%1 – %2 (%3)")
            .arg(start.toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                end.toString(end.date() == start.date() ? QStringLiteral("HH:mm") : QStringLiteral("yyyy-MM-dd HH:mm")),
                m_zone.displayName(point.start, QTimeZone::OffsetName))
    };
    for (const Line& line : std::as_const(m_lines)) {
        if (!line.series->isVisible())
            continue;
        const std::optional<double> value = line.figure(point);
        const QString unit = line.unit.isEmpty() ? QString() : QLatin1Char(' ') + line.unit;
        text.append(tr("%1: %2").arg(
            line.series->name(), value ? QLocale().toString(*value, 'f', line.decimals) + unit : QStringLiteral("–")));
    }
    QToolTip::showText(QCursor::pos(), text.join(QLatin1Char('\n')), this);
}

bool MetricsChart::saveImage(const QString& path)
{
    return grab().save(path, "PNG");
}

void MetricsChart::saveImageAs()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save chart"), chart()->title() + QStringLiteral(".png"), tr("PNG images (*.png)"));
    if (!path.isEmpty() && !saveImage(path))
        QMessageBox::warning(this, tr("Save chart"), tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)));
}

void MetricsChart::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addAction(tr("Reset zoom"), this, &MetricsChart::resetZoom)->setEnabled(m_zoomed);
    menu.addAction(tr("Save as PNG…"), this, &MetricsChart::saveImageAs);
    menu.exec(event->globalPos());
}

void MetricsChart::mouseReleaseEvent(QMouseEvent* event)
{
    // QChartView zooms out one step on a right click, which would fight the context menu; Reset zoom is the
    // way back to the whole window.
    if (event->button() == Qt::RightButton) {
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}
