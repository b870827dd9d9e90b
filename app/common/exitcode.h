// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/outboxerror.h"

#include <array>

// The documented exit codes of the project's command-line tools (outboxctl, orders-service); scripts branch on
// them, so they never change meaning.
namespace ExitCode {

constexpr int Success = 0;
constexpr int Unexpected = 1;
constexpr int Usage = 2;
constexpr int InProgress = 3;
constexpr int KeyMismatch = 4;
constexpr int CannotConnect = 5;
constexpr int Schema = 6;
constexpr int PermissionDenied = 7;
constexpr int Rejected = 8;
constexpr int RetryableFailure = 9;
constexpr int BrokerUnavailable = 10;
constexpr int NotApplicable = 11;

struct Meaning {
    int code;
    const char* text;
};
// What each code means, for --help and the manual pages.
inline constexpr std::array<Meaning, 12> Meanings { {
    { Success, "success" },
    { Unexpected, "unexpected error" },
    { Usage, "bad input or usage (also create-order: bad request)" },
    { InProgress, "create-order: a request with this key is still in progress" },
    { KeyMismatch, "create-order: the key was used with a different request" },
    { CannotConnect, "cannot connect (server unreachable, authentication failed, invalid connection)" },
    { Schema, "schema missing, outdated or newer than this binary" },
    { PermissionDenied, "permission denied" },
    { Rejected, "create-order: rejected by a business rule (or the replay of such a rejection)" },
    { RetryableFailure, "create-order: retryable failure, the key was released" },
    { BrokerUnavailable,
        "relay --once: the message broker is unreachable, refused the login, or closed the connection "
        "or channel" },
    { NotApplicable,
        "edit: the row is not failed, dead or discarded, or it changed while the command ran; pause: paused already; "
        "resume: not paused; nothing was written" },
} };

// The exit code for a library error of `kind`.
inline int forError(OutboxError::Kind kind)
{
    switch (kind) {
    case OutboxError::Kind::InvalidInput:
        return Usage;
    case OutboxError::Kind::Connection:
        return CannotConnect;
    case OutboxError::Kind::Schema:
        return Schema;
    case OutboxError::Kind::Permission:
        return PermissionDenied;
    case OutboxError::Kind::Broker:
        return BrokerUnavailable;
    case OutboxError::Kind::Transient:
    case OutboxError::Kind::Other:
        break;
    }
    return Unexpected;
}

} // namespace ExitCode
