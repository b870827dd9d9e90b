// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/prometheusformat.h"

#include <QTest>
#include <cmath>
#include <limits>

// The orders service's /metrics scrape in the Prometheus text exposition format 0.0.4.
class TestPrometheusFormat final : public QObject {
    Q_OBJECT

    // The value of the one sample line of a gauge family, as a scraper reads it.
    static QByteArray gaugeSample(const QByteArray& text, const QByteArray& name)
    {
        for (const QByteArray& line : text.split('\n')) {
            if (line.startsWith(name + ' '))
                return line.mid(name.size() + 1);
        }
        return {};
    }

private slots:
    void contentTypeNamesTheVersion()
    {
        QVERIFY2(PrometheusFormat::ContentType.startsWith("text/plain; version=0.0.4"),
            PrometheusFormat::ContentType.constData());
    }

    void nothingAddedIsAnEmptyScrape() { QVERIFY(PrometheusFormat().text().isEmpty()); }

    void counterFamilyHasOneHeaderAndASamplePerLabelInOrder()
    {
        PrometheusFormat format;
        format.addCounter(QStringLiteral("outbox_requests_total"), QStringLiteral("Requests by outcome."),
            QStringLiteral("outcome"),
            { { QStringLiteral("created"), 12 }, { QStringLiteral("replayed"), 3 },
                { QStringLiteral("mismatch"), 0 } });
        QCOMPARE(format.text(),
            QByteArray("# HELP outbox_requests_total Requests by outcome.\n"
                       "# TYPE outbox_requests_total counter\n"
                       "outbox_requests_total{outcome=\"created\"} 12\n"
                       "outbox_requests_total{outcome=\"replayed\"} 3\n"
                       "outbox_requests_total{outcome=\"mismatch\"} 0\n"));
    }

    void counterWithoutSamplesStillDeclaresItsFamily()
    {
        PrometheusFormat format;
        format.addCounter(
            QStringLiteral("outbox_empty_total"), QStringLiteral("Nothing yet."), QStringLiteral("outcome"), {});
        QCOMPARE(
            format.text(), QByteArray("# HELP outbox_empty_total Nothing yet.\n# TYPE outbox_empty_total counter\n"));
    }

    // Counters are 64-bit: a value beyond a double's 53 bits must be written digit for digit.
    void countersKeepEveryDigit()
    {
        PrometheusFormat format;
        format.addCounter(QStringLiteral("c_total"), QStringLiteral("h"), QStringLiteral("l"),
            { { QStringLiteral("max"), std::numeric_limits<qint64>::max() },
                { QStringLiteral("odd"), 9'007'199'254'740'993LL } });
        QVERIFY2(format.text().contains("c_total{l=\"max\"} 9223372036854775807\n"), format.text().constData());
        QVERIFY2(format.text().contains("c_total{l=\"odd\"} 9007199254740993\n"), format.text().constData());
    }

    void gaugeIsOneUnlabelledSample()
    {
        PrometheusFormat format;
        format.addGauge(QStringLiteral("outbox_backlog"), QStringLiteral("Unpublished rows."), 42);
        QCOMPARE(format.text(),
            QByteArray("# HELP outbox_backlog Unpublished rows.\n"
                       "# TYPE outbox_backlog gauge\n"
                       "outbox_backlog 42\n"));
    }

    void gaugeValuesReadBackExactly_data()
    {
        QTest::addColumn<double>("value");
        QTest::newRow("zero") << 0.0;
        QTest::newRow("integer") << 1234.0;
        QTest::newRow("one tenth") << 0.1;
        QTest::newRow("a third") << 1.0 / 3.0;
        QTest::newRow("negative") << -2.5;
        QTest::newRow("large") << 1e21;
        QTest::newRow("tiny") << 5e-324;
        QTest::newRow("largest double") << std::numeric_limits<double>::max();
    }

    // The text is parsed back into a float64 by the scraper; it must be the same number, not a rounded one.
    void gaugeValuesReadBackExactly()
    {
        QFETCH(double, value);
        PrometheusFormat format;
        format.addGauge(QStringLiteral("g"), QStringLiteral("h"), value);
        const QByteArray sample = gaugeSample(format.text(), "g");
        bool ok = false;
        QCOMPARE(sample.toDouble(&ok), value);
        QVERIFY2(ok, sample.constData());
    }

    void specialValuesAreSpelledAsTheFormatSays_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("not a number") << std::numeric_limits<double>::quiet_NaN() << QByteArray("NaN");
        QTest::newRow("positive infinity") << std::numeric_limits<double>::infinity() << QByteArray("+Inf");
        QTest::newRow("negative infinity") << -std::numeric_limits<double>::infinity() << QByteArray("-Inf");
    }

    void specialValuesAreSpelledAsTheFormatSays()
    {
        QFETCH(double, value);
        QFETCH(QByteArray, text);
        PrometheusFormat format;
        format.addGauge(QStringLiteral("g"), QStringLiteral("h"), value);
        QCOMPARE(gaugeSample(format.text(), "g"), text);
    }

    // HELP text escapes backslash and line feed; label values escape the double quote as well.
    void reservedCharactersAreEscaped()
    {
        PrometheusFormat format;
        const QString awkward = QStringLiteral("a \"quoted\" C:\\path\nsecond line");
        format.addCounter(QStringLiteral("c_total"), awkward, QStringLiteral("reason"), { { awkward, 1 } });
        const QList<QByteArray> lines = format.text().split('\n');
        QCOMPARE(lines.size(), 4); // HELP, TYPE, one sample, and the empty rest after the final line feed
        QCOMPARE(lines.at(0), QByteArray("# HELP c_total a \"quoted\" C:\\\\path\\nsecond line"));
        QCOMPARE(lines.at(1), QByteArray("# TYPE c_total counter"));
        QCOMPARE(lines.at(2), QByteArray("c_total{reason=\"a \\\"quoted\\\" C:\\\\path\\nsecond line\"} 1"));
        QVERIFY(lines.at(3).isEmpty());
    }

    void textIsUtf8()
    {
        PrometheusFormat format;
        format.addCounter(QStringLiteral("c_total"), QStringLiteral("Zürich ✓"), QStringLiteral("city"),
            { { QStringLiteral("Köln"), 2 } });
        QVERIFY(format.text().contains(QStringLiteral("# HELP c_total Zürich ✓\n").toUtf8()));
        QVERIFY(format.text().contains(QStringLiteral("c_total{city=\"Köln\"} 2\n").toUtf8()));
    }

    // Families follow each other in the order added, each declared once.
    void familiesAppearInTheOrderAdded()
    {
        PrometheusFormat format;
        format.addGauge(QStringLiteral("first"), QStringLiteral("1st"), 1);
        format.addCounter(QStringLiteral("second_total"), QStringLiteral("2nd"), QStringLiteral("k"),
            { { QStringLiteral("a"), 1 }, { QStringLiteral("b"), 2 } });
        format.addGauge(QStringLiteral("third"), QStringLiteral("3rd"), 3);
        const QByteArray text = format.text();
        QVERIFY(text.endsWith('\n'));
        QCOMPARE(text.count("# HELP "), 3);
        QCOMPARE(text.count("# TYPE "), 3);
        const qsizetype first = text.indexOf("# TYPE first gauge\n");
        const qsizetype second = text.indexOf("# TYPE second_total counter\n");
        const qsizetype third = text.indexOf("# TYPE third gauge\n");
        QVERIFY(first >= 0 && second > first && third > second);
        QVERIFY(text.indexOf("second_total{k=\"b\"} 2\n") < third);
    }

    void unlabelledCounterIsOneSample()
    {
        PrometheusFormat format;
        format.addCounter(QStringLiteral("outbox_relay_published_total"), QStringLiteral("Published."), 7);
        QCOMPARE(format.text(),
            QByteArray("# HELP outbox_relay_published_total Published.\n"
                       "# TYPE outbox_relay_published_total counter\n"
                       "outbox_relay_published_total 7\n"));
    }

    // Buckets are cumulative, bounds in seconds and increasing, the last one +Inf equal to the count; sum in seconds.
    void histogramIsCumulativeInSeconds()
    {
        LatencyTally tally;
        for (const qint64 ms : { 0, 1, 3, 3, 900, 10'000'000 })
            tally.add(ms);
        PrometheusFormat format;
        format.addHistogram(QStringLiteral("h_seconds"), QStringLiteral("Durations."), tally);
        const QList<QByteArray> lines = format.text().split('\n');
        QCOMPARE(lines.at(1), QByteArray("# TYPE h_seconds histogram"));
        const QByteArray prefix = "h_seconds_bucket{le=\"";
        QList<QPair<double, qint64>> buckets;
        for (const QByteArray& line : lines) {
            if (!line.startsWith(prefix))
                continue;
            const QByteArray bound = line.mid(prefix.size(), line.indexOf('"', prefix.size()) - prefix.size());
            buckets.append(
                { bound == "+Inf" ? qInf() : bound.toDouble(), line.mid(line.lastIndexOf(' ') + 1).toLongLong() });
        }
        QCOMPARE(buckets.size(), LatencyHistogram::Buckets);
        for (qsizetype i = 1; i < buckets.size(); ++i) {
            QVERIFY(buckets.at(i).first > buckets.at(i - 1).first);
            QVERIFY(buckets.at(i).second >= buckets.at(i - 1).second);
        }
        QCOMPARE(buckets.first(), qMakePair(0.001, qint64(1))); // 0 ms
        QCOMPARE(buckets.at(1), qMakePair(0.002, qint64(2))); // + 1 ms
        QCOMPARE(buckets.at(2), qMakePair(0.004, qint64(4))); // + 3 ms twice
        QCOMPARE(buckets.at(10).second, qint64(5)); // 900 ms is under 1.024 s
        QCOMPARE(buckets.at(LatencyHistogram::Buckets - 2).second, qint64(5)); // 10,000 s is beyond every bound
        QCOMPARE(buckets.last(), qMakePair(qInf(), qint64(6)));
        QVERIFY2(format.text().contains("h_seconds_sum 10000.907\n"), format.text().constData());
        QVERIFY(format.text().endsWith("h_seconds_count 6\n"));
    }

    void infoIsAGaugeOfOneWithEscapedLabels()
    {
        PrometheusFormat format;
        format.addInfo(QStringLiteral("outbox_relay_info"), QStringLiteral("Who."),
            { { QStringLiteral("version"), QStringLiteral("1.2") },
                { QStringLiteral("name"), QStringLiteral("a\"b") } });
        QVERIFY2(format.text().endsWith(
                     "# TYPE outbox_relay_info gauge\noutbox_relay_info{version=\"1.2\",name=\"a\\\"b\"} 1\n"),
            format.text().constData());
    }
};

QTEST_GUILESS_MAIN(TestPrometheusFormat)
#include "tst_prometheusformat.moc"
