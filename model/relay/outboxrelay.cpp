// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/outboxrelay.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/retrydelay.h"
#include "idempotency/idempotencyrepository.h"
#include "metrics/metricsrepository.h"
#include "outbox/failuregrouprepository.h"
#include "outbox/outboxreadrepository.h"
#include "outbox/outboxrepository.h"
#include "relay/outboxleaserepository.h"
#include "relay/relayregistry.h"
#include "relay/relayworker.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QSysInfo>
#include <algorithm>
#include <thread>
#include <vector>

// Parked rows of a resumed event type that a heartbeat lets go, per type.
static constexpr int ResumeReleaseBatch = 10'000;
// --once: how soon a worker looks again for due rows that others hold. A row in flight is usually published within
// milliseconds, so soon at first; then less often, for a holder that takes long.
static constexpr qint64 OnceRecheckFirstMs = 20;
static constexpr qint64 OnceRecheckMaxMs = 1'000;

OutboxRelay::OutboxRelay(ConnectionSettings settings, MessageSinkFactory sinks, RelayOptions options)
    : m_settings(std::move(settings))
    , m_sinks(std::move(sinks))
    , m_options(std::move(options))
    , m_peers(QStringLiteral("sink"), [this](QtMsgType type, const QString& line) { log(type, line); })
    , m_dueWatch(m_options.workers, m_options.idlePollMs)
{
    if (m_options.workerName.isEmpty())
        m_options.workerName
            = QStringLiteral("%1:%2").arg(QSysInfo::machineHostName()).arg(QCoreApplication::applicationPid());
    if (m_options.version.isEmpty())
        m_options.version = QCoreApplication::applicationVersion();
    m_settings.setDefaultApplicationName(QStringLiteral("outbox-relay"));
    // The relay's transactions wait for nothing but their own statements (none stays open across a publish), so a
    // session idle in one has a hung or cut-off relay behind it: the server ends it, freeing the rows' locks,
    // before their lease runs out, so another relay's rescue can take them (it skips locked rows).
    m_settings.setIdleInTransactionTimeoutMs(std::clamp<qint64>(m_options.leaseMs / 2, 1'000, 30'000));
}

void OutboxRelay::log(QtMsgType type, const QString& message) const
{
    if (m_options.log)
        m_options.log(type, message);
    else if (type == QtInfoMsg)
        qInfo().noquote() << message;
    else
        qWarning().noquote() << message;
}

void OutboxRelay::stop()
{
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    m_wake.notify_all();
    m_dueWatch.stop();
}

bool OutboxRelay::waitUnlessStopping(qint64 ms)
{
    std::unique_lock lock(m_mutex);
    m_wake.wait_for(lock, std::chrono::milliseconds(ms), [this] { return m_stopping; });
    return !m_stopping;
}

void OutboxRelay::fail(std::exception_ptr error)
{
    std::lock_guard lock(m_mutex);
    if (!m_fatal)
        m_fatal = std::move(error);
    m_stopping = true;
    m_wake.notify_all();
    m_dueWatch.stop();
}

RelayStatus OutboxRelay::status() const
{
    RelayStatus status;
    status.totals = m_tally.totals();
    status.databaseUp = m_peers.database().isUp();
    status.databaseProblem = m_peers.database().problem();
    status.sinkUp = m_peers.broker().isUp();
    status.sinkProblem = m_peers.broker().problem();
    std::lock_guard lock(m_mutex);
    status.backlog = m_backlog;
    status.failing = m_failingFor.isValid();
    status.failingProblem = m_failingProblem;
    status.pause = m_pause;
    return status;
}

bool OutboxRelay::isLeftover(const OutboxError& error) const
{
    if (error.kind() != OutboxError::Kind::Connection || !m_peers.database().isUp())
        return false;
    // The probe below may fail where the failure it checks is old news: a session idle on a failover's old leader
    // learns that it is gone at its TCP user timeout, maybe before the new leader takes writes; by the time the
    // probe has given up, another thread may have reported the outage and its end. Such a failure predates that
    // recovery: logging it would start a second outage for one failover.
    const auto failedBy = std::chrono::steady_clock::now();
    try {
        DbSession probe(m_settings, QStringLiteral("relay-probe"));
        probe.ping();
        return true;
    } catch (const OutboxError&) {
        return m_peers.database().recoveredSince(failedBy);
    }
}

bool OutboxRelay::isLeftoverOfBroker(const OutboxError& error, const SinkConnectionTimes& sink) const
{
    if (error.kind() != OutboxError::Kind::Broker || !m_peers.broker().isUp())
        return false;
    const OutageTracker& broker = m_peers.broker();
    const bool neverWorked = sink.workedAt < sink.connectedAt;
    return broker.recoveredSince(sink.workedAt)
        || ((broker.recoveredSince(sink.connectedAt) || neverWorked)
            && broker.recoveredSince(std::chrono::steady_clock::now() - SinkSettlingTime));
}

bool OutboxRelay::reportOutage(const OutboxError& error)
{
    if (!m_peers.report(error))
        return false;
    std::lock_guard lock(m_mutex);
    m_lastProblem = error.message();
    m_lastProblemAge.start();
    return true;
}

void OutboxRelay::setBackendPid(int session, int pid)
{
    std::lock_guard lock(m_mutex);
    m_backendPids[session] = pid;
}

void OutboxRelay::setDestination(int index, const QString& destination)
{
    std::lock_guard lock(m_mutex);
    m_destinations[index] = destination;
}

void OutboxRelay::notePause(const std::optional<RelayPause>& pause)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_pause == pause)
            return;
        m_pause = pause;
        m_heartbeatDue = true;
        m_wake.notify_all();
    }
    if (pause) {
        log(QtWarningMsg,
            QStringLiteral("relay %1: paused by %2 (%3); claiming nothing until it is resumed")
                .arg(m_options.workerName, pause->pausedBy, pause->reason));
    } else {
        log(QtInfoMsg, QStringLiteral("relay %1: resumed; claiming again").arg(m_options.workerName));
    }
}

void OutboxRelay::noteRecovery()
{
    std::lock_guard lock(m_mutex);
    if (!m_failingFor.isValid() || m_heartbeatDue)
        return;
    m_heartbeatDue = true;
    m_wake.notify_all();
}

void OutboxRelay::workerLoop(int index)
{
    const QString name = QStringLiteral("%1/w%2").arg(m_options.workerName).arg(index);
    RetryDelay retry;
    bool saidWaiting = false; // --once: that due rows wait for others' rows, said once per run
    SinkConnectionTimes sinkTimes { std::chrono::steady_clock::now(), std::chrono::steady_clock::now() };
    for (;;) {
        std::optional<std::chrono::steady_clock::time_point> sinkConnectedAt; // in this round
        try {
            DbSession session(m_settings, QStringLiteral("relay"));
            session.compileNothing();
            // No bitmap scans either: the relay's statements read a few rows in index order, and a partition the
            // roll opened has no statistics until autovacuum analyzes it (up to a minute); guessing few due rows,
            // the planner read every due row of it through a bitmap and sorted them to claim 500 (82 ms per claim
            // with 50,000 rows waiting, 1.3 ms through the index in order).
            session.setForEachStatement(QStringLiteral("enable_bitmapscan"), QStringLiteral("off"));
            setBackendPid(index, session.backendPid());
            m_peers.database().reportUp();
            const std::unique_ptr<MessageSink> sink = m_sinks();
            // Connected, but not yet available again: that takes a publish (or nothing to publish), since a node of a
            // cluster may take a connection and not confirm publishes (a quorum queue's leader lost, not yet replaced).
            sink->ensureReachable();
            sinkConnectedAt = sinkTimes.connectedAt = std::chrono::steady_clock::now();
            setDestination(index, sink->destination());
            RelayWorker worker(session, *sink, m_metrics, m_throughput, m_leases, m_tally, m_options, name);
            QDeadlineTimer nextRescue(0);
            bool foundWork = false; // since this worker last slept
            // --once: since when due rows wait for others' rows (a claim took none), and when to look again.
            QElapsedTimer waitingForHolders;
            qint64 recheckMs = OnceRecheckFirstMs;
            for (;;) {
                {
                    std::lock_guard lock(m_mutex);
                    if (m_stopping)
                        return;
                }
                if (nextRescue.hasExpired()) {
                    const RelayBatchResult rescued = worker.rescueExpiredLeases();
                    if (rescued.failed > 0) {
                        log(QtInfoMsg,
                            QStringLiteral("%1: rescued %2 rows whose lease expired (%3 now dead)")
                                .arg(name)
                                .arg(rescued.failed)
                                .arg(rescued.dead));
                    }
                    nextRescue.setRemainingTime(m_options.rescueIntervalMs);
                }
                const RelayBatchResult batch = worker.processBatch();
                setDestination(index, sink->destination());
                notePause(batch.relayPause);
                if (batch.relayPause) {
                    // Not through the due watch: asleep there, the relay would have every writer notify it. --once
                    // stops: a paused relay has nothing to do.
                    if (m_options.once || !waitUnlessStopping(m_options.idlePollMs))
                        return;
                    continue;
                }
                foundWork = foundWork || batch.claimed > 0;
                if (batch.claimed > 0) {
                    waitingForHolders.invalidate();
                    recheckMs = OnceRecheckFirstMs;
                }
                // Only a batch that went through proves the database and the sink work: with rows, that they were
                // published; with none, that the sink connected, if it did so after the broker's outage began (an
                // older connection may not have noticed it yet).
                retry.reset();
                m_peers.database().reportUp();
                if (batch.claimed > 0 || !m_peers.broker().wentDownAfter(sinkTimes.connectedAt)) {
                    m_peers.broker().reportUp();
                    sinkTimes.workedAt = std::chrono::steady_clock::now(); // after its own report: not before that end
                }
                if (batch.published > 0)
                    noteRecovery();
                if (batch.claimed > 0) {
                    // Claim again at once, also after a partial batch: under load rows arrive while a batch
                    // publishes, and a worker that slept after every partial batch would have the due watch take
                    // its lock (and every committing writer NOTIFY) many times a second; measured with 16 clients
                    // creating, that cost the creates a fifth of their rate. After a full batch a sleeping sibling
                    // helps.
                    if (batch.claimed == m_options.batchSize && m_options.workers > 1)
                        m_dueWatch.wakeOne();
                    continue;
                }
                if (m_options.once) {
                    // "Once" stops when no row is due. A claim can take none while some are: they wait behind
                    // rows of their key that another worker has in flight, or another transaction holds them. A
                    // holder finishes soon (a lost one's lease is rescued above), so look again, soon and then
                    // less often, up to twice the time a lost holder's rows take to be rescued.
                    const std::optional<qint64> nextDueMs = OutboxLeaseRepository(session).msUntilNextDue();
                    if (!nextDueMs || *nextDueMs > 0)
                        return;
                    if (!waitingForHolders.isValid()) {
                        waitingForHolders.start();
                        if (!std::exchange(saidWaiting, true)) {
                            log(QtInfoMsg,
                                QStringLiteral("%1: rows are due but held by others (rows of their key in flight, "
                                               "or another transaction); waiting for those")
                                    .arg(name));
                        }
                    } else if (waitingForHolders.elapsed() > 2 * (m_options.leaseMs + m_options.rescueIntervalMs)) {
                        log(QtWarningMsg,
                            QStringLiteral("%1: rows are still due but held by others after %2 s; stopping")
                                .arg(name)
                                .arg(waitingForHolders.elapsed() / 1000));
                        return;
                    }
                    if (!waitUnlessStopping(std::exchange(recheckMs, std::min(2 * recheckMs, OnceRecheckMaxMs))))
                        return;
                    continue;
                }
                // Nothing was due at the claim: the due watch (or the fallback poll) wakes us.
                if (!m_dueWatch.sleep(std::exchange(foundWork, false)))
                    return;
                sink->ensureReachable();
            }
        } catch (const OutboxError& error) {
            setBackendPid(index, 0);
            setDestination(index, {});
            // Judged once: the same failure again, on the next connection, is a new outage.
            const bool leftover = !m_options.once && (isLeftover(error) || isLeftoverOfBroker(error, sinkTimes));
            sinkTimes = { std::chrono::steady_clock::now(), std::chrono::steady_clock::now() };
            // Reconnect after the shortest delay for old news, and after a broker connection that lived at least that
            // long: the attempt spaced itself (a publish that waited out its confirm timeout). A cluster settling after
            // the loss of a node leaves a new connection's publishes unconfirmed until its queues have new leaders; a
            // growing delay would keep the relay away for long after they have. A connection that fails at once (a
            // refused login, a channel closed at the first publish) backs off as ever.
            const bool spacedItself = error.kind() == OutboxError::Kind::Broker && sinkConnectedAt
                && std::chrono::steady_clock::now() - *sinkConnectedAt
                    >= std::chrono::milliseconds(RetryDelay::FirstMs);
            if (leftover || spacedItself)
                retry.reset();
            // --once stops at an outage, saying why; a deadlock or serialization failure is no outage and is
            // retried in either mode.
            const bool stops = m_options.once && error.kind() != OutboxError::Kind::Transient;
            if (!leftover && (stops || !reportOutage(error))) {
                fail(std::current_exception());
                return;
            }
        } catch (...) {
            fail(std::current_exception());
            return;
        }
        if (!waitUnlessStopping(retry.next()))
            return;
    }
}

void OutboxRelay::watchLoop()
{
    const int slot = m_options.workers;
    RetryDelay retry;
    QString lastProblem;
    while (!m_dueWatch.isStopping()) {
        try {
            DbSession session(m_settings, QStringLiteral("relay-wakeup"));
            setBackendPid(slot, session.backendPid());
            retry.reset();
            m_dueWatch.watchOn(session);
            return;
        } catch (const OutboxError& error) {
            setBackendPid(slot, 0);
            // An outage the workers report too; anything else only slows the relay down to its fallback poll.
            if (!isLeftover(error) && !reportOutage(error) && error.message() != lastProblem) {
                log(QtWarningMsg,
                    QStringLiteral("relay %1: cannot watch for due rows, polling every %2 ms instead: %3")
                        .arg(m_options.workerName)
                        .arg(m_options.idlePollMs)
                        .arg(error.message()));
            }
            lastProblem = error.message();
        }
        if (!waitUnlessStopping(retry.next()))
            return;
    }
}

// The lease heartbeat, the registry heartbeat, metric flushes and backlog samples, on the supervisor's
// connection. Failures must not stop publishing: counters stay queued for the next flush, an unextended lease
// runs out as it would after a crash, the registry row catches up at the next heartbeat, and a lost connection
// is opened afresh on the next round.
void OutboxRelay::superviseOn(std::unique_ptr<DbSession>& session, const std::function<void(DbSession&)>& work)
{
    try {
        if (!session)
            session = std::make_unique<DbSession>(m_settings, QStringLiteral("relay-supervisor"));
        work(*session);
        m_peers.database().reportUp();
    } catch (const OutboxError& error) {
        if (!isLeftover(error) && !reportOutage(error))
            log(QtWarningMsg, QStringLiteral("relay bookkeeping: %1").arg(error.message()));
        if (error.kind() == OutboxError::Kind::Connection)
            session.reset();
    }
}

static RelayRegistration registrationOf(const RelayOptions& options)
{
    RelayRegistration node;
    node.name = options.workerName;
    node.host = QSysInfo::machineHostName();
    node.pid = QCoreApplication::applicationPid();
    node.version = options.version.isEmpty() ? QStringLiteral("unknown") : options.version;
    node.sink = options.sinkDescription;
    node.workers = options.workers;
    node.batchSize = options.batchSize;
    node.leaseMs = options.leaseMs;
    node.heartbeatMs = options.registryHeartbeatMs;
    return node;
}

// Failing: the sink is unreachable, or publishes failed (or were handed back) in a heartbeat interval in which none
// succeeded, and none has succeeded since. The judgment latches: a relay whose refused rows wait out a backoff
// longer than the heartbeat tries nothing for a while, and that silence proves nothing, so only a publish that goes
// through ends the streak (else the state, and the alert on it, flap; docs/relay.md). A relay that publishes some
// rows and fails others is alive: its failures show in the failure groups and as its newest error. The streak is dated
// from the heartbeat before the first failing interval (or the sink outage's start, if that is earlier), so "failing
// for 20 s" errs towards the longer. Each change is logged once, for the incident's timeline.
void OutboxRelay::judgeHealth(RelayHeartbeat& beat)
{
    const qint64 sinceLastBeatMs = m_sinceLastBeat.elapsed();
    const qint64 failures = beat.totals.failed + beat.totals.handedBack;
    const bool published = beat.totals.published > m_publishedAtLastBeat;
    if (published)
        m_publishesFail = false;
    else if (failures > m_failuresAtLastBeat)
        m_publishesFail = true;
    const bool failing = !beat.sinkUp || m_publishesFail;
    std::optional<RelayTally::Failure> failure = m_tally.lastFailure();
    std::unique_lock lock(m_mutex);
    const qint64 outageAgeMs = m_lastProblemAge.isValid() ? m_lastProblemAge.elapsed() : 0;
    if (!m_lastProblem.isEmpty() && (!failure || outageAgeMs <= failure->ageMs))
        failure = RelayTally::Failure { m_lastProblem, outageAgeMs };
    if (failure) {
        beat.lastError = failure->error;
        beat.lastErrorAgeMs = failure->ageMs;
    }
    if (!failing) {
        if (!m_failingFor.isValid())
            return;
        const qint64 failedForS = m_failingFor.elapsed() / 1000;
        m_failingFor.invalidate();
        m_failingProblem.clear();
        lock.unlock();
        log(QtInfoMsg,
            QStringLiteral("relay %1: publishing again after failing for %2 s")
                .arg(m_options.workerName)
                .arg(failedForS));
        return;
    }
    const qint64 streakMs = qMax(m_peers.broker().downForMs(), sinceLastBeatMs);
    const bool began = !m_failingFor.isValid();
    if (began)
        m_failingFor.start();
    beat.failingForMs = qMax(streakMs, m_failingFor.elapsed());
    m_failingProblem = !beat.sinkUp ? QStringLiteral("sink unreachable: ") + m_peers.broker().problem()
                                    : QStringLiteral("publishes fail: ") + beat.lastError;
    if (began) {
        const QString problem = m_failingProblem;
        lock.unlock();
        log(QtWarningMsg,
            QStringLiteral("relay %1: failing (%2); it stays so until a publish succeeds")
                .arg(m_options.workerName, problem));
    }
}

void OutboxRelay::sendHeartbeat(DbSession& session, bool stopping)
{
    RelayHeartbeat beat;
    beat.totals = m_tally.totals();
    const qint64 sinceLastBeatMs = m_sinceLastBeat.elapsed();
    if (sinceLastBeatMs > 0)
        beat.publishRate = double(beat.totals.published - m_publishedAtLastBeat) * 1000.0 / double(sinceLastBeatMs);
    beat.sinkUp = m_peers.broker().isUp();
    judgeHealth(beat);
    {
        std::lock_guard lock(m_mutex);
        beat.paused = m_pause.has_value();
        for (const int pid : m_backendPids) {
            if (pid != 0)
                beat.workerBackendPids.append(pid);
        }
        for (const QString& destination : m_destinations) {
            if (!stopping && !destination.isEmpty() && !beat.publishingTo.contains(destination))
                beat.publishingTo.append(destination); // a stopped relay publishes nowhere
        }
        beat.publishingTo.sort();
    }
    RelayRegistry registry(session);
    if (stopping) {
        registry.markStopped(m_nodeId, beat);
    } else if (!registry.heartbeat(m_nodeId, beat)) {
        // Purged as stale while we could not reach the database, or marked stopped by hand: we are alive.
        m_nodeId = registry.registerNode(registrationOf(m_options));
        registry.heartbeat(m_nodeId, beat);
        log(QtWarningMsg,
            QStringLiteral("relay %1: its registry row was gone; registered again as relay_nodes.id %2")
                .arg(m_options.workerName)
                .arg(m_nodeId));
    }
    m_sinceLastBeat.restart();
    m_publishedAtLastBeat = beat.totals.published;
    m_failuresAtLastBeat = beat.totals.failed + beat.totals.handedBack;
}

RelayTotals OutboxRelay::run()
{
    // Registered up front, so that an unreachable server or a missing schema fails the call instead of every
    // worker.
    auto session = std::make_unique<DbSession>(m_settings, QStringLiteral("relay-supervisor"));
    m_nodeId = RelayRegistry(*session).registerNode(registrationOf(m_options));
    m_sinceLastBeat.start();
    {
        std::lock_guard lock(m_mutex);
        m_running = m_options.workers;
        m_backendPids.assign(m_options.workers + 1, 0);
        m_destinations.assign(m_options.workers, QString());
    }
    std::vector<std::thread> threads;
    threads.reserve(m_options.workers);
    std::thread watch;
    if (m_options.wakeOnCommit && !m_options.once) {
        if (!session->isTransactionPooled()) {
            watch = std::thread([this] { watchLoop(); });
        } else {
            log(QtInfoMsg,
                QStringLiteral("relay %1: connected through a transaction pooler, so it polls for due rows every %2 "
                               "ms instead of being woken on commit (LISTEN and the due-watch lock need a session of "
                               "their own: give the relay a direct connection, or a session-mode pool with %3=none)")
                    .arg(m_options.workerName)
                    .arg(m_options.idlePollMs)
                    .arg(QLatin1String(ConnectionSettings::PoolingVariable)));
        }
    }
    for (int i = 0; i < m_options.workers; ++i) {
        threads.emplace_back([this, i] {
            workerLoop(i);
            std::lock_guard lock(m_mutex);
            --m_running;
            m_wake.notify_all();
        });
    }

    const auto keepBooks = [this](DbSession& db, bool sampleBacklog,
                               ThroughputRecorder::Seconds seconds = ThroughputRecorder::Seconds::Ended) {
        m_metrics.flush(db);
        m_throughput.flush(db, m_nodeId, seconds);
        if (!sampleBacklog)
            return;
        const BacklogSample sample = OutboxReadRepository(db).sampleBacklog(BacklogSample::CountCap);
        MetricsRepository(db).recordBacklogSample(sample);
        std::lock_guard lock(m_mutex);
        m_backlog = sample;
    };
    // A third of the lease leaves two chances to extend before a lease could run out.
    const qint64 leaseHeartbeatMs = qMax<qint64>(m_options.leaseMs / 3, 50);
    QDeadlineTimer nextSample(0);
    QDeadlineTimer nextFlush(m_options.metricsFlushMs);
    QDeadlineTimer nextLeaseHeartbeat(leaseHeartbeatMs);
    QDeadlineTimer nextRegistryHeartbeat(m_options.registryHeartbeatMs);
    for (;;) {
        {
            const qint64 waitMs = qMax<qint64>(0,
                std::min({ nextFlush.remainingTime(), nextLeaseHeartbeat.remainingTime(),
                    nextRegistryHeartbeat.remainingTime() }));
            std::unique_lock lock(m_mutex);
            m_wake.wait_for(
                lock, std::chrono::milliseconds(waitMs), [this] { return m_running == 0 || m_heartbeatDue; });
            if (m_running == 0)
                break;
            if (std::exchange(m_heartbeatDue, false))
                nextRegistryHeartbeat.setRemainingTime(0);
        }
        if (nextLeaseHeartbeat.hasExpired()) {
            nextLeaseHeartbeat.setRemainingTime(leaseHeartbeatMs);
            superviseOn(session, [this](DbSession& db) { m_leases.extend(db, m_options.leaseMs); });
        }
        if (nextRegistryHeartbeat.hasExpired()) {
            nextRegistryHeartbeat.setRemainingTime(m_options.registryHeartbeatMs);
            superviseOn(session, [this](DbSession& db) {
                sendHeartbeat(db, false);
                RelayRegistry(db).markGone();
            });
            // The failure-group sizes grow by a delta row per failure and replays are counted as rows of their
            // own; folding both with every heartbeat keeps the counts current and their reads small wherever
            // relays run. Relays take turns: one fold at a time, the others skip it.
            superviseOn(session, [](DbSession& db) {
                FailureGroupRepository(db).foldCounts();
                IdempotencyRepository(db).foldReplays();
                // A resume lets go of its rows itself; this completes one that was interrupted.
                OutboxRepository(db).releaseResumed(ResumeReleaseBatch);
                // After an upgrade from before schema 28, until a partition is analyzed with rows of the log in it,
                // the planner reads the log through the wrong indexes.
                OutboxRepository(db).analyzeForTheLog();
            });
        }
        if (nextFlush.hasExpired()) {
            nextFlush.setRemainingTime(m_options.metricsFlushMs);
            const bool sample = nextSample.hasExpired();
            if (sample)
                nextSample.setRemainingTime(m_options.backlogSampleMs);
            superviseOn(session, [&](DbSession& db) { keepBooks(db, sample); });
        }
    }
    for (std::thread& thread : threads)
        thread.join();
    m_dueWatch.stop();
    if (watch.joinable())
        watch.join();
    superviseOn(session, [&](DbSession& db) { keepBooks(db, true, ThroughputRecorder::Seconds::All); });
    superviseOn(session, [this](DbSession& db) { sendHeartbeat(db, true); });
    if (m_fatal)
        std::rethrow_exception(m_fatal);
    return m_tally.totals();
}
