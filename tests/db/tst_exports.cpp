// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/exporttables.h"
#include "metrics/metricsrecorder.h"
#include "support/databasetestcase.h"

#include <QBuffer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// The export formats every output shares (outboxctl's list and metrics, the console's exports).
class TestExports final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestExports()
        : DatabaseTestCase(QStringLiteral("exports"))
    { }

private:
    static QList<QByteArray> csvLines(const QByteArray& csv)
    {
        QList<QByteArray> lines = csv.split('\n');
        if (!lines.isEmpty() && lines.last().isEmpty())
            lines.removeLast();
        return lines;
    }

private slots:
    void emptyMetricsWindowIsTheHeaderOnly()
    {
        const QDateTime at = QDateTime(QDate(2026, 5, 1), QTime(12, 0), Qt::UTC);
        const QByteArray csv = ExportTables::metricsCsv(session(), at, at, 60, QTimeZone("UTC"));
        QCOMPARE(csvLines(csv).size(), 1);
        QVERIFY(csv.startsWith("bucket_start,requests,executions,replays,"));
        QVERIFY(csv.endsWith(
            "oldest_pending_age_ms,consumed,consumer_duplicates,backlog_last,oldest_pending_age_ms_last\r\n"));
    }

    void metricsRowsCarryTheirOffset_data()
    {
        QTest::addColumn<QString>("zone");
        QTest::addColumn<QDateTime>("from");
        QTest::addColumn<int>("hours");
        QTest::addColumn<QStringList>("firstStamps");
        // The same instant, 2026-06-01 00:00 UTC, in UTC and in Asia/Seoul (+09:00, no DST).
        const QDateTime june = QDateTime(QDate(2026, 6, 1), QTime(0, 0), Qt::UTC);
        QTest::newRow("UTC") << QStringLiteral("UTC") << june << 2
                             << QStringList { QStringLiteral("2026-06-01T00:00:00+00:00"),
                                    QStringLiteral("2026-06-01T01:00:00+00:00") };
        QTest::newRow("Asia/Seoul") << QStringLiteral("Asia/Seoul") << june << 2
                                    << QStringList { QStringLiteral("2026-06-01T09:00:00+09:00"),
                                           QStringLiteral("2026-06-01T10:00:00+09:00") };
        // Europe/Berlin springs forward at 01:00 UTC on 2026-03-29: 01:00+01:00, then 03:00+02:00.
        QTest::newRow("Europe/Berlin across DST")
            << QStringLiteral("Europe/Berlin") << QDateTime(QDate(2026, 3, 29), QTime(0, 0), Qt::UTC) << 3
            << QStringList { QStringLiteral("2026-03-29T01:00:00+01:00"), QStringLiteral("2026-03-29T03:00:00+02:00"),
                   QStringLiteral("2026-03-29T04:00:00+02:00") };
    }

    void metricsRowsCarryTheirOffset()
    {
        QFETCH(QString, zone);
        QFETCH(QDateTime, from);
        QFETCH(int, hours);
        QFETCH(QStringList, firstStamps);
        const QByteArray csv
            = ExportTables::metricsCsv(session(), from, from.addSecs(hours * 3600LL), 3600, QTimeZone(zone.toUtf8()));
        const QList<QByteArray> lines = csvLines(csv);
        QCOMPARE(lines.size(), hours + 1);
        for (int i = 0; i < hours; ++i)
            QVERIFY2(lines.at(i + 1).startsWith(firstStamps.at(i).toUtf8() + ",0,0,0,"), lines.at(i + 1).constData());
    }

    void metricsCsvCountsWhatWasRecorded()
    {
        MetricsRecorder recorder(5);
        recorder.record([](MetricCounters& c) {
            c.requests += 10;
            c.replays += 3;
            c.addPublishLatency(40);
        });
        recorder.flush(session());
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const QList<QByteArray> lines = csvLines(
            ExportTables::metricsCsv(session(), now.addSecs(-3600), now.addSecs(60), 3600, QTimeZone("UTC")));
        QByteArray withData;
        for (const QByteArray& line : lines.mid(1)) {
            if (!line.contains(",0,0,0,0,0,,0,"))
                withData += line;
        }
        // Quantiles are bucket upper bounds clamped to the observed maximum: one 40 ms publish reads 40 everywhere.
        QVERIFY2(withData.contains(",10,0,3,0,0,0.3000,1,40,40,40,40,"), withData.constData());
    }

    void listExportStreamsEveryMatchingRow_data()
    {
        QTest::addColumn<int>("format");
        QTest::newRow("csv") << int(RecordTable::Format::Csv);
        QTest::newRow("json lines") << int(RecordTable::Format::JsonLines);
    }

    void listExportStreamsEveryMatchingRow()
    {
        QFETCH(int, format);
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                 "  status, last_error) "
                                 "SELECT 'order', g::text, 'order.created', '{}', 'k' || g, "
                                 "  CASE WHEN g % 3 = 0 THEN 'dead' ELSE 'published' END, "
                                 "  CASE WHEN g % 3 = 0 THEN 'boom, \"quoted\"' || chr(10) || 'second line' END "
                                 "FROM generate_series(1, 2500) g"));
        OutboxFilter dead;
        dead.statuses = { OutboxStatus::Dead };
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QList<qint64> progress;
        const qint64 written = ExportTables::streamOutbox(
            session(), dead, RecordTable::Format(format), buffer,
            [&](qint64 rows) {
                progress.append(rows);
                return true;
            },
            300);
        QCOMPARE(written, 833LL);
        QCOMPARE(progress, (QList<qint64> { 300, 600 }));
        const QByteArray out = buffer.data();
        if (RecordTable::Format(format) == RecordTable::Format::JsonLines) {
            const QList<QByteArray> lines = csvLines(out);
            QCOMPARE(lines.size(), 833);
            qint64 previous = std::numeric_limits<qint64>::max();
            for (const QByteArray& line : lines) {
                const QJsonObject row = QJsonDocument::fromJson(line).object();
                QCOMPARE(row.value(QStringLiteral("status")).toString(), QStringLiteral("dead"));
                QVERIFY(row.value(QStringLiteral("id")).toInteger() < previous);
                previous = row.value(QStringLiteral("id")).toInteger();
            }
        } else {
            // One header, 833 records; the quoted error's line break stays inside its field.
            QCOMPARE(out.count("\r\n"), 834);
            QCOMPARE(out.count("id,event_type"), 1);
            QCOMPARE(out.count("\"boom, \"\"quoted\"\"\""), 833);
        }
    }

    void stoppingAnExportStopsBetweenPages()
    {
        db().exec(QStringLiteral("INSERT INTO idempotency_keys (scope, idem_key, fingerprint, status, response_status, "
                                 "  expires_at) "
                                 "SELECT 's', 'k' || g, repeat('a', 64), 'completed', 201, now() + interval '1 day' "
                                 "FROM generate_series(1, 1000) g"));
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        const qint64 written = ExportTables::streamKeys(
            session(), KeyFilter {}, RecordTable::Format::Csv, buffer, [](qint64) { return false; }, 250);
        QCOMPARE(written, 250LL);
        QCOMPARE(buffer.data().count("\r\n"), 251);
    }
};

QTEST_GUILESS_MAIN(TestExports)
#include "tst_exports.moc"
