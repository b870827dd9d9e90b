// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QList>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>

// Conversions at the SQL boundary, shared by every repository.
namespace SqlValues {

// `values` without repeats, in their first order: a repeated value in a filter would otherwise become a
// repeated UNION ALL branch and return its rows twice.
template<typename T> QList<T> distinct(const QList<T>& values)
{
    QList<T> result;
    for (const T& value : values) {
        if (!result.contains(value))
            result.append(value);
    }
    return result;
}

// Reads a `epoch_ms(ts)` column: null stays an invalid QDateTime, anything else is a UTC instant.
inline QDateTime instant(const QVariant& epochMs)
{
    if (epochMs.isNull())
        return {};
    return QDateTime::fromMSecsSinceEpoch(epochMs.toLongLong(), Qt::UTC);
}

// Binds an instant as text with an explicit offset, to be cast with ?::timestamptz.
inline QVariant timestamp(const QDateTime& instant)
{
    if (!instant.isValid())
        return QVariant(QMetaType::fromType<QString>());
    return instant.toUTC().toString(Qt::ISODateWithMs);
}

// Binds integers as a PostgreSQL array literal, to be cast with ?::bigint[] (or ?::integer[]).
inline QString bigintArray(const QList<qint64>& ids)
{
    QString literal = QStringLiteral("{");
    for (qsizetype i = 0; i < ids.size(); ++i) {
        if (i)
            literal += QLatin1Char(',');
        literal += QString::number(ids.at(i));
    }
    return literal + QLatin1Char('}');
}

// Binds names that need no quoting (the fixed names of an enum) as a PostgreSQL array literal, for ?::text[].
inline QString nameArray(const QStringList& names)
{
    return QLatin1Char('{') + names.join(QLatin1Char(',')) + QLatin1Char('}');
}

// Binds any texts as a PostgreSQL array literal, for ?::text[]: every element quoted, its quotes and backslashes
// escaped, so that commas, braces, blanks and the word NULL stay text.
inline QString textArray(const QStringList& texts)
{
    QString literal = QStringLiteral("{");
    for (qsizetype i = 0; i < texts.size(); ++i) {
        if (i)
            literal += QLatin1Char(',');
        QString element = texts.at(i);
        element.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
        literal += QLatin1Char('"') + element + QLatin1Char('"');
    }
    return literal + QLatin1Char('}');
}

inline QList<qint64> parseBigintArray(const QString& literal)
{
    QList<qint64> ids;
    const QString inner = literal.mid(1, literal.size() - 2);
    for (const QString& part : inner.split(QLatin1Char(','), Qt::SkipEmptyParts))
        ids.append(part.toLongLong());
    return ids;
}

// Every remaining row of an executed query, each converted by `convert(query)`.
template<typename Convert> auto collect(QSqlQuery& query, Convert convert) -> QList<decltype(convert(query))>
{
    QList<decltype(convert(query))> rows;
    while (query.next())
        rows.append(convert(query));
    return rows;
}

// Escapes LIKE wildcards so user text matches literally inside '%' || ? || '%'.
inline QString likeLiteral(const QString& text)
{
    QString escaped = text;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    escaped.replace(QLatin1Char('%'), QLatin1String("\\%"));
    escaped.replace(QLatin1Char('_'), QLatin1String("\\_"));
    return escaped;
}

} // namespace SqlValues
