// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QString>

// Which operator actions to show. Every field narrows the set; an empty field does not.
struct AuditFilter {
    QString actor; // exact database user
    QString action; // exact, e.g. "requeue"
    QDateTime from; // inclusive
    QDateTime to; // exclusive

    bool operator==(const AuditFilter&) const = default;
};
