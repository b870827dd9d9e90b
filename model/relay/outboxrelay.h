// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"
#include "db/peeroutages.h"
#include "metrics/metricsrecorder.h"
#include "metrics/throughputrecorder.h"
#include "relay/duewatch.h"
#include "relay/leasekeeper.h"
#include "relay/messagesink.h"
#include "relay/relayoptions.h"
#include "relay/relaystatus.h"
#include "relay/relaytally.h"

#include <QElapsedTimer>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

class DbSession;
class OutboxError;
struct RelayHeartbeat;

// Runs `options.workers` RelayWorkers, each on its own thread with its own connection and sink, plus what they
// share on a connection of its own (the supervisor): the lease heartbeat (a third of the lease), the registry
// heartbeat in relay_nodes, metric flushes once a second and backlog samples. Any number of relays, in any number
// of processes and machines, may run against one database: claims use SKIP LOCKED and every completion is fenced
// by its lease token.
//
// Outages of the database or the broker never end run(): each is logged once when it begins and once when it
// ends (OutageTracker), every thread retries with RetryDelay's backoff, and the registry and the books catch up
// after it. Only a configuration problem ends it: the sink cannot be created, the schema is wrong, a permission
// is missing.
class OutboxRelay final {
    Q_DISABLE_COPY_MOVE(OutboxRelay)
public:
    OutboxRelay(ConnectionSettings settings, MessageSinkFactory sinks, RelayOptions options);

    // Blocks until stop() is called or, with options.once, until no worker finds a due row. Registers the relay
    // first, so an unreachable server or a missing schema fails the call at once; once running, a lost
    // connection is retried unless options.once is set. Rethrows the first fatal error after shutdown.
    RelayTotals run();

    // Thread-safe: workers finish the batch in hand, then run() returns.
    void stop();

    MetricsRecorder& metrics() { return m_metrics; }

    // Its name in the registry (options.workerName, or HOST:PID).
    const QString& name() const { return m_options.workerName; }

    // Thread-safe: for /metrics and /healthz.
    RelayStatus status() const;

private:
    void workerLoop(int index);
    // The DueWatch's session: opened again after every failure, while the workers fall back to the poll.
    void watchLoop();
    bool waitUnlessStopping(qint64 ms);
    void fail(std::exception_ptr error);
    void log(QtMsgType type, const QString& message) const;
    // Files an error a thread ran into under the peer it concerns; false if it is not an outage.
    bool reportOutage(const OutboxError& error);
    // Whether `error` is a lost connection the last outage left behind, not a new outage: each thread has its own
    // connection and finds it broken only at its next statement, after the database is back. True if the database
    // is up for the others and a new connection works (or another thread got through meanwhile).
    bool isLeftover(const OutboxError& error) const;
    // When a worker's sink last connected and last worked, to judge its failures.
    struct SinkConnectionTimes {
        std::chrono::steady_clock::time_point connectedAt;
        // Its last batch: published, or nothing due on a connection that proves the broker available (see
        // workerLoop).
        std::chrono::steady_clock::time_point workedAt;
    };
    // How long after the sink is available again a connection opened before then, or one that has not worked yet, may
    // still fail as part of that outage: a cluster settling after the loss of a node.
    static constexpr std::chrono::seconds SinkSettlingTime { 10 };
    // The same for the sink: whether `error` is a broker connection's failure that belongs to an outage already
    // reported and ended. Either the connection had not worked since before that outage ended (each worker has a
    // connection of its own and may find it broken only at its next publish, after another worker reconnected), or it
    // was opened before then, or has not worked yet, and fails while the cluster settles (a node that takes a
    // connection then may not confirm its publishes: a quorum queue's leader lost or replaced again, the channel
    // waiting for it).
    bool isLeftoverOfBroker(const OutboxError& error, const SinkConnectionTimes& sink) const;
    void superviseOn(std::unique_ptr<DbSession>& session, const std::function<void(DbSession&)>& work);
    void sendHeartbeat(DbSession& session, bool stopping);
    // Whether the relay is failing (latched from an interval of failed publishes until one succeeds), for how long,
    // and the newest problem, into `beat`; keeps the judgment for status().
    void judgeHealth(RelayHeartbeat& beat);
    // `session` is a worker's index, or options.workers for the due watch.
    void setBackendPid(int session, int pid);
    // Where worker `index`'s sink publishes now (MessageSink::destination()); empty while it is not connected.
    void setDestination(int index, const QString& destination);
    // What a worker's claim said of a pause of the relay's name: a change is logged once and heartbeat at once.
    void notePause(const std::optional<RelayPause>& pause);
    // A worker published: a relay judged failing heartbeats at once, so that the registry, the console's fleet and
    // wait causes follow its recovery now rather than at the next interval.
    void noteRecovery();

    ConnectionSettings m_settings;
    MessageSinkFactory m_sinks;
    RelayOptions m_options;
    MetricsRecorder m_metrics;
    ThroughputRecorder m_throughput;
    LeaseKeeper m_leases;
    RelayTally m_tally;
    PeerOutages m_peers; // the broker is the sink
    DueWatch m_dueWatch;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    int m_running = 0;
    std::exception_ptr m_fatal;
    std::optional<BacklogSample> m_backlog;
    QString m_lastProblem;
    QElapsedTimer m_lastProblemAge;
    std::vector<int> m_backendPids; // the workers' sessions and the due watch's; 0 while one has none
    std::vector<QString> m_destinations; // by worker
    QElapsedTimer m_failingFor; // valid while the last heartbeat judged the relay failing
    QString m_failingProblem;
    std::optional<RelayPause> m_pause; // as the latest claim found it
    bool m_heartbeatDue = false; // the pause changed or a failing relay published: the registry should say so now

    // The supervisor's registry bookkeeping.
    qint64 m_nodeId = 0;
    qint64 m_publishedAtLastBeat = 0;
    qint64 m_failuresAtLastBeat = 0; // failed publishes and rows handed back
    bool m_publishesFail = false; // latched by an interval of failures without a publish, ended by a publish
    QElapsedTimer m_sinceLastBeat;
};
