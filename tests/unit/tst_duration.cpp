// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/duration.h"

#include <QTest>

// Durations as operators type them on the command line (--older-than, --lease, ...): a whole number and a unit.
class TestDuration final : public QObject {
    Q_OBJECT

    static constexpr qint64 Second = 1000;
    static constexpr qint64 Minute = 60 * Second;
    static constexpr qint64 Hour = 60 * Minute;
    static constexpr qint64 Day = 24 * Hour;

private slots:
    void everyUnitConverts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("milliseconds") << QStringLiteral("1500ms") << 1500LL;
        QTest::newRow("seconds") << QStringLiteral("30s") << 30 * Second;
        QTest::newRow("minutes") << QStringLiteral("5m") << 5 * Minute;
        QTest::newRow("hours") << QStringLiteral("2h") << 2 * Hour;
        QTest::newRow("days") << QStringLiteral("7d") << 7 * Day;
        QTest::newRow("zero") << QStringLiteral("0s") << 0LL;
        QTest::newRow("leading zeros") << QStringLiteral("007m") << 7 * Minute;
        QTest::newRow("surrounding blanks") << QStringLiteral("  90s\t") << 90 * Second;
        // The largest number of days accepted still fits: no overflow into a negative duration.
        QTest::newRow("nine digits of days") << QStringLiteral("999999999d") << 999'999'999 * Day;
        QTest::newRow("nine digits of milliseconds") << QStringLiteral("999999999ms") << 999'999'999LL;
    }

    void everyUnitConverts()
    {
        QFETCH(QString, text);
        QFETCH(qint64, ms);
        const std::optional<qint64> parsed = Duration::parseMs(text);
        QVERIFY2(parsed, qPrintable(text));
        QCOMPARE(*parsed, ms);
    }

    void whatIsNotADurationIsRefused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("blank") << QStringLiteral("   ");
        QTest::newRow("number without unit") << QStringLiteral("30");
        QTest::newRow("unit without number") << QStringLiteral("ms");
        QTest::newRow("unknown unit") << QStringLiteral("2w");
        QTest::newRow("unit in capitals") << QStringLiteral("5M");
        QTest::newRow("spelled-out unit") << QStringLiteral("5min");
        QTest::newRow("blank between number and unit") << QStringLiteral("5 m");
        QTest::newRow("negative") << QStringLiteral("-5s");
        QTest::newRow("plus sign") << QStringLiteral("+5s");
        QTest::newRow("fraction") << QStringLiteral("1.5h");
        QTest::newRow("two parts") << QStringLiteral("1h30m");
        QTest::newRow("unit first") << QStringLiteral("s30");
        QTest::newRow("ten digits") << QStringLiteral("1234567890s");
    }

    void whatIsNotADurationIsRefused()
    {
        QFETCH(QString, text);
        const std::optional<qint64> parsed = Duration::parseMs(text);
        QVERIFY2(!parsed, qPrintable(QStringLiteral("'%1' read as %2 ms").arg(text).arg(parsed.value_or(-1))));
    }
};

QTEST_GUILESS_MAIN(TestDuration)
#include "tst_duration.moc"
