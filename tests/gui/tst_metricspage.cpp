// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/databaseclient.h"
#include "core/timeformatter.h"
#include "i18n/consolelanguage.h"
#include "mainwindow/mainwindow.h"
#include "metrics/bucketclock.h"
#include "metrics/metricschart.h"
#include "metrics/metricspage.h"
#include "metrics/metricstimerange.h"
#include "metrics/metricthresholds.h"
#include "support/consoletesting.h"
#include "support/databasetestcase.h"
#include "support/guitesting.h"
#include "support/listmodeltesting.h"
#include "support/processtesting.h"

#include <QAction>
#include <QApplication>
#include <QCategoryAxis>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolTip>
#include <QTranslator>
#include <QValueAxis>

namespace {

using Span = MetricsTimeRange::Span;

// The test data lives in the hour from here, a day on which Europe/Berlin springs forward.
QDateTime windowStart()
{
    return QDateTime(QDate(2026, 3, 29), QTime(0, 0), Qt::UTC);
}

QDateTime minute(int n)
{
    return windowStart().addSecs(n * 60LL);
}

QLineSeries* line(MetricsChart* chart, const QString& name)
{
    const QList<QAbstractSeries*> all = chart->chart()->series();
    for (QAbstractSeries* series : all) {
        if (series->name() == name)
            return qobject_cast<QLineSeries*>(series);
    }
    return nullptr;
}

QList<qreal> ys(const QLineSeries* series)
{
    QList<qreal> values;
    for (const QPointF& point : series->points())
        values.append(point.y());
    return values;
}

// All zeros but `at`.
QList<qreal> zerosBut(qsizetype size, const QMap<int, qreal>& at)
{
    QList<qreal> values(size, 0.0);
    for (auto it = at.cbegin(); it != at.cend(); ++it)
        values[it.key()] = it.value();
    return values;
}

QString axisLabel(qreal msecs)
{
    // How QDateTimeAxis renders a value: in the process's local time.
    return QDateTime::fromMSecsSinceEpoch(qint64(msecs)).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

// The ticks of a time axis in view: their labels and positions, left to right.
QList<std::pair<QString, qreal>> ticks(QCategoryAxis* axis)
{
    QList<std::pair<QString, qreal>> inView;
    for (const QString& label : axis->categoriesLabels()) {
        const qreal x = axis->endValue(label);
        if (x >= axis->min() && x <= axis->max())
            inView.append({ label, x });
    }
    return inView;
}

// A tick's label names the wall-clock time `time`: as "HH:mm", a midnight by its date, or both.
bool names(const QString& label, const QDateTime& time)
{
    return label == time.toString(QStringLiteral("HH:mm")) || label == time.toString(QStringLiteral("MM-dd HH:mm"))
        || (time.time() == QTime(0, 0) && label == time.toString(QStringLiteral("MM-dd")));
}

// The visible texts the chart's scene shows besides its axes and legend.
QStringList sceneTexts(MetricsChart* chart)
{
    QStringList texts;
    for (QGraphicsItem* item : chart->scene()->items()) {
        if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item); text && text->isVisible())
            texts.append(text->text());
    }
    return texts;
}

// Not blank: a rendered chart has axes, labels, lines and antialiasing, so many colours.
bool isDrawn(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    }
    return colours.size() > 30;
}

bool load(MetricsPage& page, const MetricsTimeRange& window)
{
    QSignalSpy loaded(&page, &MetricsPage::loaded);
    page.setTimeRange(window);
    return loaded.wait(10'000);
}

bool refreshed(MetricsPage& page)
{
    QSignalSpy loaded(&page, &MetricsPage::loaded);
    page.refresh();
    return loaded.wait(10'000);
}

QString cliBucket(int seconds)
{
    return seconds % 3600 == 0 ? QStringLiteral("%1h").arg(seconds / 3600) : QStringLiteral("%1m").arg(seconds / 60);
}

MetricPoint pointWith(qint64 requests, qint64 replays, qint64 published, qint64 failed)
{
    MetricPoint point;
    point.counters.requests = requests;
    point.counters.replays = replays;
    point.counters.published = published;
    point.counters.failedAttempts = failed;
    return point;
}

MetricPoint sampled(qint64 oldestMs)
{
    MetricPoint point;
    point.backlog = BacklogSample { 10, false, oldestMs };
    return point;
}

} // namespace

// The Metrics tab, on the offscreen platform against a real database. main() below makes the local zone
// Asia/Seoul (+09:00, no DST), so that "local time" is the same on every machine.
class TestMetricsPage final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestMetricsPage()
        : DatabaseTestCase(QStringLiteral("metricspage"))
    { }

private:
    struct Rollup {
        int minute;
        int shard;
        qint64 requests = 0;
        qint64 executions = 0;
        qint64 replays = 0;
        qint64 mismatches = 0;
        qint64 inProgress = 0;
        qint64 published = 0;
        QString histogram = QStringLiteral("{}");
        qint64 latencyMaxMs = 0;
        qint64 failedAttempts = 0;
        qint64 deadLetters = 0;
        qint64 leaseRescues = 0;
    };

    void insert(const Rollup& r)
    {
        db().exec(QStringLiteral("INSERT INTO metric_rollups (bucket, shard, requests, executions, replays, "
                                 "  mismatches, in_progress_rejections, published, publish_latency_hist, "
                                 "  publish_latency_max_ms, failed_attempts, dead_letters, lease_rescues) "
                                 "VALUES (?::timestamptz, ?, ?, ?, ?, ?, ?, ?, ?::bigint[], ?, ?, ?, ?)"),
            { minute(r.minute).toString(Qt::ISODate), r.shard, r.requests, r.executions, r.replays, r.mismatches,
                r.inProgress, r.published, r.histogram, r.latencyMaxMs, r.failedAttempts, r.deadLetters,
                r.leaseRescues });
    }

    void insertBacklog(int at, qint64 pending, qint64 oldestMs)
    {
        // One sample in the minute: it is the minute's peak and its last sample.
        db().exec(QStringLiteral("INSERT INTO backlog_samples (bucket, sampled_at, pending, pending_capped, "
                                 "  oldest_pending_ms, last_pending, last_pending_capped, last_oldest_pending_ms) "
                                 "VALUES (?::timestamptz, ?::timestamptz, ?, false, ?, ?, false, ?)"),
            { minute(at).toString(Qt::ISODate), minute(at).toString(Qt::ISODate), pending, oldestMs, pending,
                oldestMs });
    }

    // Minute 3 of the hour: two shards' rollups and a backlog sample; minute 10: one shard's.
    void seedKnownMinutes()
    {
        Rollup first { 3, 0 };
        first.requests = 40;
        first.executions = 30;
        first.replays = 8;
        first.mismatches = 1;
        first.inProgress = 2;
        first.published = 10;
        // 8 latencies in [4, 8) ms and 2 in [128, 256) ms, the slowest 200 ms: p50 8, p95 and p99 200.
        first.histogram = QStringLiteral("{0,0,0,8,0,0,0,0,2}");
        first.latencyMaxMs = 200;
        first.failedAttempts = 10;
        first.deadLetters = 3;
        first.leaseRescues = 1;
        insert(first);
        Rollup second { 3, 1 };
        second.requests = 60;
        second.executions = 50;
        second.replays = 2;
        insert(second);
        Rollup later { 10, 5 };
        later.published = 4;
        later.histogram = QStringLiteral("{0,4}");
        later.latencyMaxMs = 1;
        insert(later);
        insertBacklog(3, 123, 75'000);
    }

    // Six hours of plausible traffic for the screenshots: a swell, a burst of duplicates, a broker outage
    // (retries), and at the end a relay that falls behind, so that the latest figures are above a warning level.
    void seedSixHours(const QDateTime& start)
    {
        db().exec(
            QStringLiteral(
                "INSERT INTO metric_rollups (bucket, shard, requests, executions, replays, mismatches, "
                "  in_progress_rejections, published, publish_latency_hist, publish_latency_max_ms, failed_attempts, "
                "  dead_letters, lease_rescues) "
                "SELECT ?::timestamptz + g * interval '1 minute', 0, r.requests, r.requests - r.replays, r.replays, "
                "  g % 7 / 6, CASE WHEN g BETWEEN 150 AND 170 THEN 3 ELSE 0 END, r.published, "
                "  ARRAY[0, 0, 0, 0, r.published - r.published / 5 - 2, r.published / 5, 0, 0, 2]::bigint[], 180, "
                "  r.failed, CASE WHEN g % 97 = 0 THEN 1 ELSE 0 END, CASE WHEN g % 53 = 0 THEN 1 ELSE 0 END "
                "FROM generate_series(0, 359) g, LATERAL (SELECT "
                "  (300 + 120 * sin(g / 40.0))::bigint AS requests, "
                "  (CASE WHEN g BETWEEN 140 AND 180 THEN 30 ELSE 6 END + g % 5)::bigint AS replays, "
                "  (290 + 110 * sin(g / 40.0))::bigint AS published, "
                "  (CASE WHEN g BETWEEN 220 AND 250 THEN 40 ELSE 4 END)::bigint AS failed) r"),
            { start.toString(Qt::ISODate) });
        db().exec(QStringLiteral(
                      "INSERT INTO backlog_samples (bucket, sampled_at, pending, pending_capped, oldest_pending_ms, "
                      "  last_pending, last_pending_capped, last_oldest_pending_ms) "
                      "SELECT ?::timestamptz + g * interval '1 minute', ?::timestamptz + g * interval '1 minute', "
                      "  s.pending, false, s.oldest, s.pending, false, s.oldest "
                      "FROM generate_series(0, 359) g, LATERAL (SELECT "
                      "  CASE WHEN g >= 320 THEN 400 + (g - 320) * 30 ELSE 20 + g % 11 END AS pending, "
                      "  CASE WHEN g >= 320 THEN (g - 320) * 2500 ELSE 800 + g % 13 * 100 END AS oldest) s"),
            { start.toString(Qt::ISODate), start.toString(Qt::ISODate) });
    }

    // Shard 0's rollup of the minute `minutesAgo` before the database's current one (0: the current minute).
    void insertRecent(int minutesAgo, qint64 requests, qint64 replays)
    {
        db().exec(QStringLiteral("INSERT INTO metric_rollups (bucket, shard, requests, executions, replays) "
                                 "VALUES (date_trunc('minute', now()) - make_interval(mins => ?::int), 0, ?, ?, ?)"),
            { minutesAgo, requests, requests - replays, replays });
    }

    MetricsTimeRange knownHour() const { return MetricsTimeRange(windowStart(), minute(60)); }

    // Answers the next file dialog with `path` as soon as it opens.
    void answerFileDialog(const QString& path)
    {
        auto* poll = new QTimer(this);
        poll->setInterval(10);
        connect(poll, &QTimer::timeout, this, [poll, path] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            poll->stop();
            poll->deleteLater();
            dialog->selectFile(path);
            static_cast<QDialog*>(dialog)->accept(); // public there; QFileDialog's override runs
        });
        poll->start();
    }

    ProcessTesting::Run runMetricsCli(
        const QDateTime& from, const QDateTime& to, int bucketSeconds, const QTimeZone& zone)
    {
        return ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("--dsn"), db().dsn(), QStringLiteral("metrics"), QStringLiteral("--from"),
                from.toString(Qt::ISODateWithMs), QStringLiteral("--to"), to.toString(Qt::ISODateWithMs),
                QStringLiteral("--bucket"), cliBucket(bucketSeconds), QStringLiteral("--tz"),
                QString::fromUtf8(zone.id()), QStringLiteral("--format"), QStringLiteral("csv") },
            QProcessEnvironment::systemEnvironment(), 60'000);
    }

    static QByteArray readAll(const QString& path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    // Hover, clicks and rubber-band zoom need the page shown at a realistic size.
    static bool showOnScreen(QWidget& page)
    {
        page.resize(1400, 900);
        page.show();
        return QTest::qWaitForWindowExposed(&page);
    }

private slots:
    void initTestCase()
    {
        QCOMPARE(QTimeZone::systemTimeZoneId(), QByteArray("Asia/Seoul"));
        GuiTesting::useOwnSettings(QStringLiteral("tst_metricspage"));
        QLocale::setDefault(QLocale::c());
        setUpDatabase();
        m_worker = std::make_unique<DatabaseClient>(QStringLiteral("test"));
        QVERIFY(ListModelTesting::openWorker(*m_worker, db().settings()));
    }
    void cleanupTestCase()
    {
        m_worker.reset();
        tearDownDatabase();
    }
    void init()
    {
        db().reset();
        QSettings().clear();
        TimeFormatter::setZone(TimeFormatter::Zone::Utc);
    }

    void lastWindowsSlideToNow_data()
    {
        QTest::addColumn<int>("span");
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<int>("bucketSeconds");
        QTest::newRow("15 min") << int(Span::Last15Minutes) << qint64(15 * 60) << 60;
        QTest::newRow("1 h") << int(Span::LastHour) << qint64(3600) << 60;
        QTest::newRow("6 h") << int(Span::Last6Hours) << qint64(6 * 3600) << 60;
        QTest::newRow("24 h") << int(Span::Last24Hours) << qint64(86'400) << 300;
        QTest::newRow("7 d") << int(Span::Last7Days) << qint64(7 * 86'400) << 3600;
    }
    void lastWindowsSlideToNow()
    {
        QFETCH(int, span);
        QFETCH(qint64, seconds);
        QFETCH(int, bucketSeconds);
        MetricsPage page(*m_worker);
        const QDateTime before = QDateTime::currentDateTimeUtc();
        QVERIFY(load(page, MetricsTimeRange(Span(span))));
        QCOMPARE(page.from().secsTo(page.to()), seconds);
        QVERIFY(page.to() >= before && page.to() <= QDateTime::currentDateTimeUtc());
        QCOMPARE(page.bucketSeconds(), bucketSeconds);
        const QDateTime firstTo = page.to();
        QTRY_VERIFY(QDateTime::currentDateTimeUtc() > firstTo);
        QVERIFY(refreshed(page));
        QVERIFY(page.to() > firstTo);
    }

    void chartsShowTheInsertedFigures()
    {
        seedKnownMinutes();
        MetricsPage page(*m_worker);
        QVERIFY(showOnScreen(page));
        QVERIFY(load(page, knownHour()));
        QCOMPARE(page.from(), windowStart());
        QCOMPARE(page.to(), minute(60));
        QCOMPARE(page.bucketSeconds(), 60);
        QCOMPARE(page.zone().id(), QByteArray("UTC"));
        QCOMPARE(page.points().size(), 60);

        const auto expect = [&](MetricsPage::Chart chart, const QString& name, const QMap<int, qreal>& at) {
            QLineSeries* series = line(page.chart(chart), name);
            QVERIFY2(series, qPrintable(name));
            QCOMPARE(ys(series), zerosBut(60, at));
        };
        using Chart = MetricsPage::Chart;
        expect(Chart::Duplicates, QStringLiteral("requests"), { { 3, 100 } });
        expect(Chart::Duplicates, QStringLiteral("replays"), { { 3, 10 } });
        expect(Chart::Duplicates, QStringLiteral("duplicate hit rate"), { { 3, 10.0 } }); // 10 of 100
        expect(Chart::Duplicates, QStringLiteral("mismatches (422)"), { { 3, 1 } });
        expect(Chart::Duplicates, QStringLiteral("in progress (409)"), { { 3, 2 } });
        expect(Chart::Lag, QStringLiteral("oldest pending age"), { { 3, 75.0 } });
        expect(Chart::Lag, QStringLiteral("backlog"), { { 3, 123 } });
        expect(Chart::Lag, QStringLiteral("latency p50"), { { 3, 8 }, { 10, 1 } });
        expect(Chart::Lag, QStringLiteral("latency p95"), { { 3, 200 }, { 10, 1 } });
        expect(Chart::Lag, QStringLiteral("latency p99"), { { 3, 200 }, { 10, 1 } });
        expect(Chart::Retries, QStringLiteral("retry rate"), { { 3, 50.0 } }); // 10 failed of 20 attempts
        expect(Chart::Retries, QStringLiteral("dead-letters"), { { 3, 3 } });
        expect(Chart::Retries, QStringLiteral("lease rescues"), { { 3, 1 } });
        expect(Chart::Throughput, QStringLiteral("created"), { { 3, 80 } });
        expect(Chart::Throughput, QStringLiteral("published"), { { 3, 10 }, { 10, 4 } });

        // A window in the past has no unfinished bucket.
        QCOMPARE(page.chart(Chart::Duplicates)
                     ->soFar(line(page.chart(Chart::Duplicates), QStringLiteral("requests")))
                     ->count(),
            0);

        // One x per bucket, at the bucket's start; UTC shows as UTC although the process runs in Seoul.
        const QList<QPointF> requests = line(page.chart(Chart::Duplicates), QStringLiteral("requests"))->points();
        for (int i = 0; i < 60; ++i)
            QCOMPARE(axisLabel(requests.at(i).x()), minute(i).toString(QStringLiteral("yyyy-MM-dd HH:mm")));

        // Hover: the bucket's time in the zone and its exact figures, "–" where a figure has no value.
        QLineSeries* hitRate = line(page.chart(Chart::Duplicates), QStringLiteral("duplicate hit rate"));
        emit hitRate->hovered(requests.at(3) + QPointF(20'000, 0), true);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("2026-03-29 00:03 – 00:04 (UTC+00:00)")),
            qPrintable(QToolTip::text()));
        QVERIFY2(QToolTip::text().contains(QStringLiteral("requests: 100\n")), qPrintable(QToolTip::text()));
        QVERIFY2(QToolTip::text().contains(QStringLiteral("duplicate hit rate: 10.0 %")), qPrintable(QToolTip::text()));
        emit hitRate->hovered(requests.at(4), true);
        QTRY_VERIFY(QToolTip::text().contains(QStringLiteral("duplicate hit rate: –")));
    }

    void timesFollowTheLanguage_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("ko") << QStringLiteral("ko");
    }

    // The hover's bucket and the time axis's ticks in the console's language, as TimeFormatter writes times everywhere
    // else in it: they were ISO in every language ("2026-03-29 00:03 – 00:04"), beside Korean dates in the pickers.
    void timesFollowTheLanguage()
    {
        QFETCH(QString, language);
        // The language as the console installs it (ConsoleLanguage::apply), for this test only: the tests after it
        // compare English source texts in the C locale.
        QTranslator korean;
        const auto restoreLanguage = qScopeGuard([&] {
            QCoreApplication::removeTranslator(&korean);
            QLocale::setDefault(QLocale::c());
        });
        if (language == QLatin1String("ko")) {
            QVERIFY(korean.load(QLocale(QLocale::Korean), QStringLiteral("outbox-console"), QStringLiteral("_"),
                QStringLiteral(":/i18n")));
            QCoreApplication::installTranslator(&korean);
        }
        // English as the console speaks it without LANG (en_US), whatever this machine's English is.
        QLocale::setDefault(language == QLatin1String("ko") ? ConsoleLanguage::localeFor(language)
                                                            : QLocale(QLocale::English, QLocale::UnitedStates));
        QCOMPARE(QLocale().language(), language == QLatin1String("ko") ? QLocale::Korean : QLocale::English);

        // An hour of minutes from midnight UTC: every tick and bucket in the morning.
        QList<MetricPoint> points;
        for (int i = 0; i < 60; ++i) {
            MetricPoint point = pointWith(100, 10, 90, 1);
            point.start = minute(i);
            points.append(point);
        }
        MetricsChart chart(QStringLiteral("test"));
        QValueAxis* axis = chart.addAxis(QStringLiteral("count"), Qt::AlignLeft);
        QLineSeries* requests
            = chart.addLine(QStringLiteral("requests"), axis, MetricsChart::counter(&MetricCounters::requests));
        chart.setPoints(points, 60, QTimeZone::utc());
        chart.resize(700, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCoreApplication::sendPostedEvents();

        const QString morning = QLocale().amText(); // "AM", "오전": not in an ISO time
        emit requests->hovered(requests->at(3) + QPointF(20'000, 0), true);
        const QString bucket = TimeFormatter::wallClockMinute(minute(3).toTimeZone(QTimeZone::utc()))
            + QStringLiteral(" – ") + TimeFormatter::timeOfDay(minute(4).toTimeZone(QTimeZone::utc()).time());
        QVERIFY2(bucket.contains(morning), qPrintable(bucket));
        const QString zone = QTimeZone::utc().displayName(minute(3), QTimeZone::OffsetName);
        QTRY_VERIFY2(QToolTip::text().startsWith(bucket + QStringLiteral(" (%1)\n").arg(zone)),
            qPrintable(QToolTip::text() + QStringLiteral(" ≠ ") + bucket));

        const QList<std::pair<QString, qreal>> shown = ticks(chart.timeAxis());
        QVERIFY2(shown.size() >= 3, qPrintable(QString::number(shown.size())));
        for (const auto& [label, x] : shown) {
            // The wall-clock time the tick stands at (see axisMSecs: UTC shown in a process that runs in Seoul).
            const QTime time = QTime::fromString(axisLabel(x).mid(11), QStringLiteral("HH:mm"));
            QCOMPARE(label, TimeFormatter::timeOfDay(time));
            QVERIFY2(label.contains(morning), qPrintable(label));
        }
    }

    void legendMarkerTogglesItsLine()
    {
        seedKnownMinutes();
        MetricsPage page(*m_worker);
        QVERIFY(showOnScreen(page));
        QVERIFY(load(page, knownHour()));
        MetricsChart* chart = page.chart(MetricsPage::Chart::Duplicates);
        QLineSeries* requests = line(chart, QStringLiteral("requests"));
        const QList<QLegendMarker*> markers = chart->chart()->legend()->markers(requests);
        QCOMPARE(markers.size(), 1);
        emit markers.first()->clicked();
        QVERIFY(!requests->isVisible());
        QVERIFY(markers.first()->isVisible()); // still there, to click again
        emit markers.first()->clicked();
        QVERIFY(requests->isVisible());
    }

    void timeAxisFollowsTheZone()
    {
        seedKnownMinutes();
        MetricsPage page(*m_worker);
        page.resize(1400, 900);
        QVERIFY(load(page, knownHour()));
        MetricsChart* chart = page.chart(MetricsPage::Chart::Throughput);
        QCOMPARE(chart->timeAxis()->titleText(), QStringLiteral("UTC"));
        QCOMPARE(axisLabel(chart->timeAxis()->min()), QStringLiteral("2026-03-29 00:00"));
        QCOMPARE(axisLabel(chart->timeAxis()->max()), QStringLiteral("2026-03-29 01:00"));

        TimeFormatter::setZone(TimeFormatter::Zone::Local);
        QVERIFY(refreshed(page));
        QCOMPARE(page.zone().id(), QByteArray("Asia/Seoul"));
        QCOMPARE(chart->timeAxis()->titleText(), QStringLiteral("Asia/Seoul"));
        QCOMPARE(axisLabel(chart->timeAxis()->min()), QStringLiteral("2026-03-29 09:00"));
        QLineSeries* published = line(chart, QStringLiteral("published"));
        QCOMPARE(ys(published), zerosBut(60, { { 3, 10 }, { 10, 4 } }));
        QCOMPARE(axisLabel(published->at(3).x()), QStringLiteral("2026-03-29 09:03"));
        // In the local zone the axis holds the true instants.
        QCOMPARE(qint64(published->at(3).x()), minute(3).toMSecsSinceEpoch());
    }

    void wallClockOnTheAxis_data()
    {
        QTest::addColumn<QByteArray>("zone");
        QTest::addColumn<QDateTime>("instant");
        QTest::addColumn<QString>("label");
        QTest::newRow("UTC") << QByteArray("UTC") << windowStart() << QStringLiteral("2026-03-29 00:00");
        QTest::newRow("Asia/Seoul (local)")
            << QByteArray("Asia/Seoul") << windowStart() << QStringLiteral("2026-03-29 09:00");
        QTest::newRow("Europe/Berlin before DST")
            << QByteArray("Europe/Berlin") << minute(59) << QStringLiteral("2026-03-29 01:59");
        QTest::newRow("Europe/Berlin after DST")
            << QByteArray("Europe/Berlin") << minute(60) << QStringLiteral("2026-03-29 03:00");
        QTest::newRow("America/New_York")
            << QByteArray("America/New_York") << windowStart() << QStringLiteral("2026-03-28 20:00");
    }
    void wallClockOnTheAxis()
    {
        QFETCH(QByteArray, zone);
        QFETCH(QDateTime, instant);
        QFETCH(QString, label);
        QCOMPARE(axisLabel(qreal(MetricsChart::axisMSecs(instant, QTimeZone(zone)))), label);
    }

    // A real series across Europe/Berlin's spring-forward, in 15 min buckets: the axis shows the wall clock,
    // jumping from 01:45 to 03:00, and stays in order.
    void berlinWindowAcrossDst()
    {
        const auto session = db().openSession();
        const QTimeZone berlin("Europe/Berlin");
        const QList<MetricPoint> points
            = MetricsRepository(*session).series(windowStart(), minute(120), 900, QStringLiteral("Europe/Berlin"));
        QCOMPARE(points.size(), 8);
        MetricsChart chart(QStringLiteral("test"));
        QValueAxis* axis = chart.addAxis(QStringLiteral("count"), Qt::AlignLeft);
        QLineSeries* requests = chart.addLine(QStringLiteral("requests"), axis,
            [](const MetricPoint& point) { return std::optional<double>(point.counters.requests); });
        chart.setPoints(points, 900, berlin);
        QStringList labels;
        for (const QPointF& point : requests->points())
            labels.append(axisLabel(point.x()).mid(11));
        QCOMPARE(labels,
            QStringList({ QStringLiteral("01:00"), QStringLiteral("01:15"), QStringLiteral("01:30"),
                QStringLiteral("01:45"), QStringLiteral("03:00"), QStringLiteral("03:15"), QStringLiteral("03:30"),
                QStringLiteral("03:45") }));
        QCOMPARE(chart.timeAxis()->titleText(), QStringLiteral("Europe/Berlin"));
        QCOMPARE(axisLabel(chart.timeAxis()->max()).mid(11), QStringLiteral("04:00"));
    }

    void refreshKeepsTheZoomedRange()
    {
        seedKnownMinutes();
        MetricsPage page(*m_worker);
        QVERIFY(showOnScreen(page));
        QVERIFY(load(page, knownHour()));
        MetricsChart* chart = page.chart(MetricsPage::Chart::Throughput);
        QCOMPARE(chart->rubberBand(), QChartView::HorizontalRubberBand);
        const qreal fullMin = chart->timeAxis()->min();
        const qreal fullMax = chart->timeAxis()->max();

        // Drag across the middle half of the plot, as an operator zooms.
        const QRectF plot = chart->chart()->plotArea();
        const QPoint start = chart->mapFromScene(QPointF(plot.left() + plot.width() / 4, plot.center().y()));
        const QPoint end = chart->mapFromScene(QPointF(plot.right() - plot.width() / 4, plot.center().y()));
        QTest::mousePress(chart->viewport(), Qt::LeftButton, {}, start);
        QTest::mouseMove(chart->viewport(), (start + end) / 2);
        QTest::mouseMove(chart->viewport(), end);
        QTest::mouseRelease(chart->viewport(), Qt::LeftButton, {}, end);
        QVERIFY(chart->isZoomed());
        const qreal zoomedMin = chart->timeAxis()->min();
        const qreal zoomedMax = chart->timeAxis()->max();
        QVERIFY(zoomedMin > fullMin && zoomedMax < fullMax);
        // The ticks follow the zoomed range, still on minutes, evenly spaced.
        const QList<std::pair<QString, qreal>> zoomedTicks = ticks(chart->timeAxis());
        QVERIFY(zoomedTicks.size() >= 3);
        for (qsizetype i = 0; i < zoomedTicks.size(); ++i) {
            QCOMPARE(qint64(zoomedTicks.at(i).second) % 60'000, 0);
            if (i > 1)
                QCOMPARE(zoomedTicks.at(i).second - zoomedTicks.at(i - 1).second,
                    zoomedTicks.at(1).second - zoomedTicks.at(0).second);
        }

        Rollup later { 20, 0 };
        later.published = 7;
        insert(later);
        QVERIFY(refreshed(page));
        QCOMPARE(chart->timeAxis()->min(), zoomedMin);
        QCOMPARE(chart->timeAxis()->max(), zoomedMax);
        QCOMPARE(ys(line(chart, QStringLiteral("published"))), zerosBut(60, { { 3, 10 }, { 10, 4 }, { 20, 7 } }));
        QVERIFY(!page.chart(MetricsPage::Chart::Lag)->isZoomed());

        page.resetZoom();
        QVERIFY(!chart->isZoomed());
        QCOMPARE(chart->timeAxis()->min(), fullMin);
        QCOMPARE(chart->timeAxis()->max(), fullMax);
    }

    void thresholdLinesAtTheConfiguredLevels()
    {
        seedKnownMinutes();
        MetricsPage page(*m_worker);
        QVERIFY(load(page, knownHour()));
        QCOMPARE(page.thresholds(), MetricThresholds());
        const auto levels = [&](MetricsPage::Chart chart, const QString& name) {
            const QLineSeries* series = line(page.chart(chart), name);
            return series ? ys(series) : QList<qreal>();
        };
        const auto spans = [&](MetricsPage::Chart chart, const QString& name) {
            const QLineSeries* series = line(page.chart(chart), name);
            QCategoryAxis* axis = page.chart(chart)->timeAxis();
            return series->count() == 2 && series->at(0).x() == axis->min() && series->at(1).x() == axis->max();
        };
        using Chart = MetricsPage::Chart;
        QCOMPARE(levels(Chart::Lag, QStringLiteral("warning level")), QList<qreal>({ 60, 60 }));
        QCOMPARE(levels(Chart::Duplicates, QStringLiteral("warning level")), QList<qreal>({ 5, 5 }));
        QCOMPARE(levels(Chart::Retries, QStringLiteral("warning level")), QList<qreal>({ 10, 10 }));
        QVERIFY(spans(Chart::Lag, QStringLiteral("warning level")));
        QVERIFY(spans(Chart::Retries, QStringLiteral("warning level")));
        QCOMPARE(line(page.chart(Chart::Lag), QStringLiteral("warning level"))->pen().style(), Qt::DashLine);

        // The last sampled backlog (minute 3) is 75 s old: above 60 s; the last bucket has no traffic.
        MetricThresholds::Evaluation evaluation = page.evaluation();
        QCOMPARE(evaluation.level, MetricThresholds::Level::Warn);
        QCOMPARE(evaluation.exceeded, QStringList { QStringLiteral("oldest pending 75.0 s > 60.0 s") });
        const auto stateShown = [&](const QString& text) {
            const QList<QLabel*> labels = page.findChildren<QLabel*>();
            return std::any_of(
                labels.cbegin(), labels.cend(), [&](QLabel* label) { return label->text().contains(text); });
        };
        QVERIFY(stateShown(QStringLiteral("oldest pending 75.0 s > 60.0 s")));

        MetricThresholds custom;
        custom.oldestPendingAgeSeconds = 90;
        custom.duplicateHitRatePercent = 2.5;
        custom.retryRatePercent = 7;
        page.setThresholds(custom);
        QCOMPARE(levels(Chart::Lag, QStringLiteral("warning level")), QList<qreal>({ 90, 90 }));
        QCOMPARE(levels(Chart::Duplicates, QStringLiteral("warning level")), QList<qreal>({ 2.5, 2.5 }));
        QCOMPARE(levels(Chart::Retries, QStringLiteral("warning level")), QList<qreal>({ 7, 7 }));
        QCOMPARE(page.evaluation().level, MetricThresholds::Level::Ok);
        QVERIFY(stateShown(QStringLiteral("within their warning levels")));
        QCOMPARE(QSettings().value(QStringLiteral("thresholds/oldestPendingAgeSeconds")).toDouble(), 90.0);
        MetricsPage another(*m_worker);
        QCOMPARE(another.thresholds(), custom);
    }

    // Bucket i of `points` starts at minute(i); `now` is the database's clock in seconds after windowStart(), -1
    // for a series read without it.
    void thresholdsEvaluateTheLatestBucket_data()
    {
        QTest::addColumn<QList<MetricPoint>>("points");
        QTest::addColumn<int>("now");
        QTest::addColumn<QStringList>("exceeded");
        QTest::newRow("nothing") << QList<MetricPoint>() << -1 << QStringList();
        QTest::newRow("no traffic") << QList<MetricPoint> { MetricPoint() } << -1 << QStringList();
        QTest::newRow("hit rate at the level") << QList<MetricPoint> { pointWith(100, 5, 0, 0) } << -1 << QStringList();
        QTest::newRow("hit rate above") << QList<MetricPoint> { pointWith(100, 6, 0, 0) } << -1
                                        << QStringList { QStringLiteral("duplicate hit rate 6.0 % > 5.0 %") };
        QTest::newRow("only the latest bucket counts")
            << QList<MetricPoint> { pointWith(100, 50, 0, 0), pointWith(100, 1, 0, 0) } << -1 << QStringList();
        QTest::newRow("retry rate above") << QList<MetricPoint> { pointWith(0, 0, 89, 11) } << -1
                                          << QStringList { QStringLiteral("retry rate 11.0 % > 10.0 %") };
        QTest::newRow("age of the last sample") << QList<MetricPoint> { sampled(120'000), sampled(61'000),
            MetricPoint() } << -1 << QStringList { QStringLiteral("oldest pending 61.0 s > 60.0 s") };
        QTest::newRow("young backlog") << QList<MetricPoint> { sampled(120'000), sampled(59'000) } << -1
                                       << QStringList();
        // The bucket in progress: one replay in its first two requests is no 50 % duplicate rate yet.
        QTest::newRow("unfinished hit rate")
            << QList<MetricPoint> { pointWith(100, 4, 0, 0), pointWith(2, 1, 0, 0) } << 65 << QStringList();
        QTest::newRow("unfinished retry rate")
            << QList<MetricPoint> { pointWith(0, 0, 95, 5), pointWith(0, 0, 1, 1) } << 61 << QStringList();
        QTest::newRow("complete bucket above, unfinished one quiet") << QList<MetricPoint> { pointWith(100, 6, 0, 0),
            pointWith(1, 0, 0, 0) } << 119 << QStringList { QStringLiteral("duplicate hit rate 6.0 % > 5.0 %") };
        QTest::newRow("a bucket that ends now is complete") << QList<MetricPoint> { pointWith(100, 4, 0, 0),
            pointWith(2, 1, 0, 0) } << 120 << QStringList { QStringLiteral("duplicate hit rate 50.0 % > 5.0 %") };
        QTest::newRow("only an unfinished bucket")
            << QList<MetricPoint> { pointWith(2, 1, 1, 1) } << 30 << QStringList();
        // A peak so far can only grow: the unfinished bucket's backlog age is judged.
        QTest::newRow("unfinished backlog age") << QList<MetricPoint> { sampled(30'000), sampled(61'000) } << 90
                                                << QStringList { QStringLiteral("oldest pending 61.0 s > 60.0 s") };
    }
    void thresholdsEvaluateTheLatestBucket()
    {
        QFETCH(QList<MetricPoint>, points);
        QFETCH(int, now);
        QFETCH(QStringList, exceeded);
        for (qsizetype i = 0; i < points.size(); ++i)
            points[i].start = minute(int(i));
        const BucketClock clock { 60, now < 0 ? QDateTime() : windowStart().addSecs(now) };
        const MetricThresholds::Evaluation evaluation = MetricThresholds().evaluate(points, clock);
        QCOMPARE(evaluation.exceeded, exceeded);
        QCOMPARE(evaluation.level, exceeded.isEmpty() ? MetricThresholds::Level::Ok : MetricThresholds::Level::Warn);
    }

    // Against the database's clock: complete minutes at one duplicate hit rate, the current minute at another.
    void unfinishedMinuteIsDrawnApartAndNotJudged_data()
    {
        QTest::addColumn<double>("level");
        QTest::addColumn<qint64>("completeReplays"); // of 100 requests a minute
        QTest::addColumn<qint64>("currentRequests");
        QTest::addColumn<qint64>("currentReplays");
        QTest::addColumn<QStringList>("exceeded");
        QTest::newRow("17 % a minute, 50 % so far") << 20.0 << qint64(17) << qint64(2) << qint64(1) << QStringList();
        QTest::newRow("4 % a minute, 9.1 % so far") << 5.0 << qint64(4) << qint64(11) << qint64(1) << QStringList();
        QTest::newRow("25 % a minute, nothing so far")
            << 20.0 << qint64(25) << qint64(3) << qint64(0)
            << QStringList { QStringLiteral("duplicate hit rate 25.0 % > 20.0 %") };
    }
    void unfinishedMinuteIsDrawnApartAndNotJudged()
    {
        QFETCH(double, level);
        QFETCH(qint64, completeReplays);
        QFETCH(qint64, currentRequests);
        QFETCH(qint64, currentReplays);
        QFETCH(QStringList, exceeded);
        // The minute written to must still be the current one when the page reads it, by the database's clock.
        QTRY_VERIFY_WITH_TIMEOUT(db().secondOfMinute() < 45, 20'000);
        for (int ago = 1; ago <= 5; ++ago)
            insertRecent(ago, 100, completeReplays);
        insertRecent(0, currentRequests, currentReplays);
        db().exec(QStringLiteral("INSERT INTO backlog_samples (bucket, sampled_at, pending, pending_capped, "
                                 "  oldest_pending_ms, last_pending, last_pending_capped, last_oldest_pending_ms) "
                                 "VALUES (date_trunc('minute', now()), now(), 77, false, 5000, 77, false, 5000)"));
        MetricsPage page(*m_worker);
        MetricThresholds thresholds;
        thresholds.duplicateHitRatePercent = level;
        page.setThresholds(thresholds);
        QVERIFY(load(page, MetricsTimeRange(Span::Last15Minutes)));
        QCOMPARE(page.to(), page.serverNow());
        const QList<MetricPoint> points = page.points();
        QVERIFY(points.last().start <= page.serverNow() && points.last().start.addSecs(60) > page.serverNow());
        QCOMPARE(points.last().counters.requests, currentRequests);
        QCOMPARE(page.evaluation().exceeded, exceeded);

        using Chart = MetricsPage::Chart;
        MetricsChart* duplicates = page.chart(Chart::Duplicates);
        for (const auto& [name, whole, current] :
            { std::tuple(QStringLiteral("requests"), 100.0, qreal(currentRequests)),
                std::tuple(QStringLiteral("duplicate hit rate"), qreal(completeReplays),
                    currentRequests ? 100.0 * currentReplays / currentRequests : 0.0) }) {
            // The line of whole minutes ends at the last complete one; the current minute is a lighter dot apart.
            const QLineSeries* series = line(duplicates, name);
            QCOMPARE(series->count(), points.size() - 1);
            QCOMPARE(series->points().last().y(), whole);
            const QLineSeries* soFar = duplicates->soFar(series);
            QVERIFY(soFar);
            QCOMPARE(soFar->count(), 1);
            QCOMPARE(soFar->at(0).x(), qreal(MetricsChart::axisMSecs(points.last().start, page.zone())));
            QCOMPARE(soFar->at(0).y(), current);
            QVERIFY(!soFar->lightMarker().isNull()); // a dot
            QCOMPARE(soFar->color().rgb(), series->color().rgb());
            QVERIFY(soFar->color().alphaF() < series->color().alphaF());
            QVERIFY(soFar->isVisible());
            for (const QLegendMarker* marker : duplicates->chart()->legend()->markers(const_cast<QLineSeries*>(soFar)))
                QVERIFY(!marker->isVisible());
        }
        // The backlog's peak so far is true already: a gauge draws the current minute on its line.
        const QLineSeries* backlog = line(page.chart(Chart::Lag), QStringLiteral("backlog"));
        QVERIFY(!page.chart(Chart::Lag)->soFar(backlog));
        QCOMPARE(backlog->count(), points.size());
        QCOMPARE(backlog->points().last().y(), 77.0);

        // Hover on the dot says what it is.
        QLineSeries* hitRate = line(duplicates, QStringLiteral("duplicate hit rate"));
        emit duplicates->soFar(hitRate)->hovered(duplicates->soFar(hitRate)->at(0), true);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("Unfinished bucket: counts so far")),
            qPrintable(QToolTip::text()));
        emit hitRate->hovered(hitRate->points().last(), true);
        QTRY_VERIFY(!QToolTip::text().contains(QStringLiteral("Unfinished")));

        // Hiding a line hides its dot.
        QLineSeries* requests = line(duplicates, QStringLiteral("requests"));
        emit duplicates->chart()->legend()->markers(requests).first()->clicked();
        QVERIFY(!duplicates->soFar(requests)->isVisible());
        emit duplicates->chart()->legend()->markers(requests).first()->clicked();
        QVERIFY(duplicates->soFar(requests)->isVisible());
    }

    // Ticks at bucket boundaries, evenly spaced, each labelled with the time of the point drawn above it.
    void ticksOnBucketBoundaries_data()
    {
        QTest::addColumn<QDateTime>("from");
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<bool>("local");
        QTest::newRow("1 h of minutes, UTC") << windowStart().addSecs(17) << qint64(3600) << false;
        QTest::newRow("1 h of minutes, local") << windowStart().addSecs(-1800 - 17) << qint64(3600) << true;
        QTest::newRow("6 h, UTC") << windowStart().addSecs(-1234) << qint64(6 * 3600) << false;
        QTest::newRow("24 h, local") << windowStart().addSecs(4321) << qint64(86'400) << true;
        QTest::newRow("24 h, UTC, on boundaries") << windowStart() << qint64(86'400) << false;
        QTest::newRow("7 d, UTC") << windowStart().addSecs(-3 * 86'400 + 777) << qint64(7 * 86'400) << false;
    }
    void ticksOnBucketBoundaries()
    {
        QFETCH(QDateTime, from);
        QFETCH(qint64, seconds);
        QFETCH(bool, local);
        TimeFormatter::setZone(local ? TimeFormatter::Zone::Local : TimeFormatter::Zone::Utc);
        MetricsPage page(*m_worker);
        QVERIFY(showOnScreen(page));
        QVERIFY(load(page, MetricsTimeRange(from, from.addSecs(seconds))));
        QCoreApplication::sendPostedEvents(); // the layout, which decides how many labels fit
        GuiTesting::saveScreenshot(page,
            QStringLiteral("metrics-ticks-%1.png")
                .arg(QString::fromUtf8(QTest::currentDataTag())
                         .replace(QRegularExpression(QStringLiteral("\\W+")), QStringLiteral("-"))));
        const QList<MetricPoint> points = page.points();
        QVERIFY(!points.isEmpty());
        // Each bucket boundary on the axis, and the wall-clock time it names.
        QMap<qreal, QDateTime> boundaries;
        for (const MetricPoint& point : points)
            boundaries.insert(qreal(MetricsChart::axisMSecs(point.start, page.zone())), point.start);
        const QDateTime end = points.last().start.addSecs(page.bucketSeconds());
        boundaries.insert(qreal(MetricsChart::axisMSecs(end, page.zone())), end);

        for (const MetricsPage::Chart which : { MetricsPage::Chart::Duplicates, MetricsPage::Chart::Throughput }) {
            MetricsChart* chart = page.chart(which);
            const QList<std::pair<QString, qreal>> shown = ticks(chart->timeAxis());
            QVERIFY2(shown.size() >= 3 && shown.size() <= 12, qPrintable(QString::number(shown.size())));
            const QLineSeries* drawn = line(chart,
                which == MetricsPage::Chart::Duplicates ? QStringLiteral("requests") : QStringLiteral("published"));
            QList<qreal> drawnX;
            for (const QPointF& point : drawn->points())
                drawnX.append(point.x());
            for (const auto& [label, x] : shown) {
                QVERIFY2(boundaries.contains(x), qPrintable(label));
                QVERIFY2(names(label, boundaries.value(x).toTimeZone(page.zone())),
                    qPrintable(label + QStringLiteral(" at ") + boundaries.value(x).toString(Qt::ISODate)));
                if (boundaries.value(x) != end)
                    QVERIFY2(drawnX.contains(x), qPrintable(label)); // the point it names is drawn above it
            }
            const qreal step = shown.at(1).second - shown.at(0).second;
            QCOMPARE(qint64(step) % (page.bucketSeconds() * 1000LL), 0);
            for (qsizetype i = 1; i < shown.size(); ++i)
                QCOMPARE(shown.at(i).second - shown.at(i - 1).second, step);
            // No tick missing at either end.
            QVERIFY(shown.first().second - chart->timeAxis()->min() < step);
            QVERIFY(chart->timeAxis()->max() - shown.last().second < step);
        }
    }

    void emptyWindowSaysSo()
    {
        seedKnownMinutes();
        MetricsPage page(*m_worker);
        QVERIFY(showOnScreen(page));
        QVERIFY(load(page, MetricsTimeRange(minute(3), minute(3))));
        QVERIFY(page.points().isEmpty());
        QCoreApplication::sendPostedEvents();
        GuiTesting::saveScreenshot(page, QStringLiteral("metrics-no-buckets.png"));
        for (const MetricsPage::Chart which : { MetricsPage::Chart::Duplicates, MetricsPage::Chart::Lag,
                 MetricsPage::Chart::Retries, MetricsPage::Chart::Throughput }) {
            MetricsChart* chart = page.chart(which);
            QVERIFY(chart->showsNoData());
            QVERIFY(sceneTexts(chart).contains(QStringLiteral("No data in this window")));
            QVERIFY(chart->timeAxis()->categoriesLabels().isEmpty());
            for (const QAbstractAxis* axis : chart->chart()->axes())
                QVERIFY(!axis->isVisible());
        }

        QVERIFY(load(page, knownHour()));
        MetricsChart* chart = page.chart(MetricsPage::Chart::Throughput);
        QVERIFY(!chart->showsNoData());
        QVERIFY(!sceneTexts(chart).contains(QStringLiteral("No data in this window")));
        QVERIFY(!chart->timeAxis()->categoriesLabels().isEmpty());
        for (const QAbstractAxis* axis : chart->chart()->axes())
            QVERIFY(axis->isVisible() && axis->labelsVisible());
    }

    void rendersWithAndWithoutData_data()
    {
        QTest::addColumn<QString>("seed");
        QTest::addColumn<QString>("file");
        QTest::newRow("with data") << QStringLiteral("six hours") << QStringLiteral("metrics-with-data.png");
        QTest::newRow("current minute unfinished")
            << QStringLiteral("until now") << QStringLiteral("metrics-unfinished-minute.png");
        QTest::newRow("empty database") << QString() << QStringLiteral("metrics-empty.png");
    }
    void rendersWithAndWithoutData()
    {
        QFETCH(QString, seed);
        QFETCH(QString, file);
        MetricsTimeRange window(windowStart(), windowStart().addSecs(6LL * 3600));
        if (seed == QStringLiteral("six hours")) {
            seedSixHours(windowStart());
        } else if (seed == QStringLiteral("until now")) {
            // Six hours up to the database's current minute, of which the first seconds have been counted.
            QTRY_VERIFY_WITH_TIMEOUT(db().secondOfMinute() < 45, 20'000);
            const QDateTime now = db().openSession()->serverNow();
            const QDateTime currentMinute = now.addMSecs(-(now.toMSecsSinceEpoch() % 60'000));
            seedSixHours(currentMinute.addSecs(-359 * 60));
            db().exec(QStringLiteral("UPDATE metric_rollups SET requests = 30, executions = 20, replays = 10, "
                                     "  published = 25, failed_attempts = 5 WHERE bucket = ?::timestamptz"),
                { currentMinute.toString(Qt::ISODate) });
            window = MetricsTimeRange(Span::LastHour);
        }
        MetricsPage page(*m_worker);
        QVERIFY(showOnScreen(page));
        QVERIFY(load(page, window));
        QVERIFY(window.span() == Span::LastHour ? page.points().size() >= 60 : page.points().size() == 360);
        // The labels and the charts' layouts adjust to the new figures in posted events, before anyone sees them.
        QCoreApplication::sendPostedEvents();
        const QImage image = page.grab().toImage();
        QVERIFY(image.save(file));
        QVERIFY(isDrawn(image));
        QCOMPARE(page.evaluation().level, seed.isEmpty() ? MetricThresholds::Level::Ok : MetricThresholds::Level::Warn);
    }

    // File → Export metrics CSV writes the same bytes as `outboxctl metrics --format csv` for the window shown.
    void exportMatchesTheCli_data()
    {
        QTest::addColumn<bool>("local");
        QTest::addColumn<QDateTime>("from");
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<int>("bucketSeconds");
        QTest::newRow("UTC, 6 h") << false << windowStart() << qint64(6 * 3600) << 60;
        QTest::newRow("local, 24 h") << true << windowStart().addSecs(-3LL * 3600) << qint64(86'400) << 300;
        QTest::newRow("UTC, 7 d, not on a bucket boundary")
            << false << windowStart().addSecs(-3 * 86'400 + 1234) << qint64(7 * 86'400) << 3600;
        QTest::newRow("local, last hour") << true << QDateTime() << qint64(3600) << 60;
    }
    void exportMatchesTheCli()
    {
        QFETCH(bool, local);
        QFETCH(QDateTime, from);
        QFETCH(qint64, seconds);
        QFETCH(int, bucketSeconds);
        seedSixHours(windowStart());
        // No refresh may slide a "last hour" window between the export and the CLI run.
        QSettings().setValue(ConsoleTesting::AutoRefreshSecondsKey, 0);
        const auto window = ConsoleTesting::openWindow(db().settings());
        QVERIFY(window);
        TimeFormatter::setZone(
            local ? TimeFormatter::Zone::Local : TimeFormatter::Zone::Utc); // after restoring settings
        QVERIFY(window->exportMetricsAction()->isEnabled());
        MetricsPage* page = window->metricsPage();
        auto* tabs = window->findChild<QTabWidget*>();
        QCOMPARE(tabs->tabText(tabs->indexOf(page)), QStringLiteral("&Metrics"));
        {
            // Opening the tab reads it, and so does every refresh while it is open.
            QSignalSpy loaded(page, &MetricsPage::loaded);
            tabs->setCurrentWidget(page);
            QVERIFY(loaded.wait(10'000));
            window->refresh();
            QVERIFY(loaded.wait(10'000));
        }
        QVERIFY(load(
            *page, from.isValid() ? MetricsTimeRange(from, from.addSecs(seconds)) : MetricsTimeRange(Span::LastHour)));
        QCOMPARE(page->bucketSeconds(), bucketSeconds);
        QCOMPARE(page->zone().id(), local ? QByteArray("Asia/Seoul") : QByteArray("UTC"));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("metrics.csv"));
        QSignalSpy exported(page, &MetricsPage::exported);
        answerFileDialog(path);
        window->exportMetricsAction()->trigger();
        QVERIFY(exported.wait(10'000));
        QCOMPARE(exported.first().first().toString(), path);
        const QByteArray gui = readAll(path);
        QCOMPARE(gui.count("\r\n"), page->points().size() + 1);

        const ProcessTesting::Run cli = runMetricsCli(page->from(), page->to(), page->bucketSeconds(), page->zone());
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QCOMPARE(gui, cli.out);
    }

    void customRangeFromTheControls()
    {
        seedKnownMinutes();
        MetricsPage page(*m_worker);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* span = page.findChild<QComboBox*>();
        const QList<QDateTimeEdit*> edits = page.findChildren<QDateTimeEdit*>();
        QCOMPARE(edits.size(), 2);
        QVERIFY(!edits.at(0)->isEnabled());

        QSignalSpy loaded(&page, &MetricsPage::loaded);
        span->setCurrentIndex(span->findData(int(Span::Custom)));
        emit span->activated(span->currentIndex());
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(page.timeRange().span(), Span::Custom);
        QVERIFY(edits.at(0)->isEnabled() && edits.at(1)->isEnabled());

        edits.at(0)->setDateTime(windowStart());
        edits.at(1)->setDateTime(minute(60));
        emit edits.at(1)->editingFinished();
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(page.from(), windowStart());
        QCOMPARE(page.to(), minute(60));
        QCOMPARE(page.points().size(), 60);

        span->setCurrentIndex(span->findData(int(Span::Last15Minutes)));
        emit span->activated(span->currentIndex());
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(page.from().secsTo(page.to()), 15 * 60);
        QVERIFY(!edits.at(0)->isEnabled());
    }

    void emptyWindowExportsTheHeaderOnly()
    {
        seedKnownMinutes();
        MetricsPage page(*m_worker);
        QVERIFY(load(page, MetricsTimeRange(minute(3), minute(3))));
        QVERIFY(page.points().isEmpty());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("empty.csv"));
        QSignalSpy exported(&page, &MetricsPage::exported);
        page.exportCsv(path);
        QVERIFY(exported.wait(10'000));
        const QByteArray csv = readAll(path);
        QVERIFY(csv.startsWith("bucket_start,requests,"));
        QCOMPARE(csv.count("\r\n"), 1);
        QVERIFY(csv.endsWith("\r\n"));
        const ProcessTesting::Run cli = runMetricsCli(minute(3), minute(3), 60, QTimeZone::utc());
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QCOMPARE(csv, cli.out);
    }

    void exportFailureIsReported()
    {
        MetricsPage page(*m_worker);
        QSignalSpy failed(&page, &MetricsPage::exportFailed);
        page.exportCsv(QStringLiteral("/nonexistent-directory/metrics.csv"));
        QVERIFY(failed.wait(10'000));
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("/nonexistent-directory/metrics.csv")),
            qPrintable(failed.first().first().toString()));
    }

    // Changing the window while a read is on its way: the stale answer is dropped, the new window is read.
    void windowChangeDropsTheStaleRead()
    {
        seedKnownMinutes();
        MetricsPage page(*m_worker);
        QSignalSpy loaded(&page, &MetricsPage::loaded);
        page.setTimeRange(MetricsTimeRange(Span::Last7Days));
        page.setTimeRange(knownHour());
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(page.from(), windowStart());
        QCOMPARE(page.points().size(), 60);
    }

private:
    std::unique_ptr<DatabaseClient> m_worker;
};

int main(int argc, char* argv[])
{
    // "Local time" is Asia/Seoul in this test, whatever zone the machine is in: set before anything reads it.
    qputenv("TZ", "Asia/Seoul");
    QApplication app(argc, argv);
    QTEST_DISABLE_KEYPAD_NAVIGATION
    TestMetricsPage test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_metricspage.moc"
