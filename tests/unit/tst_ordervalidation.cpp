// SPDX-License-Identifier: GPL-3.0-or-later
#include "orders/createorderhandler.h"

#include <QTest>

namespace {

CreateOrderRequest request(const QString& customer, const QString& amount, const QString& currency,
    const QString& key = QStringLiteral("key-1"))
{
    CreateOrderRequest order;
    order.key = key;
    order.customer = customer;
    order.amount = amount;
    order.currency = currency;
    return order;
}

} // namespace

Q_DECLARE_METATYPE(CreateOrderRequest)

// CreateOrderHandler::validate, the checks of POST /orders before the database: what it accepts must reach the
// database as validated (else the server refuses it and the client gets a 503 to retry a request that cannot
// succeed), and anything else is a 400 naming the field. Regressions of tests/fuzz/fuzz_ordervalidation.
class TestOrderValidation final : public QObject {
    Q_OBJECT

private slots:
    void normalises()
    {
        const auto validated = CreateOrderHandler::validate(
            request(QStringLiteral("  alice "), QStringLiteral(" 7.5"), QStringLiteral("eur")));
        const auto* order = std::get_if<ValidatedOrder>(&validated);
        QVERIFY(order);
        QCOMPARE(order->customer, QStringLiteral("alice"));
        QCOMPARE(order->amount, QStringLiteral("7.50"));
        QCOMPARE(order->cents, 750);
        QCOMPARE(order->currency, QStringLiteral("EUR"));
        // The normalised order is a fixed point.
        const auto again = CreateOrderHandler::validate(request(order->customer, order->amount, order->currency));
        QVERIFY(std::get_if<ValidatedOrder>(&again));
        QCOMPARE(std::get<ValidatedOrder>(again).amount, order->amount);
    }

    void refusesWhatTheDatabaseCannotStore_data()
    {
        QTest::addColumn<CreateOrderRequest>("order");
        QTest::addColumn<QString>("field");
        const QString eur = QStringLiteral("EUR");
        const QString ten = QStringLiteral("10.00");
        // "$" also matched before a final line break: orders.currency (char(3)) refused "EUR\n" with a 503.
        QTest::newRow("currency with a line break")
            << request(QStringLiteral("alice"), ten, QStringLiteral("EUR\n")) << QStringLiteral("currency");
        // JSON's \u0000 reaches the customer; PostgreSQL's text cannot hold it.
        QTest::newRow("customer with U+0000") << request(QStringLiteral("ali") + QChar(u'\0') + QStringLiteral("ce"),
            ten, eur) << QStringLiteral("customer");
        // JSON's \ud800 too; UTF-8 cannot carry it, so another text would be stored than the fingerprint's.
        QTest::newRow("customer with an unpaired surrogate")
            << request(QStringLiteral("ali") + QChar(0xd800) + QStringLiteral("ce"), ten, eur)
            << QStringLiteral("customer");
        QTest::newRow("key with U+0000") << request(
            QStringLiteral("alice"), ten, eur, QStringLiteral("k") + QChar(u'\0'))
                                         << QStringLiteral("idempotency_key");
    }

    void refusesWhatTheDatabaseCannotStore()
    {
        QFETCH(CreateOrderRequest, order);
        QFETCH(QString, field);
        const auto validated = CreateOrderHandler::validate(order);
        const auto* problem = std::get_if<OrderProblem>(&validated);
        QVERIFY(problem);
        QCOMPARE(problem->field, field);
    }
};

QTEST_GUILESS_MAIN(TestOrderValidation)
#include "tst_ordervalidation.moc"
