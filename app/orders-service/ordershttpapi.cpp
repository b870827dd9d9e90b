// SPDX-License-Identifier: GPL-3.0-or-later
#include "ordershttpapi.h"

#include "common/diagnosticlog.h"
#include "common/orderedresponses.h"
#include "common/prometheusformat.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "idempotency/idempotencyrepository.h"
#include "orders/ordersrepository.h"
#include "outbox/outboxreadrepository.h"

#include <QHttpServer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QStringDecoder>
#include <optional>

namespace {

using Outcome = CreateOrderResult::Outcome;
using Status = QHttpServerResponder::StatusCode;

QHttpServerResponse jsonResponse(int status, const QJsonObject& body)
{
    return QHttpServerResponse(
        QByteArrayLiteral("application/json"), QJsonDocument(body).toJson(QJsonDocument::Compact), Status(status));
}

QHttpServerResponse errorResponse(int status, const QString& code, const QString& message, const QString& field = {})
{
    QJsonObject body { { QStringLiteral("error"), code }, { QStringLiteral("message"), message } };
    if (!field.isEmpty())
        body.insert(QStringLiteral("field"), field);
    return jsonResponse(status, body);
}

QHttpServerResponse methodNotAllowed(const QByteArray& allowed)
{
    QHttpServerResponse response = errorResponse(405, QStringLiteral("method_not_allowed"),
        QStringLiteral("this path answers %1 only").arg(QString::fromLatin1(allowed)));
    response.setHeader(QByteArrayLiteral("Allow"), allowed);
    return response;
}

// The Idempotency-Key as text, or nullopt when its bytes are not UTF-8: decoding them anyway would turn every
// invalid sequence into U+FFFD, and two different keys could become one.
std::optional<QString> idempotencyKey(const QHttpServerRequest& request)
{
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString key = utf8(request.value(QByteArrayLiteral("Idempotency-Key")));
    if (utf8.hasError())
        return std::nullopt;
    return key;
}

bool isJson(const QByteArray& contentType)
{
    return contentType.split(';').constFirst().trimmed().toLower() == "application/json";
}

} // namespace

OrdersHttpApi::OrdersHttpApi(const ConnectionSettings& settings, Pool pool)
    : m_database(QStringLiteral("database"), DiagnosticLog::event)
    , m_pool(settings, QStringLiteral("orders-service"), pool.connections, pool.queueCapacity)
{ }

OrdersHttpApi::~OrdersHttpApi() = default;

void OrdersHttpApi::noteFailure(const OutboxError& error, SessionPool::Connection& connection)
{
    if (error.kind() != OutboxError::Kind::Connection)
        return;
    // A connection that last worked before the last outage ended sat idle through it (on a failover's old leader,
    // it learns of its loss at its TCP user timeout, after the others reconnected): a leftover of that outage, not
    // a new one.
    if (!m_database.recoveredSince(connection.workedAt()))
        m_database.reportDown(error.message());
    // It goes whatever the cause: a server demoted to read-only (25006) keeps it open, and only a new one reaches
    // the writable server of a multi-host DSN.
    connection.drop();
}

void OrdersHttpApi::noteSuccess(SessionPool::Connection& connection)
{
    m_database.reportUp();
    connection.markWorked(); // after reportUp: a connection that ended an outage is no leftover of it
}

QHttpServerResponse OrdersHttpApi::unavailable(const OutboxError& error, SessionPool::Connection& connection)
{
    noteFailure(error, connection);
    return errorResponse(503, QStringLiteral("unavailable"), error.message());
}

void OrdersHttpApi::registerRoutes(QHttpServer& server)
{
    m_server = &server;
    using Method = QHttpServerRequest::Method;
    using Methods = QHttpServerRequest::Methods;
    server.route(QStringLiteral("/orders"), Method::Post,
        [this](const QHttpServerRequest& request, QHttpServerResponder&& responder) {
            createOrder(request, std::move(responder));
        });
    server.route(
        QStringLiteral("/orders/<arg>"), Method::Get, [this](const QString& id, QHttpServerResponder&& responder) {
            bool ok = false;
            const qint64 orderId = id.toLongLong(&ok);
            if (!ok || orderId <= 0) {
                return answerNow(std::move(responder),
                    errorResponse(400, QStringLiteral("bad_request"),
                        QStringLiteral("the order id '%1' is not a positive integer").arg(id), QStringLiteral("id")));
            }
            answerLater(
                std::move(responder), [this, orderId](SessionPool::Connection& c) { return findOrder(c, orderId); });
        });
    server.route(QStringLiteral("/healthz"), Method::Get, [this](QHttpServerResponder&& responder) {
        answerLater(std::move(responder), [this](SessionPool::Connection& c) { return health(c); });
    });
    server.route(QStringLiteral("/metrics"), Method::Get,
        [this](QHttpServerResponder&& responder) { answerNow(std::move(responder), metrics()); });
    // A known path with another method is 405 naming the allowed one (RFC 9110), not 404. Routes match in the
    // order they were added, so these only see what the ones above did not take.
    const Methods others = Methods(Method::AnyKnown) & ~Methods(Method::Post);
    const Methods notGet = Methods(Method::AnyKnown) & ~Methods(Method::Get);
    const auto refuse = [this](const QByteArray& allowed) {
        return [this, allowed](
                   QHttpServerResponder&& responder) { answerNow(std::move(responder), methodNotAllowed(allowed)); };
    };
    server.route(QStringLiteral("/orders"), others, refuse(QByteArrayLiteral("POST")));
    server.route(QStringLiteral("/orders/<arg>"), notGet, [this](const QString&, QHttpServerResponder&& responder) {
        answerNow(std::move(responder), methodNotAllowed(QByteArrayLiteral("GET")));
    });
    for (const QString& path : { QStringLiteral("/healthz"), QStringLiteral("/metrics") })
        server.route(path, notGet, refuse(QByteArrayLiteral("GET")));
    // Unknown paths too are answered in their connection's order.
    server.setMissingHandler([this](const QHttpServerRequest& request, QHttpServerResponder&& responder) {
        answerNow(std::move(responder),
            errorResponse(
                404, QStringLiteral("not_found"), QStringLiteral("there is no %1").arg(request.url().path())));
    });
}

void OrdersHttpApi::answerNow(QHttpServerResponder&& responder, QHttpServerResponse&& response)
{
    OrderedResponses* responses = OrderedResponses::of(responder.socket());
    responses->answer(responses->takeTicket(), std::move(responder), std::move(response));
}

void OrdersHttpApi::answerLater(QHttpServerResponder&& responder, Work work)
{
    OrderedResponses* responses = OrderedResponses::of(responder.socket());
    const quint64 ticket = responses->takeTicket();
    // Shared, because Qt 6.4's queued functors must be copyable; both are only touched on one thread at a time.
    auto waiting = std::make_shared<QHttpServerResponder>(std::move(responder));
    QPointer<OrderedResponses> connection(responses);
    ++m_pending;
    const bool queued = m_pool.trySubmit(
        [this, work = std::move(work), waiting, connection, ticket](SessionPool::Connection& database) {
            auto response = std::make_shared<QHttpServerResponse>(work(database));
            QMetaObject::invokeMethod(
                m_server,
                [this, waiting, connection, ticket, response] {
                    if (connection) // else the client went away: its answer is dropped, the work is done
                        connection->answer(ticket, std::move(*waiting), std::move(*response));
                    finishedOne();
                },
                Qt::QueuedConnection);
        });
    if (!queued) {
        QHttpServerResponse busy = errorResponse(503, QStringLiteral("overloaded"),
            QStringLiteral("every database connection is busy and the queue is full; retry shortly"));
        busy.setHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
        ++m_overloaded;
        responses->answer(ticket, std::move(*waiting), std::move(busy));
        finishedOne();
    }
}

void OrdersHttpApi::finishedOne()
{
    if (--m_pending == 0 && m_whenIdle)
        std::exchange(m_whenIdle, nullptr)();
}

void OrdersHttpApi::whenIdle(std::function<void()> idle)
{
    if (m_pending == 0)
        idle();
    else
        m_whenIdle = std::move(idle);
}

QHttpServerResponse OrdersHttpApi::countedResponse(Outcome outcome, QHttpServerResponse response)
{
    ++m_outcomes[size_t(outcome)];
    return response;
}

void OrdersHttpApi::createOrder(const QHttpServerRequest& request, QHttpServerResponder&& responder)
{
    // Qt HTTP Server 6.4 has no request size limit: it buffers the whole body in memory before this runs,
    // and a slow client can hold its connection open indefinitely. This check only keeps large bodies away
    // from the JSON parser and the database; a reverse proxy in front of the service has to cap body size,
    // header size and request time.
    const auto refuse = [&](QHttpServerResponse response) {
        answerNow(std::move(responder), countedResponse(Outcome::BadRequest, std::move(response)));
    };
    if (request.body().size() > MaxBodyBytes)
        return refuse(errorResponse(413, QStringLiteral("payload_too_large"),
            QStringLiteral("the body is larger than %1 bytes").arg(MaxBodyBytes)));
    if (!isJson(request.value(QByteArrayLiteral("Content-Type"))))
        return refuse(errorResponse(415, QStringLiteral("unsupported_media_type"),
            QStringLiteral("the body must be sent as application/json")));

    CreateOrderRequest order;
    if (const std::optional<OrderProblem> problem = order.readJsonBody(request.body()))
        return refuse(errorResponse(400, QStringLiteral("bad_request"), problem->message, problem->field));
    const std::optional<QString> key = idempotencyKey(request);
    if (!key)
        return refuse(errorResponse(400, QStringLiteral("bad_request"),
            QStringLiteral("the Idempotency-Key header is not valid UTF-8"), QStringLiteral("idempotency_key")));
    order.key = *key;
    answerLater(std::move(responder), [this, order](SessionPool::Connection& connection) {
        try {
            return createOrderWith(connection, order);
        } catch (const OutboxError& error) {
            // Nothing was committed: like the handler's own Failed, the client may retry with the same key.
            return countedResponse(Outcome::Failed, unavailable(error, connection));
        }
    });
}

QHttpServerResponse OrdersHttpApi::createOrderWith(SessionPool::Connection& connection, const CreateOrderRequest& order)
{
    const CreateOrderResult result = CreateOrderHandler(connection.session(), m_metrics).handle(order);
    noteSuccess(connection);
    QHttpServerResponse response = jsonResponse(result.httpStatus, result.body);
    if (result.outcome == Outcome::Replayed)
        response.setHeader(QByteArrayLiteral("Idempotent-Replayed"), QByteArrayLiteral("true"));
    if (result.outcome == Outcome::InProgress)
        response.setHeader(QByteArrayLiteral("Retry-After"), QByteArray::number(result.retryAfterSeconds));
    return countedResponse(result.outcome, std::move(response));
}

QHttpServerResponse OrdersHttpApi::findOrder(SessionPool::Connection& connection, qint64 id)
{
    try {
        const auto order = OrdersRepository(connection.session()).find(id);
        noteSuccess(connection);
        if (order)
            return QHttpServerResponse(QByteArrayLiteral("application/json"), *order, Status::Ok);
        return errorResponse(404, QStringLiteral("not_found"), QStringLiteral("there is no order %1").arg(id));
    } catch (const OutboxError& error) {
        return unavailable(error, connection);
    }
}

QHttpServerResponse OrdersHttpApi::health(SessionPool::Connection& connection)
{
    try {
        connection.session().exec(QStringLiteral("SELECT 1"), {}, QStringLiteral("checking the connection"));
        noteSuccess(connection);
        return jsonResponse(200, QJsonObject { { QStringLiteral("status"), QStringLiteral("ok") } });
    } catch (const OutboxError& error) {
        return unavailable(error, connection);
    }
}

QHttpServerResponse OrdersHttpApi::metrics()
{
    PrometheusFormat format;
    QList<QPair<QString, qint64>> outcomes;
    for (size_t i = 0; i < m_outcomes.size(); ++i)
        outcomes.append({ CreateOrderResult::outcomeName(Outcome(i)), m_outcomes[i].load() });
    format.addCounter(QStringLiteral("orders_service_requests_total"),
        QStringLiteral("POST /orders requests answered by this process, by outcome (bad_request includes 413 and "
                       "415, failed includes database errors)."),
        QStringLiteral("outcome"), outcomes);
    format.addCounter(QStringLiteral("orders_service_overloaded_total"),
        QStringLiteral("Requests answered 503 with Retry-After because every database connection was busy and the "
                       "queue was full."),
        m_overloaded.load());
    format.addGauge(QStringLiteral("orders_service_requests_waiting"),
        QStringLiteral("Requests waiting for a database connection."), double(m_pool.waiting()));
    // Without the database the backlog is unknown: the gauges are left out rather than reported as zero.
    const std::lock_guard lock(m_backlogMutex);
    if (m_backlog) {
        format.addGauge(QStringLiteral("outbox_backlog_messages"),
            QStringLiteral("Unpublished outbox rows (pending, in flight, failed), counted up to %1; sampled every "
                           "second.")
                .arg(BacklogSample::CountCap),
            double(m_backlog->unpublished));
        format.addGauge(QStringLiteral("outbox_oldest_unpublished_age_seconds"),
            QStringLiteral("Age of the oldest unpublished outbox row; 0 when nothing waits; sampled every second."),
            double(m_backlog->oldestUnpublishedAgeMs) / 1000.0);
    }
    return QHttpServerResponse(PrometheusFormat::ContentType, format.text(), Status::Ok);
}

void OrdersHttpApi::flushMetrics()
{
    // Not bounded by the queue (it must not take a client's place), but never more than one waits.
    if (m_flushQueued.exchange(true))
        return;
    m_pool.submit([this](SessionPool::Connection& connection) {
        m_flushQueued = false;
        std::optional<BacklogSample> backlog;
        try {
            m_metrics.flush(connection.session());
            IdempotencyRepository(connection.session()).foldReplays();
            backlog = OutboxReadRepository(connection.session()).sampleBacklog(BacklogSample::CountCap);
        } catch (const OutboxError& error) {
            noteFailure(error, connection); // the counters are kept by the recorder for the next flush
        }
        const std::lock_guard lock(m_backlogMutex);
        m_backlog = backlog;
    });
}
