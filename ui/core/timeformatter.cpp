// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/timeformatter.h"

#include <QLocale>
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
    const QLocale locale;
    if (zone() == Zone::Utc)
        return locale.toString(instant.toUTC(), instantFormat(locale)) + QStringLiteral(" UTC");
    return locale.toString(instant.toLocalTime(), instantFormat(locale));
}

QString TimeFormatter::instantFormat(const QLocale& locale)
{
    // The C locale (no LANG at all) stands for no preference: ISO 8601 is what operators read best then.
    if (locale.language() == QLocale::C)
        return QStringLiteral("yyyy-MM-dd HH:mm:ss");
    // Short formats drop the century and the seconds, which a timeline of retries needs.
    QString date = locale.dateFormat(QLocale::ShortFormat);
    if (!date.contains(QLatin1String("yyyy")))
        date.replace(QLatin1String("yy"), QLatin1String("yyyy"));
    QString time = locale.timeFormat(QLocale::ShortFormat);
    if (!time.contains(QLatin1Char('s')))
        time.replace(QLatin1String("mm"), QLatin1String("mm:ss"));
    return date + QLatin1Char(' ') + time;
}

QString TimeFormatter::exact(const QDateTime& instant)
{
    if (!instant.isValid())
        return {};
    return instant.toUTC().toString(Qt::ISODateWithMs) + QStringLiteral("\n")
        + instant.toLocalTime().toOffsetFromUtc(instant.toLocalTime().offsetFromUtc()).toString(Qt::ISODateWithMs)
        + QStringLiteral(" (local)");
}

QString TimeFormatter::durationBetween(const QDateTime& from, const QDateTime& to)
{
    return duration(qMax<qint64>(0, from.msecsTo(to)));
}

QString TimeFormatter::duration(qint64 ms)
{
    const qint64 seconds = ms / 1000;
    if (seconds < 60)
        return tr("%1 s").arg(seconds);
    if (seconds < 3600)
        return tr("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    if (seconds < 86'400)
        return tr("%1 h %2 min").arg(seconds / 3600).arg(seconds % 3600 / 60);
    return tr("%1 d %2 h").arg(QLocale().toString(seconds / 86'400)).arg(seconds % 86'400 / 3600);
}
