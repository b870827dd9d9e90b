// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "idempotency/keystatus.h"

#include <QDateTime>
#include <QList>
#include <QString>

// What the operator is looking at among the idempotency keys. Every field narrows the set; an empty one does not.
struct KeyFilter {
    QString keyPrefix;
    QList<KeyStatus> statuses; // any of these
    QDateTime createdFrom; // inclusive
    QDateTime createdTo; // exclusive

    bool operator==(const KeyFilter&) const = default;
};
