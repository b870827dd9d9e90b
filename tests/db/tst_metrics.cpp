// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "metrics/latencyhistogram.h"
#include "metrics/metricsrecorder.h"
#include "metrics/metricsrepository.h"
#include "operations/outboxoverview.h"
#include "orders/createorderhandler.h"
#include "relay/outboxrelay.h"
#include "relay/sinks/faultinjectingsink.h"
#include "support/databasetestcase.h"

#include <QCoreApplication>
#include <QSqlQuery>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <memory>

class TestMetrics final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestMetrics()
        : DatabaseTestCase(QStringLiteral("metrics"))
    { }

private:
    QList<MetricPoint> lastHour(int bucketSeconds, const QString& zone = QStringLiteral("UTC"))
    {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        return MetricsRepository(session()).series(now.addSecs(-3600), now.addSecs(120), bucketSeconds, zone);
    }

    static MetricCounters total(const QList<MetricPoint>& points)
    {
        MetricCounters sum;
        for (const MetricPoint& point : points)
            sum.add(point.counters);
        return sum;
    }

    CreateOrderResult create(CreateOrderHandler& handler, const QString& key, const QString& amount)
    {
        CreateOrderRequest request;
        request.key = key;
        request.customer = QStringLiteral("metrics");
        request.amount = amount;
        return handler.handle(request);
    }

private slots:
    void rollupsEqualBruteForce()
    {
        constexpr int Created = 60;
        constexpr int Replays = 45;
        constexpr int Mismatches = 7;
        MetricsRecorder recorder;
        CreateOrderHandler::Options inTransaction; // for the before-commit hook below
        inTransaction.form = IdempotentRequest::Form::Transaction;
        CreateOrderHandler handler(session(), recorder, inTransaction);
        for (int i = 0; i < Created; ++i)
            QCOMPARE(create(handler, QStringLiteral("k%1").arg(i), QStringLiteral("1")).outcome,
                CreateOrderResult::Outcome::Created);
        for (int i = 0; i < Replays; ++i)
            QCOMPARE(create(handler, QStringLiteral("k%1").arg(i % 10), QStringLiteral("1")).outcome,
                CreateOrderResult::Outcome::Replayed);
        for (int i = 0; i < Mismatches; ++i)
            QCOMPARE(create(handler, QStringLiteral("k%1").arg(i), QStringLiteral("2")).outcome,
                CreateOrderResult::Outcome::Mismatch);
        auto other = db().openSession(QStringLiteral("duplicate"));
        CreateOrderResult inProgress;
        handler.setBeforeCommitHook([&] {
            CreateOrderHandler second(*other, recorder);
            inProgress = create(second, QStringLiteral("busy"), QStringLiteral("1"));
        });
        QCOMPARE(
            create(handler, QStringLiteral("busy"), QStringLiteral("1")).outcome, CreateOrderResult::Outcome::Created);
        QCOMPARE(inProgress.outcome, CreateOrderResult::Outcome::InProgress);
        recorder.flush(session());

        // Spread publish latencies over many histogram buckets, then relay with failures.
        db().exec(QStringLiteral("UPDATE outbox SET created_at = now() - (id * id * 20) * interval '1 millisecond'"));
        RelayOptions options;
        options.workers = 2;
        options.batchSize = 16;
        options.maxAttempts = 3;
        options.backoffBaseMs = 0;
        options.once = true;
        options.log = [](QtMsgType, const QString&) {};
        FaultInjectingSink::Options faults;
        faults.failureRate = 0.3;
        auto published = std::make_shared<std::atomic<qint64>>(0);
        OutboxRelay(
            db().settings(), [=] { return std::make_unique<FaultInjectingSink>(faults, published); }, options)
            .run();

        for (const int bucketSeconds : { 60, 300, 3600 }) {
            const QList<MetricPoint> points = lastHour(bucketSeconds);
            const MetricCounters sum = total(points);
            QCOMPARE(sum.requests, qint64(Created + 1 + Replays + Mismatches + 1));
            QCOMPARE(sum.executions, qint64(Created + 1));
            QCOMPARE(sum.replays, qint64(Replays));
            QCOMPARE(sum.mismatches, qint64(Mismatches));
            QCOMPARE(sum.inProgressRejections, 1LL);

            QSqlQuery& q = session().exec(
                QStringLiteral("SELECT count(*) FILTER (WHERE status = 'published'), "
                               "  coalesce(sum(epoch_ms(published_at) - epoch_ms(created_at)), 0)::bigint, "
                               "  coalesce(max(epoch_ms(published_at) - epoch_ms(created_at)), 0), "
                               "  count(*) FILTER (WHERE status = 'dead'), "
                               "  (SELECT count(*) FROM outbox_attempts) FROM outbox_messages"),
                {}, QStringLiteral("brute force"));
            QVERIFY(q.next());
            QCOMPARE(sum.published, q.value(0).toLongLong());
            QCOMPARE(sum.publishLatencySumMs, q.value(1).toLongLong());
            QCOMPARE(sum.publishLatencyMaxMs, q.value(2).toLongLong());
            QCOMPARE(sum.deadLetters, q.value(3).toLongLong());
            QCOMPARE(sum.failedAttempts, q.value(4).toLongLong());
            QVERIFY(sum.failedAttempts > 0);
        }

        // Histogram and quantiles against the raw latencies.
        QList<qint64> latencies;
        QSqlQuery& raw = session().exec(QStringLiteral("SELECT epoch_ms(published_at) - epoch_ms(created_at) FROM "
                                                       "outbox_messages WHERE status = 'published' ORDER BY 1"),
            {}, QStringLiteral("latencies"));
        while (raw.next())
            latencies.append(raw.value(0).toLongLong());
        QList<qint64> bruteHistogram(LatencyHistogram::Buckets, 0);
        for (qint64 latency : latencies)
            ++bruteHistogram[LatencyHistogram::bucketFor(latency)];
        MetricPoint whole;
        whole.counters = total(lastHour(3600));
        QCOMPARE(whole.counters.publishLatencyHistogram, bruteHistogram);
        for (const double quantile : { 0.5, 0.95, 0.99 }) {
            const qint64 exact
                = latencies.at(qMax<qsizetype>(0, qsizetype(std::ceil(quantile * double(latencies.size()))) - 1));
            const qint64 reported = *whole.publishLatencyQuantileMs(quantile);
            const int bucket = LatencyHistogram::bucketFor(exact);
            QVERIFY2(reported >= exact && (bucket == 0 || reported <= LatencyHistogram::upperBoundMs(bucket)),
                qPrintable(QStringLiteral("q%1: exact %2, reported %3").arg(quantile).arg(exact).arg(reported)));
        }
        QCOMPARE(*whole.duplicateHitRate(), double(Replays) / double(whole.counters.requests));
        QCOMPARE(*whole.retryRate(),
            double(whole.counters.failedAttempts) / double(whole.counters.failedAttempts + whole.counters.published));
    }

    void shardsAndRepeatedFlushesAdd()
    {
        MetricsRecorder first(3);
        MetricsRecorder second(11);
        for (int flush = 0; flush < 3; ++flush) {
            first.record([](MetricCounters& c) {
                c.replays += 2;
                c.addPublishLatency(5);
            });
            second.record([](MetricCounters& c) {
                ++c.replays;
                c.addPublishLatency(700);
            });
            first.flush(session());
            second.flush(session());
        }
        const MetricCounters sum = total(lastHour(60));
        QCOMPARE(sum.replays, 9LL);
        QCOMPARE(sum.published, 6LL);
        QCOMPARE(sum.publishLatencyMaxMs, 700LL);
        QCOMPARE(sum.publishLatencySumMs, 3 * 5LL + 3 * 700LL);
        QCOMPARE(sum.publishLatencyHistogram.at(LatencyHistogram::bucketFor(5)), 3LL);
        QCOMPARE(sum.publishLatencyHistogram.at(LatencyHistogram::bucketFor(700)), 3LL);
        QVERIFY(db().scalar(QStringLiteral("SELECT count(DISTINCT shard) FROM metric_rollups")).toLongLong() == 2);
    }

    void emptyBucketsAreZeroFilled()
    {
        const QDateTime from = QDateTime(QDate(2026, 1, 1), QTime(10, 0), Qt::UTC);
        const QList<MetricPoint> points
            = MetricsRepository(session()).series(from, from.addSecs(600), 60, QStringLiteral("UTC"));
        QCOMPARE(points.size(), 10);
        for (int i = 0; i < points.size(); ++i) {
            QCOMPARE(points.at(i).start, from.addSecs(60LL * i));
            QCOMPARE(points.at(i).counters.requests, 0LL);
            QVERIFY(!points.at(i).duplicateHitRate());
            QVERIFY(!points.at(i).publishLatencyQuantileMs(0.5));
            QVERIFY(!points.at(i).backlog);
        }
    }

    void hourlyBucketsFollowTheTimeZone_data()
    {
        QTest::addColumn<QString>("zone");
        QTest::addColumn<int>("minuteOfHourUtc");
        QTest::newRow("UTC") << QStringLiteral("UTC") << 0;
        QTest::newRow("Asia/Kolkata (+05:30)") << QStringLiteral("Asia/Kolkata") << 30;
        QTest::newRow("Asia/Kathmandu (+05:45)") << QStringLiteral("Asia/Kathmandu") << 15;
        QTest::newRow("Europe/Berlin") << QStringLiteral("Europe/Berlin") << 0;
    }

    void hourlyBucketsFollowTheTimeZone()
    {
        QFETCH(QString, zone);
        QFETCH(int, minuteOfHourUtc);
        const QDateTime from = QDateTime(QDate(2026, 7, 1), QTime(0, 7), Qt::UTC);
        const QList<MetricPoint> points
            = MetricsRepository(session()).series(from, from.addSecs(6LL * 3600), 3600, zone);
        QVERIFY(points.size() >= 6);
        for (const MetricPoint& point : points) {
            QCOMPARE(point.start.time().minute(), minuteOfHourUtc);
            QCOMPARE(point.start.time().second(), 0);
        }
        QVERIFY(points.first().start <= from);
    }

    void backlogSamplesAppear()
    {
        MetricsRepository(session()).recordBacklogSample(BacklogSample { 1234, true, 98'000 });
        const QList<MetricPoint> points = lastHour(60);
        const auto sampled
            = std::find_if(points.cbegin(), points.cend(), [](const MetricPoint& p) { return p.backlog.has_value(); });
        QVERIFY(sampled != points.cend());
        QCOMPARE(sampled->backlog->unpublished, 1234LL);
        QVERIFY(sampled->backlog->capped);
        QCOMPARE(sampled->backlog->oldestUnpublishedAgeMs, 98'000LL);
        QVERIFY(sampled->lastBacklog);
        QCOMPARE(sampled->lastBacklog->unpublished, 1234LL);
    }

    // Later samples of the same minute never lower its peak; the last sample is kept beside it.
    void aMinuteKeepsItsPeakAndItsLastSample()
    {
        UnitOfWork uow(session()); // one transaction, one now(): one minute
        MetricsRepository metrics(session());
        metrics.recordBacklogSample(BacklogSample { 636, false, 40'000 });
        metrics.recordBacklogSample(BacklogSample { 20, true, 45'000 });
        metrics.recordBacklogSample(BacklogSample { 5, false, 297 });
        uow.commit();
        const QList<MetricPoint> points = lastHour(60);
        const auto sampled
            = std::find_if(points.cbegin(), points.cend(), [](const MetricPoint& p) { return p.backlog.has_value(); });
        QVERIFY(sampled != points.cend());
        QCOMPARE(sampled->backlog->unpublished, 636LL);
        QCOMPARE(sampled->backlog->oldestUnpublishedAgeMs, 45'000LL); // each gauge its own peak
        QVERIFY(sampled->backlog->capped); // capped at any sample
        QCOMPARE(sampled->lastBacklog->unpublished, 5LL);
        QCOMPARE(sampled->lastBacklog->oldestUnpublishedAgeMs, 297LL);
        QVERIFY(!sampled->lastBacklog->capped);
    }

    // The backlog the console's Overview shows is a sample of its minute: the charts' peak for that minute is raised
    // to it (during an outage the Overview showed 608 while the chart's peak from the relays' 10 s samples said
    // 540), for a viewer too, while the minute's last sample stays the relays'.
    void theOverviewsBacklogRaisesItsMinutesPeak_data()
    {
        QTest::addColumn<QString>("groupRole"); // empty: the database's owner
        QTest::newRow("owner") << QString();
        QTest::newRow("viewer") << QStringLiteral("outbox_viewer");
        QTest::newRow("operator") << QStringLiteral("outbox_operator");
    }

    void theOverviewsBacklogRaisesItsMinutesPeak()
    {
        QFETCH(QString, groupRole);
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                 "SELECT 'order', g::text, 'order.created', '{}', 'noted:' || g "
                                 "FROM generate_series(1, 30) AS g"));
        db().exec(QStringLiteral("UPDATE outbox SET status = 'paused' WHERE aggregate_id::int <= 4"));
        // The relay's sample and the Overview's read in one minute of the database's clock.
        QTRY_VERIFY_WITH_TIMEOUT(db().secondOfMinute() < 50, 20'000);
        MetricsRepository(session()).recordBacklogSample(BacklogSample { 10, false, 1'000 });
        std::unique_ptr<DbSession> reader;
        if (groupRole.isEmpty()) {
            reader = db().openSession(QStringLiteral("overview"));
        } else {
            const QString login
                = QStringLiteral("tst_noted_%1_%2").arg(groupRole).arg(QCoreApplication::applicationPid());
            reader = std::make_unique<DbSession>(db().createLoginRole(login, groupRole), QStringLiteral("overview"));
        }
        const OutboxOverview overview = OutboxOverview::load(*reader, 60'000);
        QCOMPARE(overview.pending.value + overview.paused.value, 30LL);
        const QList<MetricPoint> points = lastHour(60);
        const auto minute = std::find_if(points.cbegin(), points.cend(), [&](const MetricPoint& p) {
            return p.start.secsTo(overview.serverNow) >= 0 && p.start.secsTo(overview.serverNow) < 60;
        });
        QVERIFY(minute != points.cend() && minute->backlog);
        QCOMPARE(minute->backlog->unpublished, 30LL);
        QVERIFY(minute->backlog->oldestUnpublishedAgeMs >= *overview.oldestUnpublishedAgeMs);
        QCOMPARE(minute->lastBacklog->unpublished, 10LL);
        // The Overview's own chart of the last hour, on the same screen as its figures, already holds them.
        const auto shown
            = std::find_if(overview.lastHour.cbegin(), overview.lastHour.cend(), [&](const MetricPoint& p) {
                  return p.start.secsTo(overview.serverNow) >= 0 && p.start.secsTo(overview.serverNow) < 60;
              });
        QVERIFY(shown != overview.lastHour.cend() && shown->backlog);
        QCOMPARE(shown->backlog->unpublished, 30LL);
        QVERIFY(shown->backlog->oldestUnpublishedAgeMs >= *overview.oldestUnpublishedAgeMs);
    }

    void badWindowsAreRefused_data()
    {
        QTest::addColumn<int>("durationSeconds");
        QTest::addColumn<int>("bucketSeconds");
        QTest::addColumn<QString>("zone");
        QTest::newRow("window ending before it starts") << -60 << 60 << QStringLiteral("UTC");
        QTest::newRow("unknown zone") << 600 << 60 << QStringLiteral("Mars/Olympus_Mons");
        QTest::newRow("POSIX offset (sign differs in PostgreSQL)") << 600 << 60 << QStringLiteral("UTC+01:00");
        QTest::newRow("bucket not whole minutes") << 600 << 90 << QStringLiteral("UTC");
        QTest::newRow("too many buckets")
            << 60 * (MetricsRepository::MaxSeriesPoints + 1) << 60 << QStringLiteral("UTC");
    }

    void badWindowsAreRefused()
    {
        QFETCH(int, durationSeconds);
        QFETCH(int, bucketSeconds);
        QFETCH(QString, zone);
        const QDateTime from = QDateTime::currentDateTimeUtc();
        try {
            MetricsRepository(session()).series(from, from.addSecs(durationSeconds), bucketSeconds, zone);
            QFAIL("accepted");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
        }
    }
};

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
