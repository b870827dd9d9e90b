#include "databaseworkerthread.h"

#include "changenotifier.h"
#include "databaseworker.h"
#include "dbsession.h"
#include "outboxerror.h"
#include "schemamigrator.h"

#include <QSqlDriver>
#include <QTimer>

static constexpr int FirstReconnectDelayMs = 500;
static constexpr int MaxReconnectDelayMs = 30'000;

DatabaseWorkerThread::DatabaseWorkerThread(QString purpose)
    : m_purpose(std::move(purpose))
{
    setObjectName(m_purpose);
}

DatabaseWorkerThread::~DatabaseWorkerThread() = default;

void DatabaseWorkerThread::ensureTimers()
{
    if (m_reconnect)
        return;
    m_reconnect = new QTimer(this);
    m_reconnect->setSingleShot(true);
    connect(m_reconnect, &QTimer::timeout, this, [this] { connectNow(true); });
    m_heartbeat = new QTimer(this);
    m_heartbeat->setInterval(DatabaseWorker::HeartbeatMs);
    connect(m_heartbeat, &QTimer::timeout, this, [this] {
        execute([](DbSession* session) {
            if (session)
                session->exec(QStringLiteral("SELECT 1"), {}, QStringLiteral("checking the connection"));
        });
    });
}

void DatabaseWorkerThread::open(const ConnectionSettings& settings, bool listen)
{
    ensureTimers();
    m_reconnect->stop();
    m_session.reset();
    m_settings = settings;
    m_listen = listen;
    connectNow(false);
}

void DatabaseWorkerThread::connectNow(bool reconnecting)
{
    try {
        auto session = std::make_unique<DbSession>(m_settings, m_purpose);
        SchemaMigrator(*session).requireCurrent();
        const SessionInfo info = SessionInfo::read(*session);
        if (m_listen) {
            QSqlDriver* driver = session->database().driver();
            connect(driver, &QSqlDriver::notification, this, &DatabaseWorkerThread::changed);
            driver->subscribeToNotification(ChangeNotifier::Channel);
        }
        m_session = std::move(session);
        m_reconnectDelayMs = FirstReconnectDelayMs;
        m_heartbeat->start();
        if (reconnecting)
            emit reconnected(info);
        else
            emit connected(info);
    } catch (const OutboxError& error) {
        if (!reconnecting) {
            emit connectFailed(error.message());
            return;
        }
        m_reconnectDelayMs = qMin(m_reconnectDelayMs * 2, MaxReconnectDelayMs);
        m_reconnect->start(m_reconnectDelayMs);
    }
}

void DatabaseWorkerThread::lose(const QString& message)
{
    m_session.reset();
    m_heartbeat->stop();
    emit connectionLost(message);
    m_reconnectDelayMs = FirstReconnectDelayMs;
    m_reconnect->start(m_reconnectDelayMs);
}

void DatabaseWorkerThread::execute(const std::function<void(DbSession*)>& job)
{
    try {
        job(m_session.get());
    } catch (const OutboxError& error) {
        if (m_session && (error.kind() == OutboxError::Kind::Connection || m_session->isBroken()))
            lose(error.message());
    }
}
