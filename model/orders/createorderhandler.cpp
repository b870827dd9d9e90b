// SPDX-License-Identifier: GPL-3.0-or-later
#include "orders/createorderhandler.h"

#include "db/chainedstatement.h"
#include "idempotency/jsontext.h"
#include "idempotency/requestfingerprint.h"
#include "orders/ordersrepository.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>
#include <QRegularExpression>
#include <cmath>

const QString CreateOrderHandler::Operation = QStringLiteral("orders.create");

QString CreateOrderResult::outcomeName(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Created:
        return QStringLiteral("created");
    case Outcome::Replayed:
        return QStringLiteral("replayed");
    case Outcome::InProgress:
        return QStringLiteral("in_progress");
    case Outcome::Mismatch:
        return QStringLiteral("mismatch");
    case Outcome::BadRequest:
        return QStringLiteral("bad_request");
    case Outcome::Rejected:
        return QStringLiteral("rejected");
    case Outcome::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

namespace {

CreateOrderResult errorResult(
    CreateOrderResult::Outcome outcome, int status, const QString& code, const QString& message)
{
    CreateOrderResult result;
    result.outcome = outcome;
    result.httpStatus = status;
    result.body = QJsonObject { { QStringLiteral("error"), code }, { QStringLiteral("message"), message } };
    return result;
}

CreateOrderResult badRequest(const OrderProblem& problem)
{
    CreateOrderResult result
        = errorResult(CreateOrderResult::Outcome::BadRequest, 400, QStringLiteral("bad_request"), problem.message);
    result.body.insert(QStringLiteral("field"), problem.field);
    return result;
}

// Text that reaches the database as it was validated. JSON's \u escapes can spell U+0000, which PostgreSQL's text
// cannot hold, and unpaired surrogates, which UTF-8 cannot: either would be refused by the server (a 503 that a
// retry cannot cure) or stored as something else than the request's fingerprint says.
bool storable(const QString& text)
{
    return !text.contains(QChar(u'\0')) && QStringView(text).isValidUtf16();
}

QByteArray compact(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace

// JSON numbers are doubles; the shortest text that reads back as the same double is what the client wrote
// (12.5 -> "12.5", 0.1 -> "0.1"), never a binary artefact like 12.4999... More than two fraction digits, a
// sign or an exponent-sized value are left for the decimal validation to refuse.
static QString amountText(double amount)
{
    return QString::number(amount, 'f', QLocale::FloatingPointShortest);
}

std::optional<OrderProblem> CreateOrderRequest::readJsonBody(const QByteArray& body)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return OrderProblem { {},
            QStringLiteral("invalid JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()) };
    }
    if (const std::optional<qsizetype> at = JsonText::controlCharacterInString(body)) {
        return OrderProblem { {},
            QStringLiteral("invalid JSON at offset %1: a control character inside a string (escape it)").arg(*at) };
    }
    if (!document.isObject())
        return OrderProblem { {}, QStringLiteral("the body must be a JSON object") };
    const QJsonObject object = document.object();
    const QJsonValue customerValue = object.value(QStringLiteral("customer"));
    if (!customerValue.isString())
        return OrderProblem { QStringLiteral("customer"), QStringLiteral("customer must be a string") };
    const QJsonValue amountValue = object.value(QStringLiteral("amount"));
    QString amountTextValue;
    if (amountValue.isString())
        amountTextValue = amountValue.toString();
    else if (amountValue.isDouble() && std::isfinite(amountValue.toDouble()))
        amountTextValue = amountText(amountValue.toDouble());
    else
        return OrderProblem { QStringLiteral("amount"), QStringLiteral("amount must be a number or a decimal string") };
    const QJsonValue currencyValue = object.value(QStringLiteral("currency"));
    if (!currencyValue.isString() && !currencyValue.isUndefined())
        return OrderProblem { QStringLiteral("currency"), QStringLiteral("currency must be a string") };
    // Nothing is taken from a body with a problem.
    customer = customerValue.toString();
    amount = amountTextValue;
    if (currencyValue.isString())
        currency = currencyValue.toString();
    return std::nullopt;
}

CreateOrderHandler::CreateOrderHandler(DbSession& session, MetricsRecorder& metrics)
    : CreateOrderHandler(session, metrics, Options {})
{ }

CreateOrderHandler::CreateOrderHandler(DbSession& session, MetricsRecorder& metrics, Options options)
    : m_session(session)
    , m_metrics(metrics)
    , m_options(options)
{ }

std::variant<ValidatedOrder, OrderProblem> CreateOrderHandler::validate(const CreateOrderRequest& request)
{
    ValidatedOrder order;
    const QString key = QStringLiteral("idempotency_key");
    if (request.key.isEmpty())
        return OrderProblem { key, QStringLiteral("the Idempotency-Key is missing or empty") };
    if (request.key.size() > MaxKeyLength) {
        return OrderProblem { key,
            QStringLiteral("the Idempotency-Key is longer than %1 characters").arg(MaxKeyLength) };
    }
    if (!storable(request.key))
        return OrderProblem { key, QStringLiteral("the Idempotency-Key holds U+0000 or an unpaired surrogate") };
    if (request.scope.isEmpty() || request.scope.size() > 200)
        return OrderProblem { QStringLiteral("scope"), QStringLiteral("the scope must be 1 to 200 characters") };
    if (!storable(request.scope))
        return OrderProblem { QStringLiteral("scope"),
            QStringLiteral("the scope holds U+0000 or an unpaired surrogate") };
    order.customer = request.customer.trimmed();
    if (order.customer.isEmpty() || order.customer.size() > 200)
        return OrderProblem { QStringLiteral("customer"), QStringLiteral("the customer must be 1 to 200 characters") };
    if (!storable(order.customer)) {
        return OrderProblem { QStringLiteral("customer"),
            QStringLiteral("the customer holds U+0000 or an unpaired surrogate") };
    }
    static const QRegularExpression amountPattern(QStringLiteral("^(\\d{1,16})(?:\\.(\\d{1,2}))?$"));
    const auto amount = amountPattern.match(request.amount.trimmed());
    if (!amount.hasMatch()) {
        return OrderProblem { QStringLiteral("amount"),
            QStringLiteral("the amount '%1' is not a decimal number with at most two fraction digits")
                .arg(request.amount) };
    }
    const QString fraction = amount.captured(2).leftJustified(2, QLatin1Char('0'));
    order.cents = amount.captured(1).toLongLong() * 100 + fraction.toLongLong();
    if (order.cents <= 0)
        return OrderProblem { QStringLiteral("amount"), QStringLiteral("the amount must be greater than zero") };
    order.amount = QStringLiteral("%1.%2").arg(order.cents / 100).arg(order.cents % 100, 2, 10, QLatin1Char('0'));
    // Anchored at the very end: "$" would also match before a final line break, and "EUR\n" is no currency.
    static const QRegularExpression currencyPattern(QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z]{3}")));
    if (!currencyPattern.match(request.currency).hasMatch()) {
        return OrderProblem { QStringLiteral("currency"),
            QStringLiteral("the currency '%1' is not a three-letter ISO 4217 code").arg(request.currency) };
    }
    order.currency = request.currency.toUpper();
    return order;
}

CreateOrderResult CreateOrderHandler::handle(const CreateOrderRequest& request)
{
    const std::variant<ValidatedOrder, OrderProblem> validated = validate(request);
    if (const auto* problem = std::get_if<OrderProblem>(&validated))
        return badRequest(*problem);
    const ValidatedOrder& order = std::get<ValidatedOrder>(validated);

    const QJsonObject canonicalRequest {
        { QStringLiteral("customer"), order.customer },
        { QStringLiteral("amount"), order.amount },
        { QStringLiteral("currency"), order.currency },
    };
    const IdempotencyClaim claim { request.scope, request.key, RequestFingerprint::compute(Operation, canonicalRequest),
        m_options.leaseMs, m_options.ttlMs };

    IdempotentRequest::SingleWrite write;
    if (order.cents > m_options.perOrderLimitCents) {
        const CreateOrderResult rejected
            = errorResult(CreateOrderResult::Outcome::Rejected, 422, QStringLiteral("amount_over_limit"),
                QStringLiteral("the amount exceeds the per-order limit of %1.%2")
                    .arg(m_options.perOrderLimitCents / 100)
                    .arg(m_options.perOrderLimitCents % 100, 2, 10, QLatin1Char('0')));
        write = IdempotentRequest::SingleWrite::refusal(claim, rejected.httpStatus, compact(rejected.body));
    } else {
        const QByteArray eventHeaders = compact(QJsonObject { { QStringLiteral("idempotency_scope"), request.scope },
            { QStringLiteral("idempotency_key"), request.key } });
        write.addParts = [order, eventHeaders, claim](ChainedStatement& statement, const QString& gate) {
            OrdersRepository::addCreateParts(
                statement, gate, order.customer, order.amount, order.currency, eventHeaders, claim);
        };
    }
    CreateOrderResult unavailable = errorResult(CreateOrderResult::Outcome::Failed, 503,
        QStringLiteral("temporarily_unavailable"), QStringLiteral("the request could not be completed; retry it"));

    IdempotentRequest idempotent(m_session, m_metrics);
    idempotent.setBeforeCommitHook(m_beforeCommit);
    const IdempotentRequest::Outcome outcome
        = idempotent.run(claim, write, m_options.form, unavailable.httpStatus, compact(unavailable.body));

    using Kind = IdempotentRequest::Outcome::Kind;
    CreateOrderResult result;
    switch (outcome.kind) {
    case Kind::Executed:
    case Kind::Replayed:
        result.outcome = outcome.kind == Kind::Replayed ? CreateOrderResult::Outcome::Replayed
            : outcome.response.finalFailure             ? CreateOrderResult::Outcome::Rejected
                                                        : CreateOrderResult::Outcome::Created;
        result.httpStatus = outcome.response.status;
        result.body = QJsonDocument::fromJson(outcome.response.body).object();
        result.orderId = outcome.response.orderId;
        return result;
    case Kind::Mismatch:
        return errorResult(CreateOrderResult::Outcome::Mismatch, 422, QStringLiteral("idempotency_key_reuse"),
            QStringLiteral("key already used with a different request"));
    case Kind::InProgress:
        result = errorResult(CreateOrderResult::Outcome::InProgress, 409, QStringLiteral("request_in_progress"),
            QStringLiteral("a request with this key is still being processed; retry later"));
        result.retryAfterSeconds = (outcome.retryAfterMs + 999) / 1000;
        result.body.insert(QStringLiteral("retry_after_seconds"), result.retryAfterSeconds);
        return result;
    case Kind::RetryableFailure:
        break;
    }
    return unavailable;
}
