// SPDX-License-Identifier: GPL-3.0-or-later
#include "ordershttpapi.h"

#include "common/diagnosticlog.h"
#include "common/prometheusformat.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "idempotency/idempotencyrepository.h"
#include "operations/outboxoverview.h"
#include "orders/ordersrepository.h"
#include "outbox/outboxreadrepository.h"

#include <QHttpServer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QLocale>
#include <QStringDecoder>
#include <cmath>
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

// A field of the request body that is present but of the wrong type, or required and missing.
struct FieldProblem {
    QString field;
    QString message;
};

// JSON numbers are doubles; the shortest text that reads back as the same double is what the client wrote
// (12.5 -> "12.5", 0.1 -> "0.1"), never a binary artefact like 12.4999... More than two fraction digits, a
// sign or an exponent-sized value are left for the handler's decimal validation to refuse.
QString amountText(double amount)
{
    return QString::number(amount, 'f', QLocale::FloatingPointShortest);
}

std::optional<FieldProblem> readBody(const QJsonObject& body, CreateOrderRequest& request)
{
    const QJsonValue customer = body.value(QStringLiteral("customer"));
    if (!customer.isString())
        return FieldProblem { QStringLiteral("customer"), QStringLiteral("customer must be a string") };
    request.customer = customer.toString();

    const QJsonValue amount = body.value(QStringLiteral("amount"));
    if (amount.isString())
        request.amount = amount.toString();
    else if (amount.isDouble() && std::isfinite(amount.toDouble()))
        request.amount = amountText(amount.toDouble());
    else
        return FieldProblem { QStringLiteral("amount"), QStringLiteral("amount must be a number or a decimal string") };

    const QJsonValue currency = body.value(QStringLiteral("currency"));
    if (currency.isString())
        request.currency = currency.toString();
    else if (!currency.isUndefined())
        return FieldProblem { QStringLiteral("currency"), QStringLiteral("currency must be a string") };
    return std::nullopt;
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

OrdersHttpApi::OrdersHttpApi(ConnectionSettings settings, std::unique_ptr<DbSession> session)
    : m_settings(std::move(settings))
    , m_session(std::move(session))
    , m_database(QStringLiteral("database"), DiagnosticLog::event)
{ }

void OrdersHttpApi::noteFailure(const OutboxError& error)
{
    if (error.kind() == OutboxError::Kind::Connection)
        m_database.reportDown(error.message());
}

QHttpServerResponse OrdersHttpApi::unavailable(const OutboxError& error)
{
    noteFailure(error);
    return errorResponse(503, QStringLiteral("unavailable"), error.message());
}

OrdersHttpApi::~OrdersHttpApi() = default;

void OrdersHttpApi::registerRoutes(QHttpServer& server)
{
    using Method = QHttpServerRequest::Method;
    using Methods = QHttpServerRequest::Methods;
    server.route(QStringLiteral("/orders"), Method::Post,
        [this](const QHttpServerRequest& request) { return createOrder(request); });
    server.route(QStringLiteral("/orders/<arg>"), Method::Get, [this](const QString& id) { return findOrder(id); });
    server.route(QStringLiteral("/healthz"), Method::Get, [this] { return health(); });
    server.route(QStringLiteral("/metrics"), Method::Get, [this] { return metrics(); });
    // A known path with another method is 405 naming the allowed one (RFC 9110), not 404. Routes match in the
    // order they were added, so these only see what the ones above did not take.
    const Methods others = Methods(Method::AnyKnown) & ~Methods(Method::Post);
    const Methods notGet = Methods(Method::AnyKnown) & ~Methods(Method::Get);
    server.route(QStringLiteral("/orders"), others, [] { return methodNotAllowed(QByteArrayLiteral("POST")); });
    server.route(QStringLiteral("/orders/<arg>"), notGet,
        [](const QString&) { return methodNotAllowed(QByteArrayLiteral("GET")); });
    for (const QString& path : { QStringLiteral("/healthz"), QStringLiteral("/metrics") })
        server.route(path, notGet, [] { return methodNotAllowed(QByteArrayLiteral("GET")); });
}

DbSession& OrdersHttpApi::session()
{
    if (!m_session || m_session->isBroken()) {
        m_session.reset();
        m_session = std::make_unique<DbSession>(m_settings, QStringLiteral("orders-service"));
    }
    return *m_session;
}

QHttpServerResponse OrdersHttpApi::countedResponse(Outcome outcome, QHttpServerResponse response)
{
    ++m_outcomes[size_t(outcome)];
    return response;
}

QHttpServerResponse OrdersHttpApi::createOrder(const QHttpServerRequest& request)
{
    // Qt HTTP Server 6.4 has no request size limit: it buffers the whole body in memory before this runs,
    // and a slow client can hold its connection open indefinitely. This check only keeps large bodies away
    // from the JSON parser and the database; a reverse proxy in front of the service has to cap body size,
    // header size and request time.
    if (request.body().size() > MaxBodyBytes)
        return countedResponse(Outcome::BadRequest,
            errorResponse(413, QStringLiteral("payload_too_large"),
                QStringLiteral("the body is larger than %1 bytes").arg(MaxBodyBytes)));
    if (!isJson(request.value(QByteArrayLiteral("Content-Type"))))
        return countedResponse(Outcome::BadRequest,
            errorResponse(415, QStringLiteral("unsupported_media_type"),
                QStringLiteral("the body must be sent as application/json")));

    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return countedResponse(Outcome::BadRequest,
            errorResponse(400, QStringLiteral("bad_request"),
                parseError.error != QJsonParseError::NoError ? QStringLiteral("invalid JSON at offset %1: %2")
                                                                   .arg(parseError.offset)
                                                                   .arg(parseError.errorString())
                                                             : QStringLiteral("the body must be a JSON object")));

    CreateOrderRequest order;
    const std::optional<QString> key = idempotencyKey(request);
    if (!key)
        return countedResponse(Outcome::BadRequest,
            errorResponse(400, QStringLiteral("bad_request"),
                QStringLiteral("the Idempotency-Key header is not valid UTF-8"), QStringLiteral("idempotency_key")));
    order.key = *key;
    if (const auto problem = readBody(document.object(), order))
        return countedResponse(
            Outcome::BadRequest, errorResponse(400, QStringLiteral("bad_request"), problem->message, problem->field));

    try {
        const CreateOrderResult result = CreateOrderHandler(session(), m_metrics).handle(order);
        m_database.reportUp();
        QHttpServerResponse response = jsonResponse(result.httpStatus, result.body);
        if (result.outcome == Outcome::Replayed)
            response.setHeader(QByteArrayLiteral("Idempotent-Replayed"), QByteArrayLiteral("true"));
        if (result.outcome == Outcome::InProgress)
            response.setHeader(QByteArrayLiteral("Retry-After"), QByteArray::number(result.retryAfterSeconds));
        return countedResponse(result.outcome, std::move(response));
    } catch (const OutboxError& error) {
        // Nothing was committed: like the handler's own Failed, the client may retry with the same key.
        return countedResponse(Outcome::Failed, unavailable(error));
    }
}

QHttpServerResponse OrdersHttpApi::findOrder(const QString& id)
{
    bool ok = false;
    const qint64 orderId = id.toLongLong(&ok);
    if (!ok || orderId <= 0)
        return errorResponse(400, QStringLiteral("bad_request"),
            QStringLiteral("the order id '%1' is not a positive integer").arg(id), QStringLiteral("id"));
    try {
        const auto order = OrdersRepository(session()).find(orderId);
        m_database.reportUp();
        if (order)
            return QHttpServerResponse(QByteArrayLiteral("application/json"), *order, Status::Ok);
        return errorResponse(404, QStringLiteral("not_found"), QStringLiteral("there is no order %1").arg(orderId));
    } catch (const OutboxError& error) {
        return unavailable(error);
    }
}

QHttpServerResponse OrdersHttpApi::health()
{
    try {
        session().exec(QStringLiteral("SELECT 1"), {}, QStringLiteral("checking the connection"));
        m_database.reportUp();
        return jsonResponse(200, QJsonObject { { QStringLiteral("status"), QStringLiteral("ok") } });
    } catch (const OutboxError& error) {
        return unavailable(error);
    }
}

QHttpServerResponse OrdersHttpApi::metrics()
{
    PrometheusFormat format;
    QList<QPair<QString, qint64>> outcomes;
    for (size_t i = 0; i < m_outcomes.size(); ++i)
        outcomes.append({ CreateOrderResult::outcomeName(Outcome(i)), m_outcomes[i] });
    format.addCounter(QStringLiteral("orders_service_requests_total"),
        QStringLiteral("POST /orders requests answered by this process, by outcome (bad_request includes 413 and "
                       "415, failed includes database errors)."),
        QStringLiteral("outcome"), outcomes);
    // Without the database the backlog is unknown: the gauges are left out rather than reported as zero.
    try {
        const BacklogSample backlog = OutboxReadRepository(session()).sampleBacklog(OutboxOverview::CountCap);
        format.addGauge(QStringLiteral("outbox_backlog_messages"),
            QStringLiteral("Unpublished outbox rows (pending, in flight, failed), counted up to %1.")
                .arg(OutboxOverview::CountCap),
            double(backlog.unpublished));
        format.addGauge(QStringLiteral("outbox_oldest_unpublished_age_seconds"),
            QStringLiteral("Age of the oldest unpublished outbox row; 0 when nothing waits."),
            double(backlog.oldestUnpublishedAgeMs) / 1000.0);
    } catch (const OutboxError& error) {
        noteFailure(error);
    }
    return QHttpServerResponse(PrometheusFormat::ContentType, format.text(), Status::Ok);
}

void OrdersHttpApi::flushMetrics()
{
    try {
        m_metrics.flush(session());
        IdempotencyRepository(session()).foldReplays();
    } catch (const OutboxError& error) {
        noteFailure(error); // the counters are kept by the recorder for the next flush
    }
}
