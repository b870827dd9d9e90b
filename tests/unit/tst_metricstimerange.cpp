// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/metricstimerange.h"

#include <QTest>
#include <QTimeZone>
#include <algorithm>
#include <iterator>

namespace {

using Span = MetricsTimeRange::Span;

// The bucket sizes the header promises, finest first.
constexpr int Ladder[] = { 60, 5 * 60, 15 * 60, 3600, 6 * 3600, 24 * 3600 };

qint64 pointsOf(qint64 windowSeconds, int bucketSeconds)
{
    return (windowSeconds + bucketSeconds - 1) / bucketSeconds;
}

} // namespace

// The span of time the Metrics tab charts and the bucket size it asks the rollups for.
class TestMetricsTimeRange final : public QObject {
    Q_OBJECT

private slots:
    void bucketFitsTheWindow_data()
    {
        QTest::addColumn<qint64>("windowSeconds");
        QTest::addColumn<int>("bucketSeconds");
        QTest::newRow("15 min: 15 points, the finest the rollups have") << qint64(15 * 60) << 60;
        QTest::newRow("1 h") << qint64(3600) << 60;
        QTest::newRow("6 h") << qint64(6 * 3600) << 60;
        QTest::newRow("500 min: 500 points") << qint64(500 * 60) << 60;
        QTest::newRow("501 min") << qint64(501 * 60) << 300;
        QTest::newRow("24 h") << qint64(24 * 3600) << 300;
        QTest::newRow("2500 min") << qint64(2500 * 60) << 300;
        QTest::newRow("2501 min") << qint64(2501 * 60) << 900;
        QTest::newRow("7 d") << qint64(7 * 86'400) << 3600;
        QTest::newRow("30 d") << qint64(30 * 86'400) << 6 * 3600;
        QTest::newRow("1 year") << qint64(365 * 86'400) << 86'400;
        QTest::newRow("longer than 500 days: the largest bucket") << qint64(1000 * 86'400) << 86'400;
        QTest::newRow("empty window") << qint64(0) << 60;
    }
    void bucketFitsTheWindow()
    {
        QFETCH(qint64, windowSeconds);
        QFETCH(int, bucketSeconds);
        QCOMPARE(MetricsTimeRange::bucketSecondsFor(windowSeconds), bucketSeconds);
    }

    void ladderTakesTheFinestRungThatFits_data()
    {
        QTest::addColumn<qint64>("windowSeconds");
        // Both sides of every rung's capacity (MaxPoints buckets), and a second past a bucket boundary.
        for (const int bucket : Ladder) {
            const qint64 capacity = qint64(bucket) * MetricsTimeRange::MaxPoints;
            for (const qint64 window : { capacity - 1, capacity, capacity + 1 })
                QTest::addRow("%lld s (rung of %d s)", window, bucket) << window;
        }
        QTest::newRow("one second") << 1LL;
        QTest::newRow("one minute and a second") << 61LL;
    }

    void ladderTakesTheFinestRungThatFits()
    {
        QFETCH(qint64, windowSeconds);
        const int bucket = MetricsTimeRange::bucketSecondsFor(windowSeconds);
        const auto rung = std::find(std::begin(Ladder), std::end(Ladder), bucket);
        QVERIFY2(rung != std::end(Ladder), qPrintable(QString::number(bucket)));
        // At most MaxPoints buckets, unless even the largest bucket cannot manage that.
        if (rung != std::end(Ladder) - 1)
            QVERIFY2(
                pointsOf(windowSeconds, bucket) <= MetricsTimeRange::MaxPoints, qPrintable(QString::number(bucket)));
        // The finest that fits: the rung below would need more than MaxPoints buckets.
        if (rung != std::begin(Ladder))
            QVERIFY2(pointsOf(windowSeconds, *(rung - 1)) > MetricsTimeRange::MaxPoints,
                qPrintable(QString::number(bucket)));
    }

    // A longer window never gets a finer bucket.
    void bucketsGrowWithTheWindow()
    {
        int previous = MetricsTimeRange::bucketSecondsFor(0);
        for (qint64 window = 0; window <= 800LL * 86'400; window += 997) {
            const int bucket = MetricsTimeRange::bucketSecondsFor(window);
            QVERIFY2(bucket >= previous,
                qPrintable(QStringLiteral("%1 s: %2 after %3").arg(window).arg(bucket).arg(previous)));
            previous = bucket;
        }
        QCOMPARE(previous, Ladder[std::size(Ladder) - 1]);
    }

    void lastSpansEndNowAndReachBack_data()
    {
        QTest::addColumn<int>("span");
        QTest::addColumn<qint64>("seconds");
        QTest::newRow("15 min") << int(Span::Last15Minutes) << qint64(15 * 60);
        QTest::newRow("1 h") << int(Span::LastHour) << qint64(3600);
        QTest::newRow("6 h") << int(Span::Last6Hours) << qint64(6 * 3600);
        QTest::newRow("24 h") << int(Span::Last24Hours) << qint64(24 * 3600);
        QTest::newRow("7 d") << int(Span::Last7Days) << qint64(7 * 24 * 3600);
    }

    void lastSpansEndNowAndReachBack()
    {
        QFETCH(int, span);
        QFETCH(qint64, seconds);
        const MetricsTimeRange range { Span(span) };
        QCOMPARE(int(range.span()), span);
        // 2026-03-29 is the day Europe/Berlin springs forward: a "last" span is elapsed time, not wall-clock time.
        for (const QDateTime& now : { QDateTime(QDate(2026, 3, 29), QTime(12, 0), Qt::UTC),
                 QDateTime(QDate(2026, 3, 29), QTime(12, 0), QTimeZone("Europe/Berlin")) }) {
            QCOMPARE(range.to(now), now);
            QCOMPARE(range.from(now).secsTo(now), seconds);
        }
    }

    void lastSpansSlideWithNow()
    {
        const MetricsTimeRange range(Span::Last6Hours);
        const QDateTime now = QDateTime(QDate(2026, 5, 1), QTime(9, 30), Qt::UTC);
        const QDateTime later = now.addSecs(3600);
        QCOMPARE(range.from(now).secsTo(range.from(later)), 3600LL);
        QCOMPARE(range.to(now).secsTo(range.to(later)), 3600LL);
    }

    void customRangeIgnoresNow()
    {
        const QDateTime from = QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
        const QDateTime to = from.addSecs(90LL * 60);
        const MetricsTimeRange range(from, to);
        QCOMPARE(int(range.span()), int(Span::Custom));
        for (const QDateTime& now : { to, to.addDays(400), from.addDays(-3) }) {
            QCOMPARE(range.from(now), from);
            QCOMPARE(range.to(now), to);
        }
    }

    void rangesCompareByWhatTheyShow()
    {
        const QDateTime from = QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
        QVERIFY(MetricsTimeRange() == MetricsTimeRange(Span::LastHour)); // the default
        QVERIFY(!(MetricsTimeRange(Span::LastHour) == MetricsTimeRange(Span::Last6Hours)));
        QVERIFY(MetricsTimeRange(from, from.addSecs(60)) == MetricsTimeRange(from, from.addSecs(60)));
        QVERIFY(!(MetricsTimeRange(from, from.addSecs(60)) == MetricsTimeRange(from, from.addSecs(120))));
        QVERIFY(!(MetricsTimeRange(from, from.addSecs(60)) == MetricsTimeRange(from.addSecs(-60), from.addSecs(60))));
        // A custom hour is not "the last hour", even at the moment it happens to cover the same span.
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QVERIFY(!(MetricsTimeRange(now.addSecs(-3600), now) == MetricsTimeRange(Span::LastHour)));
    }
};

QTEST_GUILESS_MAIN(TestMetricsTimeRange)
#include "tst_metricstimerange.moc"
