// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "demo/privatecluster.h"
#include "demo/serveraccount.h"

#include <QDir>
#include <QString>
#include <unistd.h>

// What the tests of the demo share (header-only: only the tests that link the demo's library include it).
namespace DemoTesting {

// Stops the private PostgreSQL in `directory` the way an operator would: pg_ctl stop -m fast, as the server's user.
// Returns what went wrong, or nothing.
inline QString stopDatabaseByHand(const QString& directory)
{
    return ServerAccount::run(QStringLiteral("pg_ctl"), ::geteuid() == 0 ? QStringLiteral("postgres") : QString(),
        QDir(PrivateCluster::binDirectory()).filePath(QStringLiteral("pg_ctl")),
        { QStringLiteral("--pgdata=") + directory + QStringLiteral("/data"), QStringLiteral("--wait"),
            QStringLiteral("--mode=fast"), QStringLiteral("stop") },
        60'000);
}

} // namespace DemoTesting
