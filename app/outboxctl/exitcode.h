#pragma once

// The documented exit codes of outboxctl; scripts branch on them, so they never change meaning.
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

} // namespace ExitCode
