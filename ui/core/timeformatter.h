// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QString>

// How the console shows instants: in UTC or the local zone (an operator's toggle), to the second, written the way
// the default locale writes dates and times (ISO 8601 for the C locale), with the exact instant in both zones, in
// ISO 8601, for tooltips.
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
};
