// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/metricspage.h"

#include "core/databaseclient.h"
#include "core/exportrunner.h"
#include "core/timeformatter.h"
#include "metrics/bucketclock.h"
#include "metrics/metricschart.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace {

using Span = MetricsTimeRange::Span;

QString bucketName(int seconds)
{
    if (seconds % 86'400 == 0)
        return MetricsPage::tr("%1 d").arg(seconds / 86'400);
    if (seconds % 3600 == 0)
        return MetricsPage::tr("%1 h").arg(seconds / 3600);
    return MetricsPage::tr("%1 min").arg(seconds / 60);
}

MetricsChart::Figure percent(std::optional<double> (MetricPoint::*rate)() const)
{
    return [rate](const MetricPoint& point) {
        const std::optional<double> value = (point.*rate)();
        return value ? std::optional<double>(*value * 100.0) : std::nullopt;
    };
}

MetricsChart::Figure latencyQuantile(double q)
{
    return [q](const MetricPoint& point) {
        const std::optional<qint64> ms = point.publishLatencyQuantileMs(q);
        return ms ? std::optional<double>(double(*ms)) : std::nullopt;
    };
}

} // namespace

MetricsPage::MetricsPage(DatabaseClient& reads, QWidget* parent)
    : QWidget(parent)
    , m_reads(reads)
    , m_thresholds(MetricThresholds::load(QSettings()))
    , m_span(new QComboBox(this))
    , m_from(new QDateTimeEdit(this))
    , m_to(new QDateTimeEdit(this))
    , m_buckets(new QLabel(this))
    , m_state(new QLabel(this))
{
    const std::pair<Span, QString> spans[]
        = { { Span::Last15Minutes, tr("Last 15 minutes") }, { Span::LastHour, tr("Last hour") },
              { Span::Last6Hours, tr("Last 6 hours") }, { Span::Last24Hours, tr("Last 24 hours") },
              { Span::Last7Days, tr("Last 7 days") }, { Span::Custom, tr("Custom range") } };
    for (const auto& [span, name] : spans)
        m_span->addItem(name, int(span));
    connect(m_span, &QComboBox::activated, this, &MetricsPage::chooseSpan);
    for (QDateTimeEdit* edit : { m_from, m_to }) {
        edit->setDisplayFormat(TimeFormatter::pickerFormat(QLocale()));
        edit->setCalendarPopup(true);
        connect(edit, &QDateTimeEdit::editingFinished, this, &MetricsPage::applyCustomRange);
    }
    m_buckets->setForegroundRole(QPalette::PlaceholderText);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setToolTip(tr("Rates are judged on the last complete bucket: the figures of the bucket still being "
                           "filled are lighter dots beside the lines until it closes."));
    auto* levels = new QPushButton(tr("&Warning levels…"), this);
    connect(levels, &QPushButton::clicked, this, &MetricsPage::editThresholds);
    auto* reset = new QPushButton(tr("Reset &zoom"), this);
    reset->setToolTip(tr("Drag across a chart to zoom into a time range; this shows the whole window again"));
    connect(reset, &QPushButton::clicked, this, &MetricsPage::resetZoom);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Window:"), this));
    bar->addWidget(m_span);
    bar->addSpacing(8);
    bar->addWidget(m_from);
    bar->addWidget(new QLabel(QStringLiteral("–"), this));
    bar->addWidget(m_to);
    bar->addSpacing(8);
    bar->addWidget(m_buckets);
    bar->addStretch(1);
    bar->addWidget(levels);
    bar->addWidget(reset);

    auto* grid = new QGridLayout;
    grid->setSpacing(6);
    buildCharts();
    for (int i = 0; i < int(m_charts.size()); ++i)
        grid->addWidget(m_charts.at(i), i / 2, i % 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_state);
    layout->addLayout(grid, 1);

    showThresholds();
    syncControls();
}

void MetricsPage::buildCharts()
{
    // Indexed by Chart.
    auto* duplicates = new MetricsChart(tr("Duplicate requests"), this);
    QValueAxis* hitRate = duplicates->addAxis(tr("hit rate (%)"), Qt::AlignLeft, 1);
    QValueAxis* requests = duplicates->addAxis(tr("per bucket"), Qt::AlignRight);
    duplicates->addLine(tr("duplicate hit rate"), hitRate, percent(&MetricPoint::duplicateHitRate), tr("%"), 1);
    duplicates->addLine(tr("requests"), requests, MetricsChart::counter(&MetricCounters::requests));
    duplicates->addLine(tr("replays"), requests, MetricsChart::counter(&MetricCounters::replays));
    duplicates->addLine(tr("mismatches (422)"), requests, MetricsChart::counter(&MetricCounters::mismatches));
    duplicates->addLine(
        tr("in progress (409)"), requests, MetricsChart::counter(&MetricCounters::inProgressRejections));
    m_hitRateLevel = duplicates->addThreshold(tr("warning level"), hitRate);

    auto* lag = new MetricsChart(tr("Outbox lag"), this);
    QValueAxis* age = lag->addAxis(tr("oldest pending (s)"), Qt::AlignLeft);
    QValueAxis* rows = lag->addAxis(tr("backlog (rows)"), Qt::AlignRight);
    QValueAxis* latency = lag->addAxis(tr("publish latency (ms)"), Qt::AlignRight);
    lag->addLine(tr("oldest pending age"), age, MetricsChart::backlog([](const BacklogSample& sample) {
        return double(sample.oldestUnpublishedAgeMs) / 1000.0;
    }),
        tr("s"), 1);
    lag->addLine(tr("backlog"), rows,
        MetricsChart::backlog([](const BacklogSample& sample) { return double(sample.unpublished); }));
    lag->addLine(tr("latency p50"), latency, latencyQuantile(0.50), tr("ms"));
    lag->addLine(tr("latency p95"), latency, latencyQuantile(0.95), tr("ms"));
    lag->addLine(tr("latency p99"), latency, latencyQuantile(0.99), tr("ms"));
    m_ageLevel = lag->addThreshold(tr("warning level"), age);

    auto* retries = new MetricsChart(tr("Retries"), this);
    QValueAxis* retryRate = retries->addAxis(tr("retry rate (%)"), Qt::AlignLeft, 1);
    QValueAxis* events = retries->addAxis(tr("per bucket"), Qt::AlignRight);
    retries->addLine(tr("retry rate"), retryRate, percent(&MetricPoint::retryRate), tr("%"), 1);
    retries->addLine(tr("dead-letters"), events, MetricsChart::counter(&MetricCounters::deadLetters));
    retries->addLine(tr("lease rescues"), events, MetricsChart::counter(&MetricCounters::leaseRescues));
    m_retryRateLevel = retries->addThreshold(tr("warning level"), retryRate);

    auto* throughput = new MetricsChart(tr("Throughput"), this);
    QValueAxis* perBucket = throughput->addAxis(tr("per bucket"), Qt::AlignLeft);
    throughput->addLine(tr("created"), perBucket, MetricsChart::counter(&MetricCounters::executions));
    throughput->addLine(tr("published"), perBucket, MetricsChart::counter(&MetricCounters::published));
    throughput->addLine(tr("consumed"), perBucket, MetricsChart::counter(&MetricCounters::consumed));
    throughput->addLine(
        tr("consumer duplicates"), perBucket, MetricsChart::counter(&MetricCounters::consumerDuplicates));

    m_charts = { duplicates, lag, retries, throughput };
}

MetricsPage::Request MetricsPage::requestFor(const MetricsTimeRange& range, const QTimeZone& zone, const QDateTime& now)
{
    Request request { range.from(now), range.to(now), 0, zone };
    request.bucketSeconds = MetricsTimeRange::bucketSecondsFor(request.from.secsTo(request.to));
    return request;
}

void MetricsPage::setTimeRange(const MetricsTimeRange& range)
{
    m_timeRange = range;
    m_requests.next();
    resetZoom();
    syncControls();
    refresh();
}

void MetricsPage::refresh()
{
    if (m_loading)
        return; // throttled: the answer on its way is fresh enough, or re-read if its ticket went stale
    m_loading = true;
    m_reads.run<Reading>(
        this,
        [range = m_timeRange, zone = MetricsChart::displayZone()](DbSession& session) {
            // The clock the rollups are stamped by: this machine's may be off by more than the bucket in progress.
            Reading reading;
            reading.serverNow = session.serverNow();
            reading.request = requestFor(range, zone, reading.serverNow);
            reading.points = MetricsRepository(session).series(
                reading.request.from, reading.request.to, reading.request.bucketSeconds, QString::fromUtf8(zone.id()));
            return reading;
        },
        [this, ticket = m_requests.current()](const Reading& reading) {
            m_loading = false;
            if (!m_requests.isLatest(ticket))
                refresh(); // read for a window that is no longer chosen
            else
                present(reading);
        },
        [this, ticket = m_requests.current()](const OutboxError& error) {
            m_loading = false;
            if (!m_requests.isLatest(ticket))
                refresh();
            else
                emit loadFailed(error.message());
        });
}

void MetricsPage::present(const Reading& reading)
{
    const Request& request = reading.request;
    const QList<MetricPoint>& points = reading.points;
    const bool zoneChanged = request.zone != m_shown.zone;
    // A zoomed range is wall-clock time in the old zone; it means another time range in the new one.
    if (zoneChanged)
        resetZoom();
    m_shown = request;
    m_points = points;
    m_serverNow = reading.serverNow;
    for (MetricsChart* chart : std::as_const(m_charts))
        chart->setPoints(points, request.bucketSeconds, request.zone, reading.serverNow);
    m_buckets->setText(
        tr("%1 buckets · %n point(s)", nullptr, int(points.size())).arg(bucketName(request.bucketSeconds)));
    showThresholds();
    // The editors of a custom range are the operator's: a refresh must not overwrite what is being typed.
    if (m_timeRange.span() != Span::Custom || zoneChanged)
        syncControls();
    emit loaded();
}

void MetricsPage::syncControls()
{
    m_span->setCurrentIndex(m_span->findData(int(m_timeRange.span())));
    const bool custom = m_timeRange.span() == Span::Custom;
    // QDateTimeEdit (Qt 6.4) knows UTC and local time only, which are the zones the console offers.
    const Qt::TimeSpec spec = MetricsChart::displayZone() == QTimeZone::utc() ? Qt::UTC : Qt::LocalTime;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    // While a "last …" window is chosen, the editors show the range last read, a starting point for a custom one.
    const QDateTime from = custom || !m_shown.from.isValid() ? m_timeRange.from(now) : m_shown.from;
    const QDateTime to = custom || !m_shown.to.isValid() ? m_timeRange.to(now) : m_shown.to;
    for (auto [edit, instant] : { std::pair(m_from, from), std::pair(m_to, to) }) {
        edit->setEnabled(custom);
        edit->setTimeSpec(spec);
        edit->setDateTime(spec == Qt::UTC ? instant.toUTC() : instant.toLocalTime());
    }
}

void MetricsPage::chooseSpan(int index)
{
    const auto span = Span(m_span->itemData(index).toInt());
    if (span == Span::Custom)
        setTimeRange(MetricsTimeRange(m_from->dateTime(), m_to->dateTime()));
    else
        setTimeRange(MetricsTimeRange(span));
}

void MetricsPage::applyCustomRange()
{
    const MetricsTimeRange custom(m_from->dateTime(), m_to->dateTime());
    if (m_timeRange.span() == Span::Custom && custom != m_timeRange)
        setTimeRange(custom);
}

void MetricsPage::resetZoom()
{
    for (MetricsChart* chart : std::as_const(m_charts))
        chart->resetZoom();
}

void MetricsPage::setThresholds(const MetricThresholds& thresholds)
{
    m_thresholds = thresholds;
    QSettings settings;
    m_thresholds.save(settings);
    showThresholds();
}

MetricThresholds::Evaluation MetricsPage::evaluation() const
{
    return m_thresholds.evaluate(m_points, BucketClock { m_shown.bucketSeconds, m_serverNow });
}

void MetricsPage::showThresholds()
{
    chart(Chart::Duplicates)->setThreshold(m_hitRateLevel, m_thresholds.duplicateHitRatePercent);
    chart(Chart::Lag)->setThreshold(m_ageLevel, m_thresholds.oldestPendingAgeSeconds);
    chart(Chart::Retries)->setThreshold(m_retryRateLevel, m_thresholds.retryRatePercent);
    const MetricThresholds::Evaluation evaluation = this->evaluation();
    if (m_points.isEmpty()) {
        m_state->clear();
    } else if (evaluation.level == MetricThresholds::Level::Warn) {
        m_state->setText(tr("⚠ Above warning level: %1").arg(evaluation.exceeded.join(QStringLiteral(" · "))));
        m_state->setStyleSheet(QStringLiteral("color: #dc322f; font-weight: bold;"));
    } else {
        m_state->setText(tr("✔ Latest figures within their warning levels"));
        m_state->setStyleSheet(QStringLiteral("color: #859900; font-weight: bold;"));
    }
}

void MetricsPage::editThresholds()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Warning levels"));
    auto* form = new QFormLayout(&dialog);
    const auto addLevel = [&](const QString& label, double value, const QString& suffix, double maximum) {
        auto* spin = new QDoubleSpinBox(&dialog);
        spin->setRange(0, maximum);
        spin->setDecimals(1);
        spin->setSuffix(suffix);
        spin->setValue(value);
        form->addRow(label, spin);
        return spin;
    };
    QDoubleSpinBox* age
        = addLevel(tr("Oldest pending age above"), m_thresholds.oldestPendingAgeSeconds, tr(" s"), 7 * 24 * 3600);
    QDoubleSpinBox* hitRate
        = addLevel(tr("Duplicate hit rate above"), m_thresholds.duplicateHitRatePercent, tr(" %"), 100);
    QDoubleSpinBox* retryRate = addLevel(tr("Retry rate above"), m_thresholds.retryRatePercent, tr(" %"), 100);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    MetricThresholds chosen;
    chosen.oldestPendingAgeSeconds = age->value();
    chosen.duplicateHitRatePercent = hitRate->value();
    chosen.retryRatePercent = retryRate->value();
    setThresholds(chosen);
}

void MetricsPage::exportCsv(const QString& path)
{
    const Request request = m_shown.bucketSeconds > 0
        ? m_shown
        : requestFor(m_timeRange, MetricsChart::displayZone(), QDateTime::currentDateTimeUtc());
    ExportRunner* runner = ExportRunner::exportMetrics(
        m_reads, this, request.from, request.to, request.bucketSeconds, request.zone, path);
    connect(runner, &ExportRunner::finished, this, [this, path](qint64, bool cancelled) {
        if (!cancelled)
            emit exported(path);
    });
    connect(runner, &ExportRunner::failed, this, &MetricsPage::exportFailed);
}
