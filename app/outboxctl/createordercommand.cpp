// SPDX-License-Identifier: GPL-3.0-or-later
#include "createordercommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "metrics/metricsrecorder.h"
#include "orders/createorderhandler.h"

#include <QJsonDocument>

QString CreateOrderCommand::summary() const
{
    return QStringLiteral("Create an order idempotently and print the outcome as JSON.");
}

QString CreateOrderCommand::synopsis() const
{
    return QStringLiteral("--key K --customer C --amount N [--currency EUR] [--scope S]");
}

void CreateOrderCommand::addOptions(ArgumentParser& parser) const
{
    const CreateOrderRequest defaults;
    parser.addValue(
        QStringLiteral("key"), QStringLiteral("KEY"), QStringLiteral("The Idempotency-Key of the request."));
    parser.addValue(QStringLiteral("customer"), QStringLiteral("NAME"), QStringLiteral("Who orders."));
    parser.addValue(QStringLiteral("amount"), QStringLiteral("N"),
        QStringLiteral("Decimal amount greater than zero, at most two fraction digits."));
    parser.addValue(QStringLiteral("currency"), QStringLiteral("CODE"), QStringLiteral("ISO 4217 currency code."),
        defaults.currency);
    parser.addValue(QStringLiteral("scope"), QStringLiteral("S"),
        QStringLiteral("Namespace of the key, e.g. a tenant."), defaults.scope);
}

static int exitCodeFor(const CreateOrderResult& result)
{
    switch (result.outcome) {
    case CreateOrderResult::Outcome::Created:
        return ExitCode::Success;
    case CreateOrderResult::Outcome::Replayed:
        // A replay answers like the first request did, including a stored rejection.
        return result.httpStatus >= 200 && result.httpStatus < 300 ? ExitCode::Success : ExitCode::Rejected;
    case CreateOrderResult::Outcome::InProgress:
        return ExitCode::InProgress;
    case CreateOrderResult::Outcome::Mismatch:
        return ExitCode::KeyMismatch;
    case CreateOrderResult::Outcome::BadRequest:
        return ExitCode::Usage;
    case CreateOrderResult::Outcome::Rejected:
        return ExitCode::Rejected;
    case CreateOrderResult::Outcome::Failed:
        return ExitCode::RetryableFailure;
    }
    return ExitCode::Unexpected;
}

int CreateOrderCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    // Missing values are passed on as empty: the handler's answer to them is the documented bad_request.
    CreateOrderRequest request;
    request.key = parser.value(QStringLiteral("key"));
    request.customer = parser.value(QStringLiteral("customer"));
    request.amount = parser.value(QStringLiteral("amount"));
    request.currency = parser.value(QStringLiteral("currency"));
    request.scope = parser.value(QStringLiteral("scope"));

    const auto session = connect(settings);
    MetricsRecorder metrics;
    const CreateOrderResult result = CreateOrderHandler(*session, metrics).handle(request);
    try {
        metrics.flush(*session);
    } catch (const OutboxError& error) {
        // The order's fate is settled; a lost counter must not change the answer.
        Console::warning(QStringLiteral("the request was not counted in the metrics: %1").arg(error.message()));
    }

    QJsonObject answer {
        { QStringLiteral("outcome"), CreateOrderResult::outcomeName(result.outcome) },
        { QStringLiteral("http_status"), result.httpStatus },
        { QStringLiteral("response"), result.body },
    };
    if (result.outcome == CreateOrderResult::Outcome::InProgress)
        answer.insert(QStringLiteral("retry_after_seconds"), result.retryAfterSeconds);
    Console::write(QJsonDocument(answer).toJson(QJsonDocument::Compact) + '\n');
    return exitCodeFor(result);
}
