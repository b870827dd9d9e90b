// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/duration.h"

#include <QRegularExpression>

std::optional<qint64> Duration::parseMs(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,9})(ms|s|m|h|d)$"));
    const auto match = pattern.match(text.trimmed());
    if (!match.hasMatch())
        return std::nullopt;
    const qint64 value = match.captured(1).toLongLong();
    const QString unit = match.captured(2);
    if (unit == QLatin1String("ms"))
        return value;
    if (unit == QLatin1String("s"))
        return value * 1000;
    if (unit == QLatin1String("m"))
        return value * 60'000;
    if (unit == QLatin1String("h"))
        return value * 3'600'000;
    return value * 86'400'000;
}
