// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/backoffpolicy.h"

#include <QRandomGenerator>
#include <QTest>

// The relay's retry delays: attempt n waits between half and all of min(max, base * 2^(n-1)) ("equal jitter").
class TestBackoffPolicy final : public QObject {
    Q_OBJECT

    static constexpr int Draws = 2000;

private slots:
    void delayStaysWithinHalfAndAllOfTheCeiling_data()
    {
        QTest::addColumn<qint64>("baseMs");
        QTest::addColumn<qint64>("maxMs");
        QTest::addColumn<int>("attempt");
        QTest::addColumn<qint64>("ceilingMs"); // min(max, base * 2^(attempt - 1))
        QTest::newRow("first attempt: the base") << 100LL << 60'000LL << 1 << 100LL;
        QTest::newRow("second attempt doubles") << 100LL << 60'000LL << 2 << 200LL;
        QTest::newRow("third attempt doubles again") << 100LL << 60'000LL << 3 << 400LL;
        QTest::newRow("tenth attempt") << 100LL << 60'000LL << 10 << 100LL * 512;
        QTest::newRow("eleventh attempt reaches the maximum") << 100LL << 60'000LL << 11 << 60'000LL;
        QTest::newRow("doubling exactly onto the maximum") << 250LL << 1000LL << 3 << 1000LL;
        QTest::newRow("far beyond the maximum") << 100LL << 60'000LL << 30 << 60'000LL;
        // 2^999 would overflow any integer: the ceiling must still be the maximum, not a wrapped value.
        QTest::newRow("attempt 1000") << 100LL << 3'600'000LL << 1000 << 3'600'000LL;
        QTest::newRow("maximum equal to the base") << 500LL << 500LL << 6 << 500LL;
        QTest::newRow("one-hour base") << 3'600'000LL << 86'400'000LL << 4 << 8LL * 3'600'000;
    }

    void delayStaysWithinHalfAndAllOfTheCeiling()
    {
        QFETCH(qint64, baseMs);
        QFETCH(qint64, maxMs);
        QFETCH(int, attempt);
        QFETCH(qint64, ceilingMs);
        const BackoffPolicy policy(baseMs, maxMs);
        QRandomGenerator random(20'260'401);
        qint64 lowest = std::numeric_limits<qint64>::max();
        qint64 highest = std::numeric_limits<qint64>::min();
        for (int i = 0; i < Draws; ++i) {
            const qint64 delay = policy.delayMs(attempt, random);
            QVERIFY2(delay >= ceilingMs / 2 && delay <= ceilingMs,
                qPrintable(QStringLiteral("draw %1: %2 ms outside [%3, %4]")
                               .arg(i)
                               .arg(delay)
                               .arg(ceilingMs / 2)
                               .arg(ceilingMs)));
            lowest = qMin(lowest, delay);
            highest = qMax(highest, delay);
        }
        // Jitter: the delays spread over the whole range instead of all landing on one value.
        const qint64 tenth = (ceilingMs - ceilingMs / 2) / 10;
        QVERIFY2(lowest <= ceilingMs / 2 + tenth, qPrintable(QString::number(lowest)));
        QVERIFY2(highest >= ceilingMs - tenth, qPrintable(QString::number(highest)));
    }

    void zeroBaseMeansNoDelay_data()
    {
        QTest::addColumn<int>("attempt");
        QTest::newRow("first") << 1;
        QTest::newRow("fifth") << 5;
        QTest::newRow("hundredth") << 100;
    }

    void zeroBaseMeansNoDelay()
    {
        QFETCH(int, attempt);
        const BackoffPolicy policy(0, 60'000);
        QRandomGenerator random(7);
        for (int i = 0; i < 100; ++i)
            QCOMPARE(policy.delayMs(attempt, random), 0LL);
    }

    // The delay depends on the policy, the attempt and the generator alone: the same seed repeats it.
    void theSameSeedGivesTheSameDelays()
    {
        const BackoffPolicy policy(100, 60'000);
        QRandomGenerator first(99);
        QRandomGenerator second(99);
        for (int attempt = 1; attempt <= 12; ++attempt)
            QCOMPARE(policy.delayMs(attempt, first), policy.delayMs(attempt, second));
    }
};

QTEST_GUILESS_MAIN(TestBackoffPolicy)
#include "tst_backoffpolicy.moc"
