// SPDX-License-Identifier: GPL-3.0-or-later
// RecordTable and Cell, which write every export: arbitrary tables, and for each the properties the exports
// promise. CSV reads back (strict RFC 4180) as the header and every cell's text; JSON lines and the JSON document
// read back as the cells' JSON values; the text table has one line per row; and each cell's text and JSON agree.
#include "export/recordtable.h"
#include "fuzzcheck.h"
#include "support/csvtesting.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

namespace {

// The range of PostgreSQL's timestamptz (4713 BC to 294276 AD), where the instants come from.
constexpr qint64 EarliestMs = -210'866'803'200'000LL;
constexpr qint64 LatestMs = 9'224'318'016'000'000LL;

Cell consumeCell(FuzzedDataProvider& data)
{
    const bool missing = data.ConsumeIntegralInRange(0, 7) == 0;
    switch (data.ConsumeIntegralInRange(0, 4)) {
    case 0:
        return Cell::text(missing ? QString() : consumeText(data, 40));
    case 1:
        return Cell::integer(missing ? std::nullopt : std::optional(data.ConsumeIntegral<qint64>()));
    case 2:
        return Cell::boolean(missing ? std::nullopt : std::optional(data.ConsumeBool()));
    case 3:
        return Cell::instant(missing
                ? QDateTime()
                : QDateTime::fromMSecsSinceEpoch(data.ConsumeIntegralInRange(EarliestMs, LatestMs), Qt::UTC));
    default: {
        // Rates are ratios of counters (MetricPoint::retryRate, duplicateHitRate).
        const auto part = data.ConsumeIntegralInRange<qint64>(0, 1LL << 40);
        const auto whole = data.ConsumeIntegralInRange<qint64>(1, 1LL << 40);
        return Cell::rate(missing ? std::nullopt : std::optional(double(part) / double(whole)));
    }
    }
}

// A cell's text is its JSON value written out: the same number, the same instant, the same string.
void requireAgreement(const Cell& cell)
{
    const QJsonValue& json = cell.json();
    const QString& text = cell.display();
    const QByteArray both = "json " + QJsonDocument(QJsonArray { json }).toJson(QJsonDocument::Compact) + ", text "
        + quotedForReport(text);
    switch (json.type()) {
    case QJsonValue::Null:
        FUZZ_REQUIRE(text.isEmpty(), both);
        break;
    case QJsonValue::Bool:
        FUZZ_REQUIRE(text == (json.toBool() ? QLatin1String("true") : QLatin1String("false")), both);
        break;
    case QJsonValue::Double:
        // A rate's text has four decimals, an integer's none (and must then match digit for digit: a 64-bit id).
        if (text.contains(QLatin1Char('.')))
            FUZZ_REQUIRE(text.toDouble() == json.toDouble(), both);
        else
            FUZZ_REQUIRE(text == QString::number(json.toInteger()), both);
        break;
    case QJsonValue::String:
        FUZZ_REQUIRE(text == json.toString(), both);
        break;
    default:
        propertyViolated("a cell is null, a boolean, a number or a string", __FILE__, __LINE__, both);
    }
}

// An independent reader of Cell's instants: ISO 8601 in UTC with milliseconds, the year expanded (a sign and four
// or more digits, year 0 being 1 BC) where it has more than four digits or is before 1 AD.
QDateTime instantOf(const QString& text)
{
    static const QRegularExpression iso(QRegularExpression::anchoredPattern(
        QStringLiteral(R"(([+-]\d{4,}|\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})Z)")));
    const QRegularExpressionMatch match = iso.match(text);
    if (!match.hasMatch())
        return {};
    const int isoYear = match.captured(1).toInt();
    const QDate date(isoYear <= 0 ? isoYear - 1 : isoYear, match.captured(2).toInt(), match.captured(3).toInt());
    const QTime time(
        match.captured(4).toInt(), match.captured(5).toInt(), match.captured(6).toInt(), match.captured(7).toInt());
    return QDateTime(date, time, Qt::UTC);
}

void requireInstantReadsBack(const QDateTime& instant, const Cell& cell)
{
    FUZZ_REQUIRE(instantOf(cell.display()) == instant,
        "instant " + QByteArray::number(instant.toMSecsSinceEpoch()) + " written as "
            + quotedForReport(cell.display()));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size)
{
    FuzzedDataProvider data(bytes, size);
    QStringList columns;
    QSet<QString> seen; // the exports' column names are distinct, as JSON object keys must be
    const int columnCount = data.ConsumeIntegralInRange(1, 6);
    for (int i = 0; i < columnCount; ++i) {
        // Column names are the exports' own (ExportTables): printable, but with what CSV has to quote.
        QString name;
        for (const char c : data.ConsumeRandomLengthString(12))
            name += QLatin1Char("abcdefghijklmnopqrstuvwxyz_ ,\""[static_cast<unsigned char>(c) % 30]);
        if (seen.contains(name))
            name += QString::number(i) + QLatin1Char('#');
        seen.insert(name);
        columns.append(name);
    }
    // An instant anywhere in PostgreSQL's range reads back from its text to the millisecond.
    const bool checkInstant = data.ConsumeBool();
    if (checkInstant) {
        const QDateTime instant
            = QDateTime::fromMSecsSinceEpoch(data.ConsumeIntegralInRange(EarliestMs, LatestMs), Qt::UTC);
        requireInstantReadsBack(instant, Cell::instant(instant));
    }
    RecordTable table(columns);
    QList<QList<Cell>> rows;
    const int rowCount = data.ConsumeIntegralInRange(0, 8);
    for (int r = 0; r < rowCount; ++r) {
        QList<Cell> cells;
        for (int c = 0; c < columnCount; ++c) {
            cells.append(consumeCell(data));
            requireAgreement(cells.last());
        }
        rows.append(cells);
        table.addRow(cells);
    }

    const QByteArray csv = table.csvRecords(true);
    const std::optional<QList<QStringList>> records = CsvTesting::parse(csv);
    FUZZ_REQUIRE(records, "CSV is not RFC 4180:\n" + csv);
    FUZZ_REQUIRE(
        records->size() == rowCount + 1, "CSV has " + QByteArray::number(records->size()) + " records:\n" + csv);
    FUZZ_REQUIRE(records->at(0) == columns, "CSV header differs:\n" + csv);
    for (int r = 0; r < rowCount; ++r) {
        QStringList texts;
        for (const Cell& cell : rows.at(r))
            texts.append(cell.display());
        FUZZ_REQUIRE(records->at(r + 1) == texts, "CSV record " + QByteArray::number(r) + " differs:\n" + csv);
    }
    FUZZ_REQUIRE(csv.endsWith(table.csvRecords(false)), "CSV without header is not the rest:\n" + csv);

    const QJsonArray array = table.jsonArray();
    const QList<QByteArray> lines = table.jsonLines().split('\n');
    FUZZ_REQUIRE(lines.size() == rowCount + 1 && lines.last().isEmpty(), "JSON lines:\n" + table.jsonLines());
    for (int r = 0; r < rowCount; ++r) {
        const QJsonObject read = QJsonDocument::fromJson(lines.at(r)).object();
        for (int c = 0; c < columnCount; ++c) {
            FUZZ_REQUIRE(read.contains(columns.at(c)) && read.value(columns.at(c)) == rows.at(r).at(c).json(),
                "JSON line " + QByteArray::number(r) + " column " + QByteArray::number(c) + ": " + lines.at(r));
        }
        FUZZ_REQUIRE(read == array.at(r).toObject(), "JSON line and JSON array differ: " + lines.at(r));
    }
    const QByteArray json = table.render(
        RecordTable::Format::Json, QStringLiteral("rows"), QJsonObject { { QStringLiteral("count"), rowCount } });
    FUZZ_REQUIRE(json.count('\n') == 1 && json.endsWith('\n'), "JSON is not one line:\n" + json);
    const QJsonObject document = QJsonDocument::fromJson(json).object();
    FUZZ_REQUIRE(document.value(QStringLiteral("rows")).toArray() == array, "JSON rows differ:\n" + json);

    // The text table: a header and one line per row, nothing that a terminal would take for a line break or tab.
    const QByteArray text = table.render(RecordTable::Format::Table, QStringLiteral("rows"));
    FUZZ_REQUIRE(text.count('\n') == rowCount + 1 && text.endsWith('\n'), "table lines:\n" + text);
    FUZZ_REQUIRE(!text.contains('\r') && !text.contains('\t'), "table has a CR or a tab:\n" + text);
    for (const QByteArray& line : text.split('\n'))
        FUZZ_REQUIRE(!line.endsWith(' '), "table line ends in a blank:\n" + text);
    return 0;
}
