// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/cell.h"
#include "export/exporttables.h"
#include "export/recordtable.h"
#include "support/csvtesting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>
#include <optional>

namespace {

QList<QByteArray> linesOf(const QByteArray& text)
{
    QList<QByteArray> lines = text.split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

const QDateTime Instant = QDateTime(QDate(2026, 6, 1), QTime(9, 30, 15, 250), QTimeZone("Asia/Seoul"));

// Values every format has to get right: a 64-bit integer beyond a double's precision, CSV's special
// characters, a non-ASCII text, the empty text (which is not missing), and every kind of missing value.
RecordTable awkwardTable()
{
    RecordTable table({ QStringLiteral("id"), QStringLiteral("text"), QStringLiteral("flag"),
        QStringLiteral("note, quoted"), QStringLiteral("when"), QStringLiteral("rate") });
    table.addRow({ Cell::integer(1), Cell::text(QStringLiteral("plain")), Cell::boolean(true), Cell::text(QString()),
        Cell::instant(Instant), Cell::rate(0.25) });
    table.addRow({ Cell::integer(-9'007'199'254'740'993LL), Cell::text(QStringLiteral("a,b \"q\"\r\nnext")),
        Cell::boolean(false), Cell::integer(std::nullopt), Cell::instant(QDateTime()), Cell::rate(2.0 / 3.0) });
    table.addRow({ Cell::integer(3), Cell::text(QStringLiteral("")), Cell::boolean(std::nullopt),
        Cell::text(QStringLiteral("Zürich ✓")), Cell::instant(Instant.addDays(1)), Cell::rate(std::nullopt) });
    return table;
}

} // namespace

// RecordTable and Cell: the one place where every tabular output (outboxctl's list and metrics, the console's
// exports and copies) turns values into CSV, JSON, JSON lines or an aligned text table.
class TestRecordTable final : public QObject {
    Q_OBJECT

private slots:
    void cellsShowValuesAlikeInJsonAndText_data()
    {
        QTest::addColumn<QJsonValue>("json");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QJsonValue>("expectedJson");
        QTest::addColumn<QString>("expectedText");
        const auto add = [](const char* name, const Cell& cell, const QJsonValue& json, const QString& text) {
            QTest::newRow(name) << cell.json() << cell.display() << json << text;
        };
        const QJsonValue null(QJsonValue::Null);
        add("text", Cell::text(QStringLiteral("Zürich")), QStringLiteral("Zürich"), QStringLiteral("Zürich"));
        add("empty text is a value", Cell::text(QStringLiteral("")), QStringLiteral(""), QString());
        add("null text is missing", Cell::text(QString()), null, QString());
        add("integer", Cell::integer(42), 42, QStringLiteral("42"));
        add("64-bit integer, exactly", Cell::integer(9'007'199'254'740'993LL), QJsonValue(9'007'199'254'740'993LL),
            QStringLiteral("9007199254740993"));
        add("negative integer", Cell::integer(-7), -7, QStringLiteral("-7"));
        add("missing integer", Cell::integer(std::nullopt), null, QString());
        add("true", Cell::boolean(true), true, QStringLiteral("true"));
        add("false", Cell::boolean(false), false, QStringLiteral("false"));
        add("missing boolean", Cell::boolean(std::nullopt), null, QString());
        add("instant in UTC with milliseconds", Cell::instant(Instant), QStringLiteral("2026-06-01T00:30:15.250Z"),
            QStringLiteral("2026-06-01T00:30:15.250Z"));
        add("invalid instant is missing", Cell::instant(QDateTime()), null, QString());
        // Qt writes ISO 8601 for the years 1 to 9999 only; these were an empty text (fuzz_recordtable).
        const QString after9999 = QStringLiteral("+12000-01-01T00:00:00.000Z");
        add("instant after the year 9999", Cell::instant(QDateTime(QDate(12000, 1, 1), QTime(0, 0), Qt::UTC)),
            after9999, after9999);
        const QString ides = QStringLiteral("-0043-03-15T12:00:00.000Z"); // 44 BC: ISO 8601's year 0 is 1 BC
        add("instant before the year 1", Cell::instant(QDateTime(QDate(-44, 3, 15), QTime(12, 0), Qt::UTC)), ides,
            ides);
        add("rate, four decimals", Cell::rate(2.0 / 3.0), 0.6667, QStringLiteral("0.6667"));
        add("rate rounded down", Cell::rate(0.12344), 0.1234, QStringLiteral("0.1234"));
        add("whole rate", Cell::rate(1.0), 1.0, QStringLiteral("1.0000"));
        add("tiny rate", Cell::rate(0.00004), 0.0, QStringLiteral("0.0000"));
        // Rounding the double apart from the text gave 0.0188 against "0.0187" (fuzz_recordtable).
        add("rate the text rounds down", Cell::rate(3.0 / 160.0), 0.0187, QStringLiteral("0.0187"));
        add("missing rate", Cell::rate(std::nullopt), null, QString());
    }

    void cellsShowValuesAlikeInJsonAndText()
    {
        QFETCH(QJsonValue, json);
        QFETCH(QString, text);
        QFETCH(QJsonValue, expectedJson);
        QFETCH(QString, expectedText);
        QCOMPARE(json, expectedJson);
        QCOMPARE(text, expectedText);
        if (json.isDouble() && !text.isEmpty())
            QCOMPARE(json.toDouble(), text.toDouble()); // both formats carry the same number
    }

    void missingIsNullNotEmpty()
    {
        QVERIFY(Cell::text(QString()).isNull());
        QVERIFY(!Cell::text(QStringLiteral("")).isNull());
        QVERIFY(Cell::integer(std::nullopt).isNull());
        QVERIFY(!Cell::integer(0).isNull());
        QVERIFY(!Cell::boolean(false).isNull());
        QVERIFY(Cell::instant(QDateTime()).isNull());
        QVERIFY(!Cell::rate(0.0).isNull());
    }

    // Moved from tst_exports: the outbox export's CSV through the same table.
    void csvQuotesWhatItMust_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("field");
        QTest::newRow("plain") << QStringLiteral("broker down") << QByteArray("broker down");
        QTest::newRow("comma") << QStringLiteral("a,b") << QByteArray("\"a,b\"");
        QTest::newRow("quote") << QStringLiteral("say \"hi\"") << QByteArray("\"say \"\"hi\"\"\"");
        QTest::newRow("newline") << QStringLiteral("line 1\nline 2") << QByteArray("\"line 1\nline 2\"");
        QTest::newRow("carriage return") << QStringLiteral("a\rb") << QByteArray("\"a\rb\"");
        QTest::newRow("non-ASCII") << QStringLiteral("Zürich ✓") << QStringLiteral("Zürich ✓").toUtf8();
        QTest::newRow("missing") << QString() << QByteArray();
    }

    void csvQuotesWhatItMust()
    {
        QFETCH(QString, value);
        QFETCH(QByteArray, field);
        OutboxRowSummary row;
        row.id = 7;
        row.eventType = QStringLiteral("order.created");
        row.status = OutboxStatus::Failed;
        row.lastErrorLine = value;
        const QByteArray csv = ExportTables::outbox({ row }).csvRecords(true);
        QVERIFY(csv.startsWith("id,event_type,aggregate_type,aggregate_id,status,attempts,next_attempt_at,"
                               "lease_owner,lease_expires_at,created_at,published_at,last_error\r\n"));
        QVERIFY(csv.endsWith("\r\n"));
        const QByteArray record = csv.mid(csv.indexOf("\r\n") + 2);
        QCOMPARE(record, QByteArray("7,order.created,,,failed,0,,,,,,") + field + "\r\n");
    }

    // Whatever the values, a strict RFC 4180 reader gets back exactly the header and every cell's text.
    void csvReadsBackAsWritten()
    {
        const RecordTable table = awkwardTable();
        const QByteArray csv = table.csvRecords(true);
        const std::optional<QList<QStringList>> records = CsvTesting::parse(csv);
        QVERIFY2(records, csv.constData());
        QCOMPARE(records->size(), 4);
        QCOMPARE(records->at(0),
            (QStringList { QStringLiteral("id"), QStringLiteral("text"), QStringLiteral("flag"),
                QStringLiteral("note, quoted"), QStringLiteral("when"), QStringLiteral("rate") }));
        QCOMPARE(records->at(1),
            (QStringList { QStringLiteral("1"), QStringLiteral("plain"), QStringLiteral("true"), QString(),
                QStringLiteral("2026-06-01T00:30:15.250Z"), QStringLiteral("0.2500") }));
        QCOMPARE(records->at(2),
            (QStringList { QStringLiteral("-9007199254740993"), QStringLiteral("a,b \"q\"\r\nnext"),
                QStringLiteral("false"), QString(), QString(), QStringLiteral("0.6667") }));
        QCOMPARE(records->at(3),
            (QStringList { QStringLiteral("3"), QString(), QString(), QStringLiteral("Zürich ✓"),
                QStringLiteral("2026-06-02T00:30:15.250Z"), QString() }));
        // Only fields that need it are quoted.
        QVERIFY(csv.startsWith("id,text,flag,\"note, quoted\",when,rate\r\n1,plain,true,,"));
    }

    void csvPagesAfterTheFirstHaveNoHeader()
    {
        const RecordTable table = awkwardTable();
        const QByteArray withHeader = table.csvRecords(true);
        const QByteArray records = table.csvRecords(false);
        QVERIFY(withHeader.endsWith(records));
        QCOMPARE(withHeader.left(withHeader.size() - records.size()),
            QByteArray("id,text,flag,\"note, quoted\",when,rate\r\n"));
        QCOMPARE(table.render(RecordTable::Format::Csv, QStringLiteral("rows")), withHeader);
        // An empty page is nothing at all, an empty export its header.
        const RecordTable empty({ QStringLiteral("a"), QStringLiteral("b") });
        QVERIFY(empty.csvRecords(false).isEmpty());
        QCOMPARE(empty.csvRecords(true), QByteArray("a,b\r\n"));
    }

    void jsonLinesAreOneCompactObjectPerRow()
    {
        const RecordTable table = awkwardTable();
        const QByteArray text = table.jsonLines();
        QVERIFY(text.endsWith('\n'));
        const QList<QByteArray> lines = linesOf(text);
        QCOMPARE(lines.size(), 3); // no header
        QList<QJsonObject> rows;
        for (const QByteArray& line : lines) {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(line, &error);
            QVERIFY2(error.error == QJsonParseError::NoError && document.isObject(), line.constData());
            QCOMPARE(document.toJson(QJsonDocument::Compact), line); // compact: no blanks, no line breaks
            rows.append(document.object());
        }
        QCOMPARE(rows.at(0),
            (QJsonObject { { QStringLiteral("id"), 1 }, { QStringLiteral("text"), QStringLiteral("plain") },
                { QStringLiteral("flag"), true }, { QStringLiteral("note, quoted"), QJsonValue::Null },
                { QStringLiteral("when"), QStringLiteral("2026-06-01T00:30:15.250Z") },
                { QStringLiteral("rate"), 0.25 } }));
        // Missing values are present as null, not left out; the 64-bit id survives digit for digit.
        QVERIFY2(lines.at(1).contains("\"id\":-9007199254740993"), lines.at(1).constData());
        QCOMPARE(rows.at(1).value(QStringLiteral("text")).toString(), QStringLiteral("a,b \"q\"\r\nnext"));
        QCOMPARE(rows.at(1).value(QStringLiteral("flag")), QJsonValue(false));
        for (const char* key : { "note, quoted", "when" }) {
            QVERIFY(rows.at(1).contains(QLatin1String(key)));
            QVERIFY(rows.at(1).value(QLatin1String(key)).isNull());
        }
        QCOMPARE(rows.at(2).value(QStringLiteral("text")), QJsonValue(QStringLiteral("")));
        QVERIFY(rows.at(2).value(QStringLiteral("flag")).isNull());
        QVERIFY(rows.at(2).value(QStringLiteral("rate")).isNull());
        QCOMPARE(table.render(RecordTable::Format::JsonLines, QStringLiteral("rows")), text);
    }

    void jsonIsOneDocumentWithTheRowsNextToTheExtras()
    {
        const RecordTable table = awkwardTable();
        const QJsonObject extra { { QStringLiteral("count"), 3 }, { QStringLiteral("capped"), false } };
        const QByteArray text = table.render(RecordTable::Format::Json, QStringLiteral("messages"), extra);
        QVERIFY(text.endsWith('\n'));
        QCOMPARE(text.count('\n'), 1);
        const QJsonObject document = QJsonDocument::fromJson(text).object();
        QCOMPARE(document.size(), 3);
        QCOMPARE(document.value(QStringLiteral("count")).toInt(), 3);
        QCOMPARE(document.value(QStringLiteral("capped")), QJsonValue(false));
        const QJsonArray rows = document.value(QStringLiteral("messages")).toArray();
        QCOMPARE(rows, table.jsonArray());
        QCOMPARE(rows.size(), 3);
        // The same rows as the JSON lines, in the same order.
        const QList<QByteArray> lines = linesOf(table.jsonLines());
        for (qsizetype i = 0; i < rows.size(); ++i)
            QCOMPARE(rows.at(i).toObject(), QJsonDocument::fromJson(lines.at(i)).object());
    }

    // Aligned columns two blanks apart, missing values as "-", and whatever would break a line escaped, so
    // that one row is one line.
    void tableTextIsAlignedAndOneLinePerRow()
    {
        RecordTable table({ QStringLiteral("id"), QStringLiteral("event"), QStringLiteral("note") });
        table.addRow({ Cell::integer(7), Cell::text(QStringLiteral("order.created")), Cell::text(QString()) });
        table.addRow({ Cell::integer(1234), Cell::text(QStringLiteral("x")),
            Cell::text(QStringLiteral("line1\nline2\tend\\")) });
        table.addRow({ Cell::integer(5), Cell::text(QStringLiteral("cr")), Cell::text(QStringLiteral("a\rb")) });
        QCOMPARE(table.render(RecordTable::Format::Table, QStringLiteral("rows")),
            QByteArray("id    event          note\n"
                       "7     order.created  -\n"
                       "1234  x              line1\\nline2\\tend\\\\\n"
                       "5     cr             a\\rb\n"));
    }

    // Columns line up by characters, not bytes, so non-ASCII text does not push its row out of line.
    void tableTextAlignsNonAsciiByCharacter()
    {
        RecordTable table({ QStringLiteral("city"), QStringLiteral("n") });
        table.addRow({ Cell::text(QStringLiteral("Zürich")), Cell::integer(1) });
        table.addRow({ Cell::text(QStringLiteral("Bern")), Cell::integer(22) });
        QCOMPARE(QString::fromUtf8(table.render(RecordTable::Format::Table, QStringLiteral("rows"))),
            QStringLiteral("city    n\n"
                           "Zürich  1\n"
                           "Bern    22\n"));
    }

    void emptyTableTextIsTheHeader()
    {
        const RecordTable table({ QStringLiteral("id"), QStringLiteral("status") });
        QCOMPARE(table.render(RecordTable::Format::Table, QStringLiteral("rows")), QByteArray("id  status\n"));
    }

    void formatsAreNamedAsOnTheCommandLine_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("format");
        QTest::newRow("table") << QStringLiteral("table") << int(RecordTable::Format::Table);
        QTest::newRow("json") << QStringLiteral("json") << int(RecordTable::Format::Json);
        QTest::newRow("csv") << QStringLiteral("csv") << int(RecordTable::Format::Csv);
    }

    void formatsAreNamedAsOnTheCommandLine()
    {
        QFETCH(QString, name);
        QFETCH(int, format);
        QCOMPARE(int(RecordTable::formatNamed(name)), format);
    }
};

QTEST_GUILESS_MAIN(TestRecordTable)
#include "tst_recordtable.moc"
