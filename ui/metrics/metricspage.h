// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/latestrequest.h"
#include "metrics/metricsrepository.h"
#include "metrics/metricstimerange.h"
#include "metrics/metricthresholds.h"

#include <QTimeZone>
#include <QWidget>

class DatabaseClient;
class MetricsChart;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineSeries;

// The Metrics tab: duplicate requests, outbox lag, retries and throughput over a chosen window, read from
// the metric rollups in the zone the console shows times in (TimeFormatter), with warning levels. Each
// refresh is one job on the read worker: the database's clock, which ends a "last …" window and tells which
// bucket is still being filled, and the series query.
class MetricsPage final : public QWidget {
    Q_OBJECT
public:
    enum class Chart { Duplicates, Lag, Retries, Throughput };

    explicit MetricsPage(DatabaseClient& reads, QWidget* parent = nullptr);

    // Re-reads the window ("last …" windows slide to now); ignored while a read is on its way.
    void refresh();
    // Shows `range` in the controls, resets the zoom and reads it; a read of the previous range that is
    // still on its way is dropped when it arrives.
    void setTimeRange(const MetricsTimeRange& range);
    const MetricsTimeRange& timeRange() const { return m_timeRange; }

    // What is shown: the last result, the database's clock when it was read, and the window, bucket and zone it
    // was read for. Before the first result the instants are invalid and the bucket is 0.
    QList<MetricPoint> points() const { return m_points; }
    QDateTime serverNow() const { return m_serverNow; }
    QDateTime from() const { return m_shown.from; }
    QDateTime to() const { return m_shown.to; }
    int bucketSeconds() const { return m_shown.bucketSeconds; }
    QTimeZone zone() const { return m_shown.zone; }

    MetricsChart* chart(Chart which) const { return m_charts.at(int(which)); }
    void resetZoom();

    const MetricThresholds& thresholds() const { return m_thresholds; }
    // Redraws the warning lines, re-evaluates the latest figures and saves the levels in QSettings.
    void setThresholds(const MetricThresholds& thresholds);
    // The latest complete figures against the warning levels, as the coloured label shows them.
    MetricThresholds::Evaluation evaluation() const;

    // Writes exactly ExportTables::metricsCsv of the range shown (before the first result: of the range as
    // it would be read now) to `path`, on the read worker behind ExportRunner's progress dialog; answers with
    // exported() or exportFailed(), or not at all when the operator pressed Cancel (then nothing is written).
    // File → Export metrics CSV calls this after asking for the file name.
    void exportCsv(const QString& path);

signals:
    void loaded();
    void loadFailed(const QString& message);
    void exported(const QString& path);
    void exportFailed(const QString& message);

private:
    // A window resolved to the arguments of the series query.
    struct Request {
        QDateTime from;
        QDateTime to;
        int bucketSeconds = 0;
        QTimeZone zone;
    };
    // What one refresh read.
    struct Reading {
        Request request;
        QDateTime serverNow;
        QList<MetricPoint> points;
    };

    void buildCharts();
    // The arguments of the series query for `range` as of `now`, in `zone`.
    static Request requestFor(const MetricsTimeRange& range, const QTimeZone& zone, const QDateTime& now);
    void present(const Reading& reading);
    void syncControls();
    void chooseSpan(int index);
    void applyCustomRange();
    void editThresholds();
    void showThresholds();

    DatabaseClient& m_reads;
    MetricsTimeRange m_timeRange;
    Request m_shown;
    QList<MetricPoint> m_points;
    QDateTime m_serverNow;
    MetricThresholds m_thresholds;
    QList<MetricsChart*> m_charts; // indexed by Chart
    QLineSeries* m_hitRateLevel = nullptr;
    QLineSeries* m_ageLevel = nullptr;
    QLineSeries* m_retryRateLevel = nullptr;
    QComboBox* m_span = nullptr;
    QDateTimeEdit* m_from = nullptr;
    QDateTimeEdit* m_to = nullptr;
    QLabel* m_buckets = nullptr;
    QLabel* m_state = nullptr;
    LatestRequest m_requests; // a new ticket per time range, to recognise a read of an earlier one
    bool m_loading = false;
};
