// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/publishpause.h"

#include <QCoreApplication>
#include <QString>

struct AuditEntry;

// What an audit entry acted on, in the console's words: "1,270 outbox rows" (every batch of the action), "2 relays",
// "event type order.shipped" (a pause names its scope and target in the entry's details; a resume of an event type
// adds the held rows it let go). One wording for the Overview and the Audit tab.
class AuditSubject final {
    Q_DECLARE_TR_FUNCTIONS(AuditSubject)
public:
    static QString describe(const AuditEntry& entry);
    // "relay eu-1" or "event type order.shipped".
    static QString pauseTarget(PauseScope scope, const QString& target);
};
