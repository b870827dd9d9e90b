// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// Reads back what RecordTable writes as CSV (tst_recordtable, and the fuzz target that writes arbitrary tables).
namespace CsvTesting {

// A strict RFC 4180 reader: records end in CRLF (the last one too), a field is quoted if it holds a comma,
// quote, CR or LF, and a quote inside it is doubled. Nullopt for anything else.
inline std::optional<QList<QStringList>> parse(const QByteArray& bytes)
{
    const QString text = QString::fromUtf8(bytes);
    QList<QStringList> records;
    QStringList record;
    qsizetype i = 0;
    const qsizetype n = text.size();
    if (n == 0)
        return records;
    for (;;) {
        QString field;
        if (text.at(i) == QLatin1Char('"')) {
            for (++i;; ++i) {
                if (i >= n)
                    return std::nullopt; // unterminated quote
                if (text.at(i) == QLatin1Char('"')) {
                    if (i + 1 < n && text.at(i + 1) == QLatin1Char('"')) {
                        field += QLatin1Char('"');
                        ++i;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += text.at(i);
            }
        } else {
            for (; i < n && text.at(i) != QLatin1Char(',') && text.at(i) != QLatin1Char('\r')
                 && text.at(i) != QLatin1Char('\n');
                 ++i) {
                if (text.at(i) == QLatin1Char('"'))
                    return std::nullopt; // a quote in an unquoted field
                field += text.at(i);
            }
        }
        record.append(field);
        if (i < n && text.at(i) == QLatin1Char(',')) {
            ++i;
            continue;
        }
        if (i + 1 < n && text.at(i) == QLatin1Char('\r') && text.at(i + 1) == QLatin1Char('\n')) {
            i += 2;
            records.append(record);
            record.clear();
            if (i == n)
                return records;
            continue;
        }
        return std::nullopt; // a bare CR or LF, or no CRLF after the last record
    }
}

} // namespace CsvTesting
