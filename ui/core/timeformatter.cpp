// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/timeformatter.h"

#include <atomic>

static std::atomic<TimeFormatter::Zone> s_zone { TimeFormatter::Zone::Utc };

TimeFormatter::Zone TimeFormatter::zone()
{
    return s_zone;
}

void TimeFormatter::setZone(Zone zone)
{
    s_zone = zone;
}

QString TimeFormatter::display(const QDateTime& instant)
{
    if (!instant.isValid())
        return {};
    if (zone() == Zone::Utc)
        return instant.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) + QStringLiteral(" UTC");
    return instant.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString TimeFormatter::exact(const QDateTime& instant)
{
    if (!instant.isValid())
        return {};
    return instant.toUTC().toString(Qt::ISODateWithMs) + QStringLiteral("\n")
        + instant.toLocalTime().toOffsetFromUtc(instant.toLocalTime().offsetFromUtc()).toString(Qt::ISODateWithMs)
        + QStringLiteral(" (local)");
}

QString TimeFormatter::duration(qint64 ms)
{
    const qint64 seconds = ms / 1000;
    if (seconds < 60)
        return QStringLiteral("%1 s").arg(seconds);
    if (seconds < 3600)
        return QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    if (seconds < 86'400)
        return QStringLiteral("%1 h %2 min").arg(seconds / 3600).arg(seconds % 3600 / 60);
    return QStringLiteral("%1 d %2 h").arg(seconds / 86'400).arg(seconds % 86'400 / 3600);
}
