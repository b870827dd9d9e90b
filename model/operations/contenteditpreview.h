// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/messagecontent.h"
#include "outbox/outboxstatus.h"

// An edit of one outbox row's content as the operator confirms it: both sides as the database renders them
// (jsonb_pretty), so the difference shown is the one the database will see and a number keeps every digit.
struct ContentEditPreview {
    qint64 id = 0;
    OutboxStatus status = OutboxStatus::Pending; // the row's state when the preview was read
    MessageContent current;
    MessageContent proposed;

    // Only a failed, dead or discarded row can be edited: never one that is published, on its way or waiting.
    bool editable() const { return isRetryable(status); }
    bool changesSomething() const { return current != proposed; }
};
