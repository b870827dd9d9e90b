// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"
#include "db/outagetracker.h"
#include "db/sessionpool.h"
#include "metrics/metricsrecorder.h"
#include "orders/createorderhandler.h"
#include "outbox/backlogsample.h"

#include <array>
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>

class OutboxError;
class QHttpServer;
class QHttpServerRequest;
class QHttpServerResponder;
class QHttpServerResponse;

// The HTTP face of CreateOrderHandler and the order reads, plus health and metrics.
//
// Qt HTTP Server 6.4 calls every route on the thread that owns the QHttpServer. That thread only parses and
// validates; whatever needs the database runs on a SessionPool of worker connections, and the answer is written
// back on the HTTP thread in the order the connection's requests came (OrderedResponses). When the pool's queue is
// full a request is answered 503 with Retry-After at once. Duplicates racing through several workers (or several
// service processes) are resolved by the database, in the idempotency claim.
class OrdersHttpApi final {
    Q_DISABLE_COPY_MOVE(OrdersHttpApi)
public:
    // Larger bodies are refused with 413 before they are parsed.
    static constexpr qsizetype MaxBodyBytes = 64LL * 1024;

    struct Pool {
        int connections; // database connections, each on a thread of its own
        int queueCapacity; // requests that may wait for one; more are answered 503 at once
    };
    OrdersHttpApi(const ConnectionSettings& settings, Pool pool);
    ~OrdersHttpApi();

    // Routes `server`, whose thread must be the caller's.
    void registerRoutes(QHttpServer& server);

    // Writes the handler's counters to metric_rollups (on the pool), so the console's charts see this service's
    // traffic. A failure keeps them for the next call.
    void flushMetrics();

    // Calls `idle` on the HTTP thread once every request taken so far is answered (at once if none is pending).
    void whenIdle(std::function<void()> idle);

private:
    using Work = std::function<QHttpServerResponse(SessionPool::Connection& connection)>;
    // Runs `work` on the pool and answers with its response; 503 and Retry-After when the queue is full.
    void answerLater(QHttpServerResponder&& responder, Work work);
    void answerNow(QHttpServerResponder&& responder, QHttpServerResponse&& response);
    void finishedOne();

    void createOrder(const QHttpServerRequest& request, QHttpServerResponder&& responder);
    QHttpServerResponse createOrderWith(SessionPool::Connection& connection, const CreateOrderRequest& order);
    QHttpServerResponse findOrder(SessionPool::Connection& connection, qint64 id);
    QHttpServerResponse health(SessionPool::Connection& connection);
    // From counters and the backlog sampled with each flush: /metrics never waits for the database, so it answers
    // also when every connection is busy.
    QHttpServerResponse metrics();

    QHttpServerResponse countedResponse(CreateOrderResult::Outcome outcome, QHttpServerResponse response);
    // 503 for a request the database could not serve on `connection`; an outage is logged once, when it begins.
    QHttpServerResponse unavailable(const OutboxError& error, SessionPool::Connection& connection);
    // A connection error closes `connection` and reports the database down, unless `connection` is a leftover of
    // the last outage.
    void noteFailure(const OutboxError& error, SessionPool::Connection& connection);
    // The database served a request on `connection`.
    void noteSuccess(SessionPool::Connection& connection);

    MetricsRecorder m_metrics;
    OutageTracker m_database;
    std::array<std::atomic<qint64>, int(CreateOrderResult::Outcome::Failed) + 1> m_outcomes {};
    std::atomic<qint64> m_overloaded { 0 }; // answered 503 because the queue was full
    std::atomic<bool> m_flushQueued { false };
    std::mutex m_backlogMutex;
    std::optional<BacklogSample> m_backlog; // nullopt while the database is away
    QHttpServer* m_server = nullptr; // the HTTP thread's context for answers from the pool
    int m_pending = 0; // requests taken and not answered yet (HTTP thread)
    std::function<void()> m_whenIdle;
    SessionPool m_pool; // last: its destructor runs the queued work, which uses everything above
};
