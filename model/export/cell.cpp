// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/cell.h"

#include <cmath>

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
    const QString text = value.toUTC().toString(Qt::ISODateWithMs);
    return Cell(text, text);
}

Cell Cell::rate(std::optional<double> value)
{
    if (!value)
        return Cell(QJsonValue::Null, {});
    // The JSON number carries the same four decimals as the text, so both formats agree.
    return Cell(std::round(*value * 10'000.0) / 10'000.0, QString::number(*value, 'f', 4));
}
