// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// Servers refuse to run as root (PostgreSQL) or must not (RabbitMQ): a demo started as root runs their tools as the
// package's unprivileged user and hands their directories to it. An empty user is the caller.
namespace ServerAccount {

// Makes `user` the owner of `path`. Returns what went wrong, or an empty string; `package` is named when the user
// does not exist (the package creates it).
QString giveTo(const QString& path, const QString& user, const QString& package);

// Runs `binary` with `arguments` as `user` and waits up to `timeoutMs`, killing it after that. `environment` (when not
// empty) replaces the caller's; `home` (when not empty) is its HOME and working directory, also through runuser, which
// would reset HOME to the user's. Returns "`what` failed: <its last lines>", or an empty string when it succeeded.
QString run(const QString& what, const QString& user, const QString& binary, const QStringList& arguments,
    int timeoutMs, const QProcessEnvironment& environment = {}, const QString& home = {});

// Whether the process whose id is the first line of `pidFile` runs: not when the file is gone (a server stopped by
// hand removes it), nor when it names a process that ended (a server killed by hand leaves it), reaped or not.
bool isRunning(const QString& pidFile);

} // namespace ServerAccount
