// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <functional>

struct RelayOptions {
    QString workerName; // the relay's name in the registry and prefix of each worker's lease owner; empty = host:pid
    int workers = 1;
    int batchSize = 100;
    qint64 leaseMs = 30'000; // extended every third of it while a batch is published (LeaseKeeper)
    int maxAttempts = 10; // attempts before a row is dead
    qint64 backoffBaseMs = 1'000;
    qint64 backoffMaxMs = 300'000;
    // A relay with nothing due sleeps until a committed row wakes it (LISTEN outbox_due, migration 0012), until
    // the earliest failed row's next_attempt_at, or at the latest for the fallback poll: what a missed
    // notification costs. Without wakeOnCommit it polls every idlePollMs.
    bool wakeOnCommit = true;
    qint64 idlePollMs = 500; // the fallback poll
    qint64 rescueIntervalMs = 5'000; // how often each worker looks for expired leases
    qint64 metricsFlushMs = 1'000;
    qint64 backlogSampleMs = 10'000;
    qint64 registryHeartbeatMs = 5'000; // relay_nodes.last_seen; stale after three missed heartbeats
    QString sinkDescription = QStringLiteral("unspecified"); // for the registry; must not hold credentials
    QString version; // for the registry; empty = QCoreApplication::applicationVersion()
    bool once = false; // stop when no due rows remain instead of polling forever
    // Progress (QtInfoMsg) and outages (QtWarningMsg); default: qInfo and qWarning.
    std::function<void(QtMsgType, const QString&)> log;
};
