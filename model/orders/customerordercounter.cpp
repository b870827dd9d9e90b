// SPDX-License-Identifier: GPL-3.0-or-later
#include "orders/customerordercounter.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

CustomerOrderCounter::CustomerOrderCounter(DbSession& session, QString consumer)
    : m_session(session)
    , m_consumer(std::move(consumer))
{ }

void CustomerOrderCounter::apply(const QString& eventType, const QByteArray& payload)
{
    if (eventType != QLatin1String("order.created"))
        return;
    const QString customer = QJsonDocument::fromJson(payload).object().value(QStringLiteral("customer")).toString();
    if (customer.isEmpty()) {
        throw OutboxError(OutboxError::Kind::InvalidInput,
            QStringLiteral("order.created payload has no \"customer\" string: %1")
                .arg(QString::fromUtf8(payload.left(200))));
    }
    m_session.exec(QStringLiteral("INSERT INTO customer_order_counts AS c (consumer, customer, orders) "
                                  "VALUES (?::text, ?::text, 1) "
                                  "ON CONFLICT (consumer, customer) DO UPDATE SET orders = c.orders + 1, "
                                  "  updated_at = now()"),
        { m_consumer, customer }, QStringLiteral("counting an order"));
}

qint64 CustomerOrderCounter::orders(const QString& customer)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT orders FROM customer_order_counts WHERE consumer = ?::text AND customer = ?::text"),
        { m_consumer, customer }, QStringLiteral("reading an order count"));
    return q.next() ? q.value(0).toLongLong() : 0;
}
