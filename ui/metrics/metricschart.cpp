// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/metricschart.h"

#include "core/timeformatter.h"

#include <QCategoryAxis>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QFontMetrics>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QScopedValueRollback>
#include <QSet>
#include <QTimer>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <iterator>

namespace {

constexpr int DaySeconds = 86'400;
const QColor ThresholdColor(0xdc, 0x32, 0x2f); // the Overview's alarm red, readable on light and dark themes
// A colour per line, far apart from each other and from the warning levels' red, on light and dark themes alike: the
// themes' own repeat within five lines, and each line's dot of the unfinished bucket took one of them too.
const QColor LineColors[] = { QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
    QColor(0x94, 0x67, 0xbd), QColor(0x17, 0xbe, 0xcf), QColor(0xbc, 0xbd, 0x22) };
// The radius of the unfinished bucket's dot, in pixels.
constexpr int DotRadius = 5;

// The unfinished bucket's dot in `colour`, as a series' light marker (of the series' marker size).
QImage dotImage(const QColor& colour)
{
    QImage image(2 * DotRadius, 2 * DotRadius, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    painter.drawEllipse(image.rect());
    return image;
}

// The distances between ticks, from the finest: each divides a day or is whole days, so ticks fall on the same
// wall-clock times every day. Only multiples of the bucket qualify, so that every tick is a bucket boundary.
constexpr int TickSeconds[] = { 10, 15, 30, 60, 300, 600, 900, 1800, 3600, 7200, 10'800, 21'600, 43'200, DaySeconds,
    2 * DaySeconds, 7 * DaySeconds };

// The wall-clock time an axis value shows (see MetricsChart::axisMSecs).
QDateTime wallClock(qreal axisMSecs)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(axisMSecs));
}

// A tick of `tickSeconds` sits at whole multiples of it since midnight; ticks of days at midnight, of two days
// on even Julian days, of a week on Mondays.
bool isTick(const QDateTime& time, int tickSeconds)
{
    if (tickSeconds < DaySeconds)
        return time.time().msecsSinceStartOfDay() % (tickSeconds * 1000) == 0;
    if (time.time() != QTime(0, 0))
        return false;
    if (tickSeconds == 2 * DaySeconds)
        return time.date().toJulianDay() % 2 == 0;
    if (tickSeconds == 7 * DaySeconds)
        return time.date().dayOfWeek() == Qt::Monday;
    return true;
}

// The widest times of day and dates the time axis writes in the console's language (two-digit days, months and
// hours, morning and afternoon), for the room its labels need.
const QDate WidestDay(2026, 12, 28);
const QTime WidestTimes[] = { QTime(10, 58, 58), QTime(22, 58, 58) };

int widestTimeOfDay(const QFontMetrics& metrics, bool withSeconds)
{
    int widest = 0;
    for (const QTime& time : WidestTimes)
        widest = qMax(widest, metrics.horizontalAdvance(TimeFormatter::timeOfDay(time, withSeconds)));
    return widest;
}

// A tick's label that names its day as well as its time.
QString dayAndTime(const QDate& date, const QTime& time)
{
    return TimeFormatter::monthAndDay(date) + QLatin1Char(' ') + TimeFormatter::timeOfDay(time);
}

int widestDayAndTime(const QFontMetrics& metrics)
{
    int widest = 0;
    for (const QTime& time : WidestTimes)
        widest = qMax(widest, metrics.horizontalAdvance(dayAndTime(WidestDay, time)));
    return widest;
}

} // namespace

MetricsChart::Figure MetricsChart::counter(qint64 MetricCounters::*member)
{
    return [member](const MetricPoint& point) { return std::optional<double>(double(point.counters.*member)); };
}

MetricsChart::Figure MetricsChart::backlog(double (*figure)(const BacklogSample&))
{
    return Figure(
        [figure](const MetricPoint& point) {
            return point.backlog ? std::optional<double>(figure(*point.backlog)) : std::nullopt;
        },
        Figure::Kind::Gauge);
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
    , m_time(new QCategoryAxis)
    , m_noData(new QGraphicsSimpleTextItem(tr("No data in this window"), chart()))
{
    QChart* chart = this->chart();
    chart->setTheme(
        palette().color(QPalette::Window).lightness() < 128 ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setBackgroundRoundness(0);
    // Room on the right for half the label of a tick at the window's end, until a right axis takes that place.
    chart->setMargins(QMargins(4, 4, 4 + widestTimeOfDay(QFontMetrics(m_time->labelsFont()), false) / 2, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    chart->legend()->setFont(legendFont);
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::HorizontalRubberBand);
    setMinimumSize(360, 260);

    // QDateTimeAxis (Qt 6.4) spreads a tick count evenly from min to max, so its ticks fall between buckets
    // unless the range happens to be a whole number of tick steps; a category axis puts them where asked.
    m_time->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    chart->addAxis(m_time, Qt::AlignBottom);
    // The rubber band zooms by changing this axis's range; everything else that changes it sets the flag.
    connect(m_time, &QValueAxis::rangeChanged, this, [this] {
        if (!m_changingRange)
            m_zoomed = true;
        placeTicks();
    });
    // As many ticks as fit the plot's width.
    connect(chart, &QChart::plotAreaChanged, this, [this] {
        placeTicks();
        const QRectF plot = this->chart()->plotArea();
        const QRectF text = m_noData->boundingRect();
        m_noData->setPos(plot.center() - QPointF(text.width() / 2, text.height() / 2));
        // The dot's room is in the plot's pixels. Once the layout that changed the plot is done: ranges changed
        // inside it lay the chart out again, and again.
        if (!m_makingRoom) {
            m_makingRoom = true;
            QTimer::singleShot(0, this, [this] {
                m_makingRoom = false;
                makeRoom();
                fitAxisTitles();
            });
        }
    });
    QFont noDataFont = chart->titleFont();
    noDataFont.setBold(false);
    m_noData->setFont(noDataFont);
    m_noData->setBrush(chart->titleBrush());
    m_noData->setZValue(10);
    showNoData(true);
}

QValueAxis* MetricsChart::addAxis(const QString& title, Qt::Alignment side, int decimals)
{
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
    // One grid, the left axis's: a second one that matches no label would only confuse.
    axis->setGridLineVisible(side == Qt::AlignLeft);
    chart()->addAxis(axis, side);
    if (side & Qt::AlignRight)
        chart()->setMargins(QMargins(4, 4, 4, 4));
    axis->setVisible(!showsNoData());
    // After addAxis(): adding an axis to a chart gives it the theme's fonts.
    m_axes.append({ axis, side, decimals, axis->titleFont() });
    return axis;
}

QLineSeries* MetricsChart::addLine(
    const QString& name, QValueAxis* axis, Figure figure, const QString& unit, int decimals)
{
    const auto hover = [this](const QPointF& point, bool entered) {
        if (entered)
            showFigures(point);
        else
            QToolTip::hideText();
    };
    auto* series = new QLineSeries;
    series->setName(name);
    attach(series, axis);
    // After attach(): adding a series to a chart gives it the theme's pen.
    series->setColor(LineColors[m_lines.size() % std::size(LineColors)]);
    connect(series, &QXYSeries::hovered, this, hover);
    QLineSeries* soFar = nullptr;
    if (figure.kind == Figure::Kind::PerBucket) {
        soFar = new QLineSeries;
        soFar->setName(tr("%1 (so far)").arg(name));
        {
            const QScopedValueRollback changing(m_changingRange, true);
            chart()->addSeries(soFar);
            soFar->attachAxis(m_time);
            soFar->attachAxis(axis);
        }
        // A lighter dot of the line's colour, not joined to the line: a line down to a part-count is the cliff
        // that every refresh used to show at the right edge.
        QColor colour = series->pen().color();
        colour.setAlphaF(0.5);
        soFar->setColor(colour); // its one point has no line to draw, only the marker
        soFar->setLightMarker(dotImage(colour));
        soFar->setMarkerSize(2 * DotRadius); // a light marker's width
        // Its legend entry is the line's: clicking that hides both.
        for (QLegendMarker* marker : chart()->legend()->markers(soFar))
            marker->setVisible(false);
        connect(soFar, &QXYSeries::hovered, this, hover);
    }
    m_lines.append({ series, soFar, axis, std::move(figure), unit, decimals });
    return series;
}

QLineSeries* MetricsChart::soFar(const QLineSeries* line) const
{
    for (const Line& candidate : m_lines) {
        if (candidate.series == line)
            return candidate.soFar;
    }
    return nullptr;
}

bool MetricsChart::showsNoData() const
{
    return m_noData->isVisible();
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
    if (QLineSeries* dot = soFar(qobject_cast<QLineSeries*>(series))) {
        dot->setVisible(series->isVisible());
        // Showing a series shows its legend marker again; the dot's entry is its line's.
        for (QLegendMarker* marker : chart()->legend()->markers(dot))
            marker->setVisible(false);
    }
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

void MetricsChart::setPoints(
    const QList<MetricPoint>& points, int bucketSeconds, const QTimeZone& zone, const QDateTime& serverNow)
{
    const QScopedValueRollback changing(m_changingRange, true);
    m_points = points;
    m_clock = { bucketSeconds, serverNow };
    m_zone = zone;
    m_x.clear();
    m_x.reserve(points.size());
    for (const MetricPoint& point : points)
        m_x.append(qreal(axisMSecs(point.start, zone)));
    for (const Line& line : std::as_const(m_lines)) {
        QList<QPointF> whole;
        QList<QPointF> partial;
        whole.reserve(points.size());
        for (qsizetype i = 0; i < points.size(); ++i) {
            const MetricPoint& point = points.at(i);
            if (!m_clock.hasStarted(point))
                break;
            const QPointF xy(m_x.at(i), line.figure.value(point).value_or(0));
            if (!line.soFar || m_clock.isComplete(point))
                whole.append(xy);
            else
                partial.append(xy);
        }
        line.series->replace(whole);
        if (line.soFar)
            line.soFar->replace(partial);
    }
    m_time->setTitleText(QString::fromUtf8(zone.id()));
    showNoData(points.isEmpty());
    if (!points.isEmpty()) {
        m_fullMin = m_x.first();
        m_fullMax = qreal(axisMSecs(points.last().start.addSecs(bucketSeconds), zone));
    }
    placeTicks();
    placeThresholds();
    rescaleValueAxes();
}

void MetricsChart::resetZoom()
{
    m_zoomed = false;
    rescaleValueAxes();
}

void MetricsChart::showTimeRange(std::pair<qreal, qreal> range)
{
    const QScopedValueRollback changing(m_changingRange, true);
    m_time->setRange(range.first, range.second);
}

std::optional<qreal> MetricsChart::dotX() const
{
    for (const Line& line : m_lines) {
        if (line.soFar && line.soFar->count() > 0)
            return line.soFar->at(0).x();
    }
    return std::nullopt;
}

// The whole window, and beyond its end (or start) the room the unfinished bucket's dot needs in the plot: one bucket
// may be narrower than the dot.
std::pair<qreal, qreal> MetricsChart::fullRange() const
{
    qreal min = m_fullMin;
    qreal max = m_fullMax;
    const std::optional<qreal> x = dotX();
    // The dot's radius as a share of the plot's width, and so of the axis's span, which the room added widens.
    const qreal share = DotRadius / chart()->plotArea().width();
    if (!x || !(share > 0 && share < 0.5))
        return { min, max };
    if (*x + share * (max - min) > max)
        max = *x + share * (*x - min) / (1 - share);
    else if (*x - share * (max - min) < min)
        min = *x - share * (max - *x) / (1 - share);
    return { min, max };
}

// Ticks on the bucket boundaries in view (each bucket's start, and the end of the last) whose wall-clock time is
// a whole multiple of the finest tick distance that leaves room for every label.
void MetricsChart::placeTicks()
{
    for (const QString& label : m_time->categoriesLabels())
        m_time->remove(label);
    if (m_points.isEmpty() || m_clock.bucketSeconds <= 0)
        return;
    QList<qreal> boundaries = m_x;
    boundaries.append(m_fullMax);
    const qreal min = m_time->min();
    const qreal max = m_time->max();
    const QFontMetrics metrics(m_time->labelsFont());
    const qreal width = chart()->plotArea().width() > 0 ? chart()->plotArea().width() : qreal(this->width());
    // The room a label needs: a category axis cuts a label wider than its category to "19:06:…". Seconds show in
    // full; times of minutes are short, and a date on a few of them may reach into the neighbours.
    const auto fitting = [&](int tickSeconds) {
        const int labelWidth = tickSeconds < 60 ? widestTimeOfDay(metrics, true) + metrics.averageCharWidth() * 3
                                                : widestDayAndTime(metrics) / 2 + metrics.averageCharWidth() * 4;
        return qMax(2.0, width / labelWidth);
    };

    int tickSeconds = 0;
    QList<qreal> ticks;
    for (const int candidate : TickSeconds) {
        if (candidate % m_clock.bucketSeconds != 0)
            continue;
        QList<qreal> at;
        for (const qreal x : std::as_const(boundaries)) {
            if (x >= min && x <= max && isTick(wallClock(x), candidate))
                at.append(x);
        }
        tickSeconds = candidate;
        ticks = at;
        if ((max - min) / 1000.0 / candidate <= fitting(candidate))
            break;
    }

    // Midnight shows its date, other ticks the time; a window of days shows dates only.
    const bool manyDates = wallClock(min).date() != wallClock(max).date();
    QSet<QString> used;
    m_time->setStartValue(min);
    for (const qreal x : std::as_const(ticks)) {
        const QDateTime time = wallClock(x);
        QString label = tickSeconds >= DaySeconds || (manyDates && time.time() == QTime(0, 0))
            ? TimeFormatter::monthAndDay(time.date())
            : TimeFormatter::timeOfDay(time.time(), tickSeconds < 60);
        // QCategoryAxis keys its categories by label: a time of day repeated on another day names its date.
        if (used.contains(label))
            label = dayAndTime(time.date(), time.time());
        if (used.contains(label))
            continue; // an hour a clock change repeats: its ticks would fall on the same place anyway
        used.insert(label);
        m_time->append(label, x);
    }
}

void MetricsChart::showNoData(bool empty)
{
    m_noData->setVisible(empty);
    QList<QAbstractAxis*> axes { m_time };
    for (const ValueAxis& axis : std::as_const(m_axes))
        axes.append(axis.axis);
    // Without buckets an axis would label a range that means nothing; its title alone would be laid out
    // askew.
    for (QAbstractAxis* axis : axes)
        axis->setVisible(!empty);
}

void MetricsChart::placeThresholds()
{
    const auto [from, to] = fullRange();
    for (const Threshold& threshold : m_thresholds) {
        if (m_points.isEmpty())
            threshold.series->clear();
        else
            threshold.series->replace({ QPointF(from, threshold.level), QPointF(to, threshold.level) });
    }
}

void MetricsChart::rescaleValueAxes()
{
    const QScopedValueRollback changing(m_changingRange, true);
    for (ValueAxis& value : m_axes) {
        double top = 0;
        for (const Line& line : std::as_const(m_lines)) {
            if (line.axis != value.axis || !line.series->isVisible())
                continue;
            for (const QPointF& point : line.series->points())
                top = qMax(top, point.y());
            if (line.soFar) {
                for (const QPointF& point : line.soFar->points())
                    top = qMax(top, point.y());
            }
        }
        // A warning level stays in view even while every figure is far below it.
        for (const Threshold& threshold : std::as_const(m_thresholds)) {
            if (threshold.axis == value.axis && threshold.series->isVisible())
                top = qMax(top, threshold.level);
        }
        // At least four label steps of the axis's precision, so that no label repeats: an axis of whole counts
        // from 0 to 1 would read "0 0 0 1 1 1".
        value.axis->setTickType(QValueAxis::TicksFixed);
        value.axis->setRange(0, qMax(top * 1.05, 4.0 / std::pow(10.0, value.decimals)));
        value.axis->applyNiceNumbers();
        value.top = value.axis->max();
        value.ticks = value.axis->tickCount();
        padLabels(value);
    }
    makeRoom();
}

void MetricsChart::makeRoom()
{
    const QScopedValueRollback changing(m_changingRange, true);
    if (!m_zoomed && !m_points.isEmpty())
        showTimeRange(fullRange());
    placeThresholds();
    // Below 0 and above the top, the labels still on their nice numbers.
    const qreal height = chart()->plotArea().height();
    for (const ValueAxis& value : std::as_const(m_axes)) {
        if (value.ticks == 0)
            continue; // not scaled to any figure yet
        const bool dotted = std::any_of(m_lines.cbegin(), m_lines.cend(), [&value](const Line& line) {
            return line.axis == value.axis && line.soFar && line.soFar->isVisible() && line.soFar->count() > 0;
        });
        if (dotted && height > 2 * DotRadius) {
            const qreal room = DotRadius * value.top / (height - 2 * DotRadius);
            value.axis->setTickAnchor(0);
            value.axis->setTickInterval(value.top / (value.ticks - 1));
            value.axis->setTickType(QValueAxis::TicksDynamic);
            value.axis->setRange(-room, value.top + room);
        } else {
            value.axis->setTickType(QValueAxis::TicksFixed);
            value.axis->setRange(0, value.top);
        }
    }
}

// Down to three quarters of the theme's size, as far as the title needs to fit the plot's height: "publish latency
// (ms)" on a small screen, and the longer Korean titles, were cut to "…".
void MetricsChart::fitAxisTitles()
{
    const qreal height = chart()->plotArea().height();
    if (height <= 0)
        return;
    for (const ValueAxis& value : std::as_const(m_axes)) {
        QFont font = value.titleFont;
        const qreal smallest = font.pointSizeF() * 0.75;
        // As Qt Charts measures a title: its text with half a pixel of margin each side, and a pixel for rounding.
        while (font.pointSizeF() - 0.5 >= smallest
            && QFontMetricsF(font).horizontalAdvance(value.axis->titleText()) + 2 > height)
            font.setPointSizeF(font.pointSizeF() - 0.5);
        if (value.axis->titleFont() != font)
            value.axis->setTitleFont(font);
    }
}

// Qt Charts 6.4 makes a vertical axis as wide as its widest label and its title's line, then keeps the width of "..."
// in the labels' font from the title's room: on an axis of one-digit labels the title lost a few pixels and was cut to
// "…" (always in Korean, whose line is taller). Figure spaces on the labels' outer side, where they show nothing, make
// the labels as wide as that.
void MetricsChart::padLabels(ValueAxis& value)
{
    const QFontMetricsF metrics(value.axis->labelsFont());
    const qreal missing = metrics.horizontalAdvance(QStringLiteral("..."))
        - metrics.horizontalAdvance(QString::number(value.top, 'f', value.decimals)) + 1;
    const qreal figureSpace = metrics.horizontalAdvance(QChar(0x2007));
    const int spaces = missing > 0 && figureSpace > 0 ? int(std::ceil(missing / figureSpace)) : 0;
    // An entity: Qt Charts formats the labels with the format's Latin-1 bytes, and draws them as rich text.
    const QString padding = QStringLiteral("&#8199;").repeated(spaces);
    const QString number = QStringLiteral("%.%1f").arg(value.decimals);
    const QString format = value.side & Qt::AlignLeft ? padding + number : number + padding;
    if (value.axis->labelFormat() != format)
        value.axis->setLabelFormat(format);
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
    const QDateTime end = point.start.addSecs(m_clock.bucketSeconds).toTimeZone(m_zone);
    QStringList text { tr("%1 – %2 (%3)")
                           .arg(TimeFormatter::wallClockMinute(start),
                               end.date() == start.date() ? TimeFormatter::timeOfDay(end.time())
                                                          : TimeFormatter::wallClockMinute(end),
                               m_zone.displayName(point.start, QTimeZone::OffsetName)) };
    for (const Line& line : std::as_const(m_lines)) {
        if (!line.series->isVisible())
            continue;
        const std::optional<double> value = line.figure.value(point);
        const QString unit = line.unit.isEmpty() ? QString() : QLatin1Char(' ') + line.unit;
        text.append(tr("%1: %2").arg(
            line.series->name(), value ? QLocale().toString(*value, 'f', line.decimals) + unit : QStringLiteral("–")));
    }
    if (!m_clock.isComplete(point))
        text.insert(1, tr("Unfinished bucket: counts so far"));
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
