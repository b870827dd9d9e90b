// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QString>

class QFontMetrics;

// How the console shows instants: in UTC or the local zone (an operator's toggle), to the second, written the way
// the default locale writes dates and times (ISO 8601 for the C locale), with the exact instant in both zones, in
// ISO 8601, for tooltips. Every table, pane, dialog and picker writes them so: one way per language.
class TimeFormatter final {
    Q_DECLARE_TR_FUNCTIONS(TimeFormatter)

public:
    enum class Zone { Utc, Local };

    static Zone zone();
    static void setZone(Zone zone);

    static QString display(const QDateTime& instant);
    static QString exact(const QDateTime& instant);
    // "3 min 20 s", "2 h 5 min", for ages and delays, in the console's language.
    static QString duration(qint64 ms);
    // duration() from `from` to `to` (an age by the database's clock: `to` is the server's now), never negative.
    static QString durationBetween(const QDateTime& from, const QDateTime& to);
    // The date-and-time format display() uses in `locale`: its short date with the full year, its short time with
    // seconds.
    static QString instantFormat(const QLocale& locale);
    // The format of every date-and-time picker (QDateTimeEdit::setDisplayFormat) in `locale`: display()'s date and
    // time, to the minute, which is what a picker sets.
    static QString pickerFormat(const QLocale& locale);
    // A chart's times, as display() and pickerFormat() write them in the default locale, but on the wall clock of
    // `time`'s own zone, which the chart names apart: the date and time to the minute (a bucket's start), the time of
    // day alone, to the minute or the second, and the day without its year (the ticks of a time axis).
    static QString wallClockMinute(const QDateTime& time);
    static QString timeOfDay(const QTime& time, bool withSeconds = false);
    static QString monthAndDay(const QDate& date);
    // The width in `metrics` of the widest text display() writes in the default locale (two-digit months, days and
    // hours, morning and afternoon, with UTC's name), for columns sized before they show an instant.
    static int widestDisplayWidth(const QFontMetrics& metrics);
};
