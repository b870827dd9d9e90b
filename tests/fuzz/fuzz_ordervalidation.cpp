// SPDX-License-Identifier: GPL-3.0-or-later
// CreateOrderHandler::validate, the checks of POST /orders before anything touches the database. What it accepts
// must be what the orders table and the idempotency record can store as it was validated (else the database
// refuses it, and the client is told 503, to retry a request that can never succeed), and the normalised order is
// a fixed point: validating it again accepts it unchanged.
//
// Texts are made the way the body's reading (CreateOrderRequest::readJsonBody, fuzzed from raw bytes by
// fuzz_orderbody) hands them over: any UTF-16, since JSON's \u escapes can spell unpaired surrogates and U+0000.
#include "fuzzcheck.h"
#include "orders/createorderhandler.h"

#include <algorithm>

namespace {

QString consumeRequestText(FuzzedDataProvider& data, size_t maxBytes)
{
    if (!data.ConsumeBool())
        return consumeText(data, maxBytes);
    const std::string raw = data.ConsumeRandomLengthString(maxBytes);
    return QString(reinterpret_cast<const QChar*>(raw.data()), qsizetype(raw.size() / 2));
}

// Text PostgreSQL stores as it is: no U+0000 (text cannot hold it) and no unpaired surrogate (UTF-8 cannot).
bool storable(const QString& text)
{
    return !text.contains(QChar(u'\0')) && QStringView(text).isValidUtf16();
}

bool isAmount(const QString& amount, qint64 cents)
{
    const qsizetype point = amount.size() - 3;
    if (point < 1 || point > 16 || amount.at(point) != QLatin1Char('.'))
        return false;
    for (qsizetype i = 0; i < amount.size(); ++i) {
        if (i != point && (amount.at(i) < QLatin1Char('0') || amount.at(i) > QLatin1Char('9')))
            return false;
    }
    return QString(amount).remove(point, 1).toLongLong() == cents && (point == 1 || amount.at(0) != QLatin1Char('0'));
}

bool isCurrency(const QString& currency)
{
    return currency.size() == 3
        && std::all_of(currency.begin(), currency.end(), [](QChar c) { return c >= u'A' && c <= u'Z'; });
}

QByteArray described(const CreateOrderRequest& request)
{
    return "key " + quotedForReport(request.key) + ", customer " + quotedForReport(request.customer) + ", amount "
        + quotedForReport(request.amount) + ", currency " + quotedForReport(request.currency);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size)
{
    FuzzedDataProvider data(bytes, size);
    CreateOrderRequest request;
    request.key = consumeRequestText(data, 300);
    request.customer = consumeRequestText(data, 260);
    request.amount = consumeRequestText(data, 30);
    if (data.ConsumeBool()) // else the default, as for a body without "currency"
        request.currency = consumeRequestText(data, 8);

    const auto validated = CreateOrderHandler::validate(request);
    if (const auto* problem = std::get_if<OrderProblem>(&validated)) {
        static const QStringList fields { QStringLiteral("idempotency_key"), QStringLiteral("scope"),
            QStringLiteral("customer"), QStringLiteral("amount"), QStringLiteral("currency") };
        FUZZ_REQUIRE(fields.contains(problem->field) && !problem->message.isEmpty(), problem->field.toUtf8());
        return 0;
    }
    const ValidatedOrder& order = std::get<ValidatedOrder>(validated);
    const QByteArray what = described(request);
    FUZZ_REQUIRE(!request.key.isEmpty() && request.key.size() <= CreateOrderHandler::MaxKeyLength, what);
    FUZZ_REQUIRE(storable(request.key), "unstorable key accepted: " + what);
    FUZZ_REQUIRE(
        order.customer == order.customer.trimmed() && !order.customer.isEmpty() && order.customer.size() <= 200, what);
    FUZZ_REQUIRE(storable(order.customer), "unstorable customer accepted: " + what);
    FUZZ_REQUIRE(
        order.cents > 0 && isAmount(order.amount, order.cents), "amount " + order.amount.toUtf8() + ": " + what);
    FUZZ_REQUIRE(isCurrency(order.currency), "currency " + quotedForReport(order.currency) + ": " + what);

    CreateOrderRequest normalised = request;
    normalised.customer = order.customer;
    normalised.amount = order.amount;
    normalised.currency = order.currency;
    const auto again = CreateOrderHandler::validate(normalised);
    const auto* same = std::get_if<ValidatedOrder>(&again);
    FUZZ_REQUIRE(same && same->customer == order.customer && same->amount == order.amount && same->cents == order.cents
            && same->currency == order.currency,
        "the normalised order does not validate to itself: " + what);
    return 0;
}
