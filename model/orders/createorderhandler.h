// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "idempotency/idempotentrequest.h"

#include <QJsonObject>
#include <QString>
#include <functional>
#include <optional>
#include <variant>

class DbSession;
class MetricsRecorder;

// Why a request was refused before anything ran: the request field at fault, named in the 400 answer.
struct OrderProblem {
    QString field;
    QString message;
};

struct CreateOrderRequest {
    QString scope = QStringLiteral("orders"); // namespace of keys, e.g. a tenant; (scope, key) is unique
    QString key; // the client's Idempotency-Key
    QString customer;
    QString amount; // decimal text, at most two fraction digits
    QString currency = QStringLiteral("EUR");

    // Takes customer, amount and currency from the body of POST /orders, a JSON object: {"customer": "alice",
    // "amount": 12.5 or "12.50", "currency": "EUR" (optional)}. The problem if the body is no such object (its
    // field empty when the body as a whole is at fault); what the values may be is CreateOrderHandler::validate's
    // to say.
    std::optional<OrderProblem> readJsonBody(const QByteArray& body);
};

// A request that passed CreateOrderHandler::validate, normalised: what the order, its fingerprint and its event are
// made of.
struct ValidatedOrder {
    QString customer; // trimmed
    QString amount; // two fraction digits
    qint64 cents = 0;
    QString currency; // upper case
};

struct CreateOrderResult {
    enum class Outcome {
        Created, // 201, executed now
        Replayed, // the stored response of the first request with this key and request
        InProgress, // 409, the first request is still executing; retry after retryAfterSeconds
        Mismatch, // 422, the key was used with a different request
        BadRequest, // 400, nothing was executed
        Rejected, // 422 final failure (a business rule); stored and replayed like a success
        Failed, // 503 retryable failure; nothing committed, the key is released
    };
    Outcome outcome = Outcome::BadRequest;
    int httpStatus = 400;
    QJsonObject body;
    std::optional<qint64> orderId;
    qint64 retryAfterSeconds = 0;

    static QString outcomeName(Outcome outcome);
};

// The idempotent "create order" operation. One statement claims the key, inserts the order and its order.created
// outbox message and stores the response snapshot, so either all of it exists or none.
class CreateOrderHandler final {
public:
    static constexpr int MaxKeyLength = 255;
    static const QString Operation;

    struct Options {
        qint64 leaseMs = 30'000;
        qint64 ttlMs = 24LL * 3600 * 1000;
        qint64 perOrderLimitCents = 100'000'000; // 1,000,000.00: larger orders are rejected (a final failure)
        // One statement in autocommit (one round trip); the transaction form runs the before-commit hook.
        IdempotentRequest::Form form = IdempotentRequest::Form::OneStatement;
    };

    CreateOrderHandler(DbSession& session, MetricsRecorder& metrics);
    CreateOrderHandler(DbSession& session, MetricsRecorder& metrics, Options options);

    CreateOrderResult handle(const CreateOrderRequest& request);

    // The checks `handle` makes before it touches the database (public for the unit test and the fuzz target).
    static std::variant<ValidatedOrder, OrderProblem> validate(const CreateOrderRequest& request);

    // Fault-injection point for tests and demos, in Options::form Transaction: runs inside the transaction after
    // the order, its outbox message and the completed key were written, just before commit. Whatever it throws
    // rolls it all back.
    void setBeforeCommitHook(std::function<void()> hook) { m_beforeCommit = std::move(hook); }

private:
    DbSession& m_session;
    MetricsRecorder& m_metrics;
    Options m_options;
    std::function<void()> m_beforeCommit;
};
