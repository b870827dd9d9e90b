// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"
#include "db/outagetracker.h"
#include "metrics/metricsrecorder.h"
#include "orders/createorderhandler.h"

#include <array>
#include <memory>

class DbSession;
class OutboxError;
class QHttpServer;
class QHttpServerRequest;
class QHttpServerResponse;

// The HTTP face of CreateOrderHandler and the order reads, plus health and metrics.
//
// Every handler runs on the thread that owns the QHttpServer (Qt HTTP Server 6.4 calls routes there) and
// uses this object's one DbSession, so requests are served one at a time. That bounds throughput, not
// correctness: duplicates racing through several service processes are resolved by the database (the
// idempotency claim), exactly as they would be between worker threads.
class OrdersHttpApi final {
    Q_DISABLE_COPY_MOVE(OrdersHttpApi)
public:
    // Larger bodies are refused with 413 before they are parsed.
    static constexpr qsizetype MaxBodyBytes = 64LL * 1024;

    OrdersHttpApi(ConnectionSettings settings, std::unique_ptr<DbSession> session);
    ~OrdersHttpApi();

    void registerRoutes(QHttpServer& server);

    // Writes the handler's counters to metric_rollups, so the console's charts see this service's traffic.
    // A failure keeps them for the next call.
    void flushMetrics();

private:
    QHttpServerResponse createOrder(const QHttpServerRequest& request);
    QHttpServerResponse findOrder(const QString& id);
    QHttpServerResponse health();
    QHttpServerResponse metrics();

    // The session, reopened if the connection was lost. Throws OutboxError(Connection) while the server is away.
    DbSession& session();
    QHttpServerResponse countedResponse(CreateOrderResult::Outcome outcome, QHttpServerResponse response);
    // 503 for a request the database could not serve; an outage is logged once, when it begins.
    QHttpServerResponse unavailable(const OutboxError& error);
    void noteFailure(const OutboxError& error);

    ConnectionSettings m_settings;
    std::unique_ptr<DbSession> m_session;
    MetricsRecorder m_metrics;
    OutageTracker m_database;
    std::array<qint64, int(CreateOrderResult::Outcome::Failed) + 1> m_outcomes {};
};
