// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/enumnames.h"

// The states of an idempotency record (idempotency_keys.status).
enum class KeyStatus {
    InProgress, // claimed; the first request is executing under a lease
    Completed, // the response is stored and replayed
    Failed, // final (replayed like a success) or retryable (the key is released), see failure_retryable
};

// The names as the CHECK constraint on idempotency_keys.status spells them (a unit test compares the two).
inline constexpr EnumNames<KeyStatus, 3> KeyStatusNames({ {
    { KeyStatus::InProgress, "in_progress" },
    { KeyStatus::Completed, "completed" },
    { KeyStatus::Failed, "failed" },
} });
