// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/cell.h"

Cell::Cell(QJsonValue json, QString text)
    : m_json(std::move(json))
    , m_text(std::move(text))
{ }

Cell Cell::text(const QString& value)
{
    if (value.isNull())
        return Cell(QJsonValue::Null, {});
    return Cell(value, value);
}

Cell Cell::integer(std::optional<qint64> value)
{
    if (!value)
        return Cell(QJsonValue::Null, {});
    return Cell(*value, QString::number(*value));
}

Cell Cell::boolean(std::optional<bool> value)
{
    if (!value)
        return Cell(QJsonValue::Null, {});
    return Cell(*value, *value ? QStringLiteral("true") : QStringLiteral("false"));
}

Cell Cell::instant(const QDateTime& value)
{
    if (!value.isValid())
        return Cell(QJsonValue::Null, {});
    const QDateTime utc = value.toUTC();
    QString text = utc.toString(Qt::ISODateWithMs);
    // Qt writes ISO 8601 for the years 1 to 9999 only, and nothing otherwise; instants come from PostgreSQL, whose
    // range is 4713 BC to 294276 AD. Outside, ISO 8601's expanded years: a sign and at least four digits, 1 BC being
    // year 0 (Qt has no year 0).
    if (text.isEmpty()) {
        const int year = utc.date().year() < 0 ? utc.date().year() + 1 : utc.date().year();
        text = QLatin1Char(year < 0 ? '-' : '+') + QString::number(qAbs(year)).rightJustified(4, QLatin1Char('0'))
            + utc.toString(QStringLiteral("-MM-dd'T'HH:mm:ss.zzz'Z'"));
    }
    return Cell(text, text);
}

Cell Cell::rate(std::optional<double> value)
{
    if (!value)
        return Cell(QJsonValue::Null, {});
    // The JSON number is read from the text, so both formats agree: rounding the double separately (x * 10'000,
    // rounded, / 10'000) went the other way for some ties the text rounds exactly (3/160: 0.0188 against "0.0187").
    const QString text = QString::number(*value, 'f', 4);
    return Cell(text.toDouble(), text);
}
