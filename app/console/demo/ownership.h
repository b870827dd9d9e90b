// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// Servers refuse to run as root (PostgreSQL) or must not (RabbitMQ): a demo started as root hands their
// directories to the package's unprivileged user.
namespace Ownership {

// Makes `user` the owner of `path`. Returns what went wrong, or an empty string; `package` is named when the user
// does not exist (the package creates it).
QString giveTo(const QString& path, const QString& user, const QString& package);

} // namespace Ownership
