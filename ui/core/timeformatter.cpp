// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/timeformatter.h"

#include <QFontMetrics>
#include <QLocale>
#include <QRegularExpression>
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

// `instant` as display() writes it in `zone`.
static QString written(const QDateTime& instant, TimeFormatter::Zone zone)
{
    const QLocale locale;
    if (zone == TimeFormatter::Zone::Utc)
        return locale.toString(instant.toUTC(), TimeFormatter::instantFormat(locale)) + QStringLiteral(" UTC");
    return locale.toString(instant.toLocalTime(), TimeFormatter::instantFormat(locale));
}

QString TimeFormatter::display(const QDateTime& instant)
{
    if (!instant.isValid())
        return {};
    return written(instant, zone());
}

// The locale's short date with the full year, and its short time (to the minute); ISO 8601 for the C locale (no
// LANG at all), which stands for no preference: that is what operators read best then.
static QString dateFormat(const QLocale& locale)
{
    if (locale.language() == QLocale::C)
        return QStringLiteral("yyyy-MM-dd");
    // Short formats drop the century.
    QString date = locale.dateFormat(QLocale::ShortFormat);
    if (!date.contains(QLatin1String("yyyy")))
        date.replace(QLatin1String("yy"), QLatin1String("yyyy"));
    return date;
}

static QString minuteFormat(const QLocale& locale)
{
    return locale.language() == QLocale::C ? QStringLiteral("HH:mm") : locale.timeFormat(QLocale::ShortFormat);
}

// A timeline of retries needs the seconds, which short formats drop.
static QString secondFormat(const QLocale& locale)
{
    QString time = minuteFormat(locale);
    if (!time.contains(QLatin1Char('s')))
        time.replace(QLatin1String("mm"), QLatin1String("mm:ss"));
    return time;
}

// dateFormat() without its year and the separator that joined it to the rest: "M/d", "M. d.", "dd.MM", "MM-dd".
static QString dayFormat(const QLocale& locale)
{
    static const QRegularExpression leadingYear(QStringLiteral("^y+[^dMy]*"));
    static const QRegularExpression year(QStringLiteral("[^dMy]*y+"));
    QString date = dateFormat(locale);
    if (date.contains(leadingYear))
        return date.remove(leadingYear);
    return date.remove(year);
}

QString TimeFormatter::instantFormat(const QLocale& locale)
{
    return dateFormat(locale) + QLatin1Char(' ') + secondFormat(locale);
}

QString TimeFormatter::pickerFormat(const QLocale& locale)
{
    return dateFormat(locale) + QLatin1Char(' ') + minuteFormat(locale);
}

QString TimeFormatter::wallClockMinute(const QDateTime& time)
{
    if (!time.isValid())
        return {};
    const QLocale locale;
    return locale.toString(time, pickerFormat(locale));
}

QString TimeFormatter::timeOfDay(const QTime& time, bool withSeconds)
{
    const QLocale locale;
    return locale.toString(time, withSeconds ? secondFormat(locale) : minuteFormat(locale));
}

QString TimeFormatter::monthAndDay(const QDate& date)
{
    const QLocale locale;
    return locale.toString(date, dayFormat(locale));
}

int TimeFormatter::widestDisplayWidth(const QFontMetrics& metrics)
{
    int widest = 0;
    for (const QTime time : { QTime(10, 58, 58), QTime(22, 58, 58) })
        widest = qMax(
            widest, metrics.horizontalAdvance(written(QDateTime(QDate(2026, 12, 28), time, Qt::UTC), Zone::Utc)));
    return widest;
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
