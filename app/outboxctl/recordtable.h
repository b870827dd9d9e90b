#pragma once

#include "cell.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>

// Rows with named columns, rendered as an aligned text table, one JSON document or RFC 4180 CSV. Every
// tabular output of outboxctl (list outbox, list keys, metrics) goes through here.
class RecordTable final {
public:
    enum class Format { Table, Json, Csv };

    // `name` is one of "table", "json", "csv" (the caller has validated it).
    static Format formatNamed(const QString& name);

    explicit RecordTable(QStringList columns);

    void addRow(QList<Cell> cells);

    // JSON output is one object holding the rows as objects in the array `arrayKey`, next to `extra`'s members.
    QByteArray render(Format format, const QString& arrayKey, const QJsonObject& extra = {}) const;

private:
    QByteArray toTable() const;
    QByteArray toJson(const QString& arrayKey, const QJsonObject& extra) const;
    QByteArray toCsv() const;

    QStringList m_columns;
    QList<QList<Cell>> m_rows;
};
