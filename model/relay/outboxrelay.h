// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"
#include "metrics/metricsrecorder.h"
#include "relay/leasekeeper.h"
#include "relay/messagesink.h"
#include "relay/relayoptions.h"

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>

class DbSession;
struct RelayBatchResult;

struct RelayTotals {
    qint64 claimed = 0;
    qint64 published = 0;
    qint64 failed = 0;
    qint64 dead = 0;
    qint64 fenced = 0;
    qint64 rescued = 0;
};

// Runs `options.workers` RelayWorkers, each on its own thread with its own connection and sink, plus what they
// share on a connection of its own: the lease heartbeat (a third of the lease), metric flushes once a second and
// backlog samples. Any number of relays, in any
// number of processes and machines, may run against one database: claims use SKIP LOCKED and every
// completion is fenced by its lease token.
class OutboxRelay final {
    Q_DISABLE_COPY_MOVE(OutboxRelay)
public:
    OutboxRelay(ConnectionSettings settings, MessageSinkFactory sinks, RelayOptions options);

    // Blocks until stop() is called or, with options.once, until no worker finds a due row. A lost
    // connection is retried with backoff unless options.once is set; a configuration problem (sink cannot
    // be created, schema, permissions) stops every worker. Rethrows the first fatal error after shutdown.
    RelayTotals run();

    // Thread-safe: workers finish the batch in hand, then run() returns.
    void stop();

    MetricsRecorder& metrics() { return m_metrics; }

private:
    void workerLoop(int index);
    bool waitUnlessStopping(qint64 ms);
    void fail(std::exception_ptr error);
    void log(const QString& message) const;
    void addTotals(const RelayBatchResult& batch, bool rescue);
    void superviseOn(
        std::unique_ptr<DbSession>& session, const QString& what, const std::function<void(DbSession&)>& work);

    ConnectionSettings m_settings;
    MessageSinkFactory m_sinks;
    RelayOptions m_options;
    MetricsRecorder m_metrics;
    LeaseKeeper m_leases;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    int m_running = 0;
    std::exception_ptr m_fatal;
    RelayTotals m_totals;
};
