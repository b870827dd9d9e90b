// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QJsonValue>
#include <QString>
#include <optional>

// One value of a RecordTable: its JSON form for --format json and its text for table and CSV output, so
// every formatter shows a value the same way. Missing values are JSON null and empty text.
class Cell final {
public:
    static Cell text(const QString& value); // a null QString is a missing value
    static Cell integer(std::optional<qint64> value);
    static Cell boolean(std::optional<bool> value);
    static Cell instant(const QDateTime& value); // ISO-8601 in UTC with milliseconds; invalid is missing
    static Cell rate(std::optional<double> value); // rounded to four decimals

    const QJsonValue& json() const { return m_json; }
    const QString& display() const { return m_text; }
    bool isNull() const { return m_json.isNull(); }

private:
    Cell(QJsonValue json, QString text);

    QJsonValue m_json;
    QString m_text;
};
