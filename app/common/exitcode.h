// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/outboxerror.h"

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
