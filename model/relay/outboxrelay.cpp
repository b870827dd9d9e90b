// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/outboxrelay.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "metrics/metricsrepository.h"
#include "outbox/outboxreadrepository.h"
#include "relay/relayworker.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QSysInfo>
#include <thread>
#include <vector>

static constexpr int BacklogCountCap = 100'000;
static constexpr qint64 ReconnectMaxMs = 30'000;

OutboxRelay::OutboxRelay(ConnectionSettings settings, MessageSinkFactory sinks, RelayOptions options)
    : m_settings(std::move(settings))
    , m_sinks(std::move(sinks))
    , m_options(std::move(options))
{
    if (m_options.workerName.isEmpty())
        m_options.workerName
            = QStringLiteral("%1:%2").arg(QSysInfo::machineHostName()).arg(QCoreApplication::applicationPid());
    m_settings.setDefaultApplicationName(QStringLiteral("outbox-relay"));
}

void OutboxRelay::log(const QString& message) const
{
    if (m_options.log)
        m_options.log(message);
    else
        qInfo().noquote() << message;
}

void OutboxRelay::stop()
{
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    m_wake.notify_all();
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
}

void OutboxRelay::addTotals(const RelayBatchResult& batch, bool rescue)
{
    std::lock_guard lock(m_mutex);
    m_totals.claimed += batch.claimed;
    m_totals.published += batch.published;
    m_totals.dead += batch.dead;
    m_totals.fenced += batch.fenced;
    (rescue ? m_totals.rescued : m_totals.failed) += batch.failed;
}

static bool isRecoverable(const OutboxError& error)
{
    return error.kind() == OutboxError::Kind::Connection || error.kind() == OutboxError::Kind::Transient
        || error.kind() == OutboxError::Kind::Broker;
}

void OutboxRelay::workerLoop(int index)
{
    const QString name = QStringLiteral("%1/w%2").arg(m_options.workerName).arg(index);
    qint64 reconnectDelayMs = 500;
    for (;;) {
        try {
            DbSession session(m_settings, QStringLiteral("relay"));
            const std::unique_ptr<MessageSink> sink = m_sinks();
            RelayWorker worker(session, *sink, m_metrics, m_options, name, &m_leases);
            QDeadlineTimer nextRescue(0);
            for (;;) {
                {
                    std::lock_guard lock(m_mutex);
                    if (m_stopping)
                        return;
                }
                if (nextRescue.hasExpired()) {
                    const RelayBatchResult rescued = worker.rescueExpiredLeases();
                    if (rescued.failed > 0) {
                        log(QStringLiteral("%1: rescued %2 rows whose lease expired (%3 now dead)")
                                .arg(name)
                                .arg(rescued.failed)
                                .arg(rescued.dead));
                    }
                    addTotals(rescued, true);
                    nextRescue.setRemainingTime(m_options.rescueIntervalMs);
                }
                const RelayBatchResult batch = worker.processBatch();
                reconnectDelayMs = 500; // only a batch that went through proves the database and the broker work
                addTotals(batch, false);
                if (batch.claimed == 0) {
                    if (m_options.once)
                        return;
                    if (!waitUnlessStopping(m_options.idlePollMs))
                        return;
                }
            }
        } catch (const OutboxError& error) {
            if (m_options.once || !isRecoverable(error)) {
                fail(std::current_exception());
                return;
            }
            log(QStringLiteral("%1: %2; retrying in %3 ms").arg(name, error.message()).arg(reconnectDelayMs));
        } catch (...) {
            fail(std::current_exception());
            return;
        }
        if (!waitUnlessStopping(reconnectDelayMs))
            return;
        reconnectDelayMs = qMin(reconnectDelayMs * 2, ReconnectMaxMs);
    }
}

// The lease heartbeat, metric flushes and backlog samples, on the supervisor's connection. Failures must not stop
// publishing: counters stay queued for the next flush, an unextended lease runs out as it would after a crash,
// and a lost connection is opened afresh on the next round.
void OutboxRelay::superviseOn(
    std::unique_ptr<DbSession>& session, const QString& what, const std::function<void(DbSession&)>& work)
{
    try {
        if (!session)
            session = std::make_unique<DbSession>(m_settings, QStringLiteral("relay-supervisor"));
        work(*session);
    } catch (const OutboxError& error) {
        log(QStringLiteral("relay %1: %2").arg(what, error.message()));
        if (error.kind() == OutboxError::Kind::Connection)
            session.reset();
    }
}

RelayTotals OutboxRelay::run()
{
    // Opened up front so that an unreachable server fails the call instead of every worker.
    auto session = std::make_unique<DbSession>(m_settings, QStringLiteral("relay-supervisor"));
    {
        std::lock_guard lock(m_mutex);
        m_running = m_options.workers;
    }
    std::vector<std::thread> threads;
    threads.reserve(m_options.workers);
    for (int i = 0; i < m_options.workers; ++i) {
        threads.emplace_back([this, i] {
            workerLoop(i);
            std::lock_guard lock(m_mutex);
            --m_running;
            m_wake.notify_all();
        });
    }

    const auto keepBooks = [this](DbSession& db, bool sampleBacklog) {
        m_metrics.flush(db);
        if (sampleBacklog)
            MetricsRepository(db).recordBacklogSample(OutboxReadRepository(db).sampleBacklog(BacklogCountCap));
    };
    // A third of the lease leaves two chances to extend before a lease could run out.
    const qint64 heartbeatMs = qMax<qint64>(m_options.leaseMs / 3, 50);
    QDeadlineTimer nextSample(0);
    QDeadlineTimer nextFlush(m_options.metricsFlushMs);
    QDeadlineTimer nextHeartbeat(heartbeatMs);
    for (;;) {
        {
            const qint64 waitMs = qMax<qint64>(0, qMin(nextFlush.remainingTime(), nextHeartbeat.remainingTime()));
            std::unique_lock lock(m_mutex);
            m_wake.wait_for(lock, std::chrono::milliseconds(waitMs), [this] { return m_running == 0; });
            if (m_running == 0)
                break;
        }
        if (nextHeartbeat.hasExpired()) {
            nextHeartbeat.setRemainingTime(heartbeatMs);
            superviseOn(session, QStringLiteral("lease heartbeat"),
                [this](DbSession& db) { m_leases.extend(db, m_options.leaseMs); });
        }
        if (nextFlush.hasExpired()) {
            nextFlush.setRemainingTime(m_options.metricsFlushMs);
            const bool sample = nextSample.hasExpired();
            if (sample)
                nextSample.setRemainingTime(m_options.backlogSampleMs);
            superviseOn(session, QStringLiteral("bookkeeping"), [&](DbSession& db) { keepBooks(db, sample); });
        }
    }
    for (std::thread& thread : threads)
        thread.join();
    superviseOn(session, QStringLiteral("bookkeeping"), [&](DbSession& db) { keepBooks(db, true); });
    if (m_fatal)
        std::rethrow_exception(m_fatal);
    return m_totals;
}
