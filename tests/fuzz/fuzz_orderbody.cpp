// SPDX-License-Identifier: GPL-3.0-or-later
// CreateOrderRequest::readJsonBody, the reading of POST /orders bodies as orders-service gets them: any bytes. It
// either names a problem (a field of the request's, or none for the body as a whole) or takes a customer, an
// amount and a currency; and what CreateOrderHandler::validate then accepts, written back as a body, reads and
// validates to the same order.
#include "fuzzcheck.h"
#include "orders/createorderhandler.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace {

QByteArray body(const ValidatedOrder& order)
{
    return QJsonDocument(
        QJsonObject { { QStringLiteral("customer"), order.customer }, { QStringLiteral("amount"), order.amount },
            { QStringLiteral("currency"), order.currency } })
        .toJson(QJsonDocument::Compact);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size)
{
    const QByteArray input(reinterpret_cast<const char*>(bytes), qsizetype(size));
    CreateOrderRequest request;
    request.key = QStringLiteral("fuzz");
    const CreateOrderRequest untouched = request;
    if (const std::optional<OrderProblem> problem = request.readJsonBody(input)) {
        static const QStringList fields { QString(), QStringLiteral("customer"), QStringLiteral("amount"),
            QStringLiteral("currency") };
        FUZZ_REQUIRE(fields.contains(problem->field) && !problem->message.isEmpty(), problem->field.toUtf8());
        FUZZ_REQUIRE(request.customer == untouched.customer && request.amount == untouched.amount
                && request.currency == untouched.currency,
            "a refused body changed the request: " + input.left(200));
        return 0;
    }
    const auto validated = CreateOrderHandler::validate(request);
    const auto* order = std::get_if<ValidatedOrder>(&validated);
    if (!order)
        return 0;
    CreateOrderRequest again;
    again.key = request.key;
    FUZZ_REQUIRE(!again.readJsonBody(body(*order)), "a validated order's body is refused: " + body(*order));
    const auto revalidated = CreateOrderHandler::validate(again);
    const auto* same = std::get_if<ValidatedOrder>(&revalidated);
    FUZZ_REQUIRE(same && same->customer == order->customer && same->amount == order->amount
            && same->cents == order->cents && same->currency == order->currency,
        "a validated order read back differs: " + body(*order) + " from " + input.left(200));
    return 0;
}
