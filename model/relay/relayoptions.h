// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <functional>

struct RelayOptions {
    QString workerName; // prefix of each worker's lease owner name; empty = host:pid
    int workers = 1;
    int batchSize = 100;
    qint64 leaseMs = 30'000; // extended every third of it while a batch is published (LeaseKeeper)
    int maxAttempts = 10; // attempts before a row is dead
    qint64 backoffBaseMs = 1'000;
    qint64 backoffMaxMs = 300'000;
    qint64 idlePollMs = 500; // wait between claims when nothing is due
    qint64 rescueIntervalMs = 5'000; // how often each worker looks for expired leases
    qint64 metricsFlushMs = 1'000;
    qint64 backlogSampleMs = 10'000;
    bool once = false; // stop when no due rows remain instead of polling forever
    std::function<void(const QString&)> log; // progress and recoverable errors; default: qInfo
};
