// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QString>

// How the console shows instants: in UTC or the local zone (an operator's toggle), to the second, with the
// exact instant in both zones for tooltips.
class TimeFormatter final {
public:
    enum class Zone { Utc, Local };

    static Zone zone();
    static void setZone(Zone zone);

    static QString display(const QDateTime& instant);
    static QString exact(const QDateTime& instant);
    // "3 min 20 s", "2 h 5 min", for ages and delays.
    static QString duration(qint64 ms);
};
