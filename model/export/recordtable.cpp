// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/recordtable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

RecordTable::Format RecordTable::formatNamed(const QString& name)
{
    if (name == QLatin1String("json"))
        return Format::Json;
    if (name == QLatin1String("csv"))
        return Format::Csv;
    return Format::Table;
}

RecordTable::RecordTable(QStringList columns)
    : m_columns(std::move(columns))
{ }

void RecordTable::addRow(QList<Cell> cells)
{
    Q_ASSERT(cells.size() == m_columns.size());
    m_rows.append(std::move(cells));
}

QByteArray RecordTable::render(Format format, const QString& arrayKey, const QJsonObject& extra) const
{
    switch (format) {
    case Format::Table:
        return toTable();
    case Format::Json:
        return toJson(arrayKey, extra);
    case Format::Csv:
        return csvRecords(true);
    case Format::JsonLines:
        return jsonLines();
    }
    return {};
}

// A line break or tab inside a value would tear the table apart; show it escaped instead.
static QString tableText(const Cell& cell)
{
    if (cell.isNull())
        return QStringLiteral("-");
    QString text = cell.display();
    text.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    text.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    text.replace(QLatin1Char('\r'), QLatin1String("\\r"));
    text.replace(QLatin1Char('\t'), QLatin1String("\\t"));
    return text;
}

static QByteArray alignedLine(const QStringList& fields, const QList<qsizetype>& widths)
{
    QString line;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i)
            line += QLatin1String("  ");
        line += fields.at(i).leftJustified(widths.at(i));
    }
    while (line.endsWith(QLatin1Char(' ')))
        line.chop(1);
    return line.toUtf8() + '\n';
}

QByteArray RecordTable::toTable() const
{
    QList<QStringList> lines;
    for (const QList<Cell>& row : m_rows) {
        QStringList fields;
        for (const Cell& cell : row)
            fields.append(tableText(cell));
        lines.append(fields);
    }
    QList<qsizetype> widths;
    for (const QString& column : m_columns)
        widths.append(column.size());
    for (const QStringList& fields : lines) {
        for (qsizetype i = 0; i < fields.size(); ++i)
            widths[i] = qMax(widths.at(i), fields.at(i).size());
    }
    QByteArray out = alignedLine(m_columns, widths);
    for (const QStringList& fields : lines)
        out += alignedLine(fields, widths);
    return out;
}

QJsonObject RecordTable::rowObject(const QList<Cell>& row) const
{
    QJsonObject item;
    for (qsizetype i = 0; i < row.size(); ++i)
        item.insert(m_columns.at(i), row.at(i).json());
    return item;
}

QByteArray RecordTable::jsonLines() const
{
    QByteArray out;
    for (const QList<Cell>& row : m_rows)
        out += QJsonDocument(rowObject(row)).toJson(QJsonDocument::Compact) + '\n';
    return out;
}

QJsonArray RecordTable::jsonArray() const
{
    QJsonArray items;
    for (const QList<Cell>& row : m_rows)
        items.append(rowObject(row));
    return items;
}

QByteArray RecordTable::toJson(const QString& arrayKey, const QJsonObject& extra) const
{
    QJsonObject document = extra;
    document.insert(arrayKey, jsonArray());
    return QJsonDocument(document).toJson(QJsonDocument::Compact) + '\n';
}

static QString csvField(const QString& text)
{
    static const QString needsQuotes = QStringLiteral(",\"\r\n");
    if (std::none_of(text.cbegin(), text.cend(), [](QChar c) { return needsQuotes.contains(c); }))
        return text;
    return QLatin1Char('"') + QString(text).replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"');
}

static QByteArray csvRecord(const QStringList& fields)
{
    QStringList quoted;
    for (const QString& field : fields)
        quoted.append(csvField(field));
    return quoted.join(QLatin1Char(',')).toUtf8() + "\r\n";
}

QByteArray RecordTable::csvRecords(bool withHeader) const
{
    QByteArray out = withHeader ? csvRecord(m_columns) : QByteArray();
    for (const QList<Cell>& row : m_rows) {
        QStringList fields;
        for (const Cell& cell : row)
            fields.append(cell.display());
        out += csvRecord(fields);
    }
    return out;
}
