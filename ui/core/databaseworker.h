// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"
#include "operations/sessioninfo.h"

#include <QObject>
#include <functional>
#include <memory>

class DbSession;
class OutboxError;
class QueryCanceller;
class QTimer;

// The part of a DatabaseClient that lives in its thread: the connection, its reconnect and heartbeat
// timers and the LISTEN subscription. Everything here runs in the worker thread only.
class DatabaseWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DatabaseWorker)
public:
    DatabaseWorker(QString purpose, std::shared_ptr<QueryCanceller> canceller);
    ~DatabaseWorker() final override;

    // `retryFirstFailure`: DatabaseClient::FirstFailure::Retry.
    void open(const ConnectionSettings& settings, bool listen, bool retryFirstFailure);
    void execute(const std::function<void(DbSession*)>& job);
    // The liveness check: a round trip on the connection, which reports it lost if it is.
    void ping();

signals:
    void connected(const SessionInfo& info);
    void connectFailed(const QString& message);
    void connectionLost(const QString& message);
    void stillUnreachable(const QString& message, int nextAttemptInMs);
    void reconnected(const SessionInfo& info);
    void changed();

private:
    void connectNow(bool reconnecting);
    void setSession(std::unique_ptr<DbSession> session);
    void lose(const QString& message);
    // lose() when `error` broke the connection.
    void loseIfBroken(const OutboxError& error);
    void ensureTimers();

    QString m_purpose;
    ConnectionSettings m_settings;
    bool m_listen = false;
    bool m_retryFirstFailure = false;
    std::shared_ptr<QueryCanceller> m_canceller; // aimed at m_session
    std::unique_ptr<DbSession> m_session;
    QTimer* m_reconnect = nullptr;
    QTimer* m_heartbeat = nullptr;
    int m_reconnectDelayMs = 0;
};
