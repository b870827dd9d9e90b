// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxstatus.h"

// What an operator transition did to one row, for the audit log.
struct StatusChange {
    qint64 id = 0;
    OutboxStatus before = OutboxStatus::Pending;
    OutboxStatus after = OutboxStatus::Pending;
};
