// SPDX-License-Identifier: GPL-3.0-or-later
#include "orders/createorderhandler.h"

#include "db/chainedstatement.h"
#include "idempotency/requestfingerprint.h"
#include "orders/ordersrepository.h"

#include <QJsonDocument>
#include <QRegularExpression>

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

struct ValidatedOrder {
    QString customer;
    QString amount; // normalised to two fraction digits
    qint64 cents = 0;
    QString currency;
};

CreateOrderResult errorResult(
    CreateOrderResult::Outcome outcome, int status, const QString& code, const QString& message)
{
    CreateOrderResult result;
    result.outcome = outcome;
    result.httpStatus = status;
    result.body = QJsonObject { { QStringLiteral("error"), code }, { QStringLiteral("message"), message } };
    return result;
}

struct Problem {
    QString field; // the request field at fault, named in the 400 answer
    QString message;
};

CreateOrderResult badRequest(const Problem& problem)
{
    CreateOrderResult result
        = errorResult(CreateOrderResult::Outcome::BadRequest, 400, QStringLiteral("bad_request"), problem.message);
    result.body.insert(QStringLiteral("field"), problem.field);
    return result;
}

// Returns the problem with the request, or nullopt with `order` filled in.
std::optional<Problem> validate(const CreateOrderRequest& request, ValidatedOrder& order)
{
    const QString key = QStringLiteral("idempotency_key");
    if (request.key.isEmpty())
        return Problem { key, QStringLiteral("the Idempotency-Key is missing or empty") };
    if (request.key.size() > CreateOrderHandler::MaxKeyLength) {
        return Problem { key,
            QStringLiteral("the Idempotency-Key is longer than %1 characters").arg(CreateOrderHandler::MaxKeyLength) };
    }
    if (request.scope.isEmpty() || request.scope.size() > 200)
        return Problem { QStringLiteral("scope"), QStringLiteral("the scope must be 1 to 200 characters") };
    order.customer = request.customer.trimmed();
    if (order.customer.isEmpty() || order.customer.size() > 200)
        return Problem { QStringLiteral("customer"), QStringLiteral("the customer must be 1 to 200 characters") };
    static const QRegularExpression amountPattern(QStringLiteral("^(\\d{1,16})(?:\\.(\\d{1,2}))?$"));
    const auto amount = amountPattern.match(request.amount.trimmed());
    if (!amount.hasMatch()) {
        return Problem { QStringLiteral("amount"),
            QStringLiteral("the amount '%1' is not a decimal number with at most two fraction digits")
                .arg(request.amount) };
    }
    const QString fraction = amount.captured(2).leftJustified(2, QLatin1Char('0'));
    order.cents = amount.captured(1).toLongLong() * 100 + fraction.toLongLong();
    if (order.cents <= 0)
        return Problem { QStringLiteral("amount"), QStringLiteral("the amount must be greater than zero") };
    order.amount = QStringLiteral("%1.%2").arg(order.cents / 100).arg(order.cents % 100, 2, 10, QLatin1Char('0'));
    static const QRegularExpression currencyPattern(QStringLiteral("^[A-Za-z]{3}$"));
    if (!currencyPattern.match(request.currency).hasMatch()) {
        return Problem { QStringLiteral("currency"),
            QStringLiteral("the currency '%1' is not a three-letter ISO 4217 code").arg(request.currency) };
    }
    order.currency = request.currency.toUpper();
    return std::nullopt;
}

QByteArray compact(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace

CreateOrderHandler::CreateOrderHandler(DbSession& session, MetricsRecorder& metrics)
    : CreateOrderHandler(session, metrics, Options {})
{ }

CreateOrderHandler::CreateOrderHandler(DbSession& session, MetricsRecorder& metrics, Options options)
    : m_session(session)
    , m_metrics(metrics)
    , m_options(options)
{ }

CreateOrderResult CreateOrderHandler::handle(const CreateOrderRequest& request)
{
    ValidatedOrder order;
    if (const std::optional<Problem> problem = validate(request, order))
        return badRequest(*problem);

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
