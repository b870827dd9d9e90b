// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/databaseworker.h"

#include "core/databaseclient.h"
#include "db/changenotifier.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/querycanceller.h"
#include "db/schemamigrator.h"

#include <QTimer>

static constexpr int FirstReconnectDelayMs = 500;
// One console is one client: an attempt every 10 s (plus the connect timeout, under a blackhole) costs a server
// nothing and brings the lists back within seconds of the network.
static constexpr int MaxReconnectDelayMs = 10'000;

DatabaseWorker::DatabaseWorker(QString purpose, std::shared_ptr<QueryCanceller> canceller)
    : m_purpose(std::move(purpose))
    , m_canceller(std::move(canceller))
{
    setObjectName(m_purpose);
}

DatabaseWorker::~DatabaseWorker() = default;

void DatabaseWorker::ensureTimers()
{
    if (m_reconnect)
        return;
    m_reconnect = new QTimer(this);
    m_reconnect->setSingleShot(true);
    connect(m_reconnect, &QTimer::timeout, this, [this] { connectNow(true); });
    m_heartbeat = new QTimer(this);
    m_heartbeat->setInterval(DatabaseClient::HeartbeatMs);
    connect(m_heartbeat, &QTimer::timeout, this, &DatabaseWorker::ping);
}

void DatabaseWorker::ping()
{
    // Lost, and waiting out the backoff for the next attempt: asked now (another connection to the database was
    // just lost, or just came back, after a failover on another server), this one tries now rather than up to
    // 10 s later, while the banner would still say the database is unreachable.
    if (!m_session && m_reconnect && m_reconnect->isActive()) {
        m_reconnect->stop();
        connectNow(true);
        return;
    }
    execute([](DbSession* session) {
        if (session)
            session->ping();
    });
}

void DatabaseWorker::open(const ConnectionSettings& settings, bool listen, bool retryFirstFailure)
{
    ensureTimers();
    m_reconnect->stop();
    setSession(nullptr);
    m_settings = settings;
    m_listen = listen;
    m_retryFirstFailure = retryFirstFailure;
    connectNow(false);
}

void DatabaseWorker::connectNow(bool reconnecting)
{
    try {
        auto session = std::make_unique<DbSession>(m_settings, m_purpose);
        session->planEachSearch();
        SchemaMigrator(*session).requireCurrent();
        const SessionInfo info = SessionInfo::read(*session);
        // Behind a transaction pooler a LISTEN would stay on a server session other clients get: the console polls
        // instead (MainWindow says so).
        if (m_listen && !session->isTransactionPooled())
            ChangeNotifier::subscribe(*session, this, [this] { emit changed(); });
        setSession(std::move(session));
        m_reconnectDelayMs = FirstReconnectDelayMs;
        m_heartbeat->start();
        if (reconnecting)
            emit reconnected(info);
        else
            emit connected(info);
    } catch (const OutboxError& error) {
        if (!reconnecting) {
            emit connectFailed(error.message());
            if (m_retryFirstFailure) {
                m_reconnectDelayMs = FirstReconnectDelayMs;
                m_reconnect->start(m_reconnectDelayMs);
            }
            return;
        }
        m_reconnectDelayMs = qMin(m_reconnectDelayMs * 2, MaxReconnectDelayMs);
        m_reconnect->start(m_reconnectDelayMs);
        emit stillUnreachable(error.message(), m_reconnectDelayMs);
    }
}

void DatabaseWorker::setSession(std::unique_ptr<DbSession> session)
{
    m_canceller->target(session.get());
    m_session = std::move(session);
}

void DatabaseWorker::lose(const QString& message)
{
    setSession(nullptr);
    m_heartbeat->stop();
    emit connectionLost(message);
    m_reconnectDelayMs = FirstReconnectDelayMs;
    m_reconnect->start(m_reconnectDelayMs);
}

void DatabaseWorker::execute(const std::function<void(DbSession*)>& job)
{
    try {
        job(m_session.get());
    } catch (const FailedWork& failure) {
        loseIfBroken(failure.error);
        failure.report();
    } catch (const OutboxError& error) {
        loseIfBroken(error);
    }
}

void DatabaseWorker::loseIfBroken(const OutboxError& error)
{
    if (m_session && (error.kind() == OutboxError::Kind::Connection || m_session->isBroken()))
        lose(error.message());
}
