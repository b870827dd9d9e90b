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
            RelayWorker worker(session, *sink, m_metrics, m_options, name);
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

// Metric flushes and backlog samples. Failures must not stop publishing: the counters stay queued for the
// next flush, and a lost connection is opened afresh on the next round.
void OutboxRelay::keepBooks(std::unique_ptr<DbSession>& session, bool sampleBacklog)
{
    try {
        if (!session)
            session = std::make_unique<DbSession>(m_settings, QStringLiteral("relay-supervisor"));
        m_metrics.flush(*session);
        if (sampleBacklog)
            MetricsRepository(*session).recordBacklogSample(
                OutboxReadRepository(*session).sampleBacklog(BacklogCountCap));
    } catch (const OutboxError& error) {
        log(QStringLiteral("relay bookkeeping: %1").arg(error.message()));
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

    QDeadlineTimer nextSample(0);
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait_for(
                lock, std::chrono::milliseconds(m_options.metricsFlushMs), [this] { return m_running == 0; });
            if (m_running == 0)
                break;
        }
        const bool sample = nextSample.hasExpired();
        if (sample)
            nextSample.setRemainingTime(m_options.backlogSampleMs);
        keepBooks(session, sample);
    }
    for (std::thread& thread : threads)
        thread.join();
    keepBooks(session, true);
    if (m_fatal)
        std::rethrow_exception(m_fatal);
    return m_totals;
}
