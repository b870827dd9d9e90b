// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/cell.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>

// Rows with named columns, rendered as an aligned text table, one JSON document, JSON lines or RFC 4180 CSV.
// Every tabular output (outboxctl's list and metrics, the console's exports) goes through here, so the same
// data gives the same bytes wherever it is exported.
class RecordTable final {
public:
    enum class Format { Table, Json, Csv, JsonLines };

    // `name` is one of "table", "json", "csv" (the caller has validated it).
    static Format formatNamed(const QString& name);

    explicit RecordTable(QStringList columns);

    void addRow(QList<Cell> cells);

    // JSON output is one object holding the rows as objects in the array `arrayKey`, next to `extra`'s members.
    QByteArray render(Format format, const QString& arrayKey, const QJsonObject& extra = {}) const;

    // For exports written page by page: CSV records (with the header row when `withHeader`) or JSON lines
    // (one object per row, no header).
    QByteArray csvRecords(bool withHeader) const;
    QByteArray jsonLines() const;
    // The rows as objects, as the JSON formats write them (the console's Copy as JSON).
    QJsonArray jsonArray() const;

private:
    QByteArray toTable() const;
    QByteArray toJson(const QString& arrayKey, const QJsonObject& extra) const;
    QJsonObject rowObject(const QList<Cell>& row) const;

    QStringList m_columns;
    QList<QList<Cell>> m_rows;
};
