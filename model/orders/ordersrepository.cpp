// SPDX-License-Identifier: GPL-3.0-or-later
#include "orders/ordersrepository.h"

#include "db/chainedstatement.h"
#include "db/dbsession.h"
#include "idempotency/idempotencyrepository.h"
#include "outbox/outboxrepository.h"

#include <QSqlQuery>

// The one definition of an order's JSON (the create response, the GET response and the order.created payload),
// over a row aliased `o`.
static const QString OrderDocument
    = QStringLiteral("jsonb_build_object('id', o.id, 'customer', o.customer, 'amount', o.amount::text, "
                     "'currency', o.currency, "
                     "'created_at', to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))");

OrdersRepository::OrdersRepository(DbSession& session)
    : m_session(session)
{ }

void OrdersRepository::addCreateParts(ChainedStatement& statement, const QString& gate, const QString& customer,
    const QString& amount, const QString& currency, const QByteArray& eventHeaders, const IdempotencyClaim& claim)
{
    // Each table's part comes from the repository that owns it; the chain is still one statement.
    const SqlFragment body { QStringLiteral("body") };
    statement.add(QStringLiteral("o"),
        { QStringLiteral("INSERT INTO orders (customer, amount, currency) SELECT ?::text, ?::numeric, ?::text") + gate
                + QStringLiteral(" RETURNING id, customer, amount, currency, created_at"),
            { customer, amount, currency } });
    statement.add(
        QStringLiteral("body"), { QStringLiteral("SELECT o.id, ") + OrderDocument + QStringLiteral(" AS doc FROM o") });
    statement.add(QStringLiteral("event"),
        OutboxRepository::enqueuePart(
            { body, QStringLiteral("order"), QStringLiteral("body.id::text"), QStringLiteral("order.created"),
                QStringLiteral("body.doc"), eventHeaders, QStringLiteral("'order.created:' || body.id") }));
    statement.add(QStringLiteral("completed"),
        IdempotencyRepository::completionPart(
            claim, { body, QStringLiteral("201"), QStringLiteral("body.doc"), QStringLiteral("body.id") }));
    // The message and the completion are SELECTs of SQL functions, which run only as far as the statement reads
    // them: the response reads both.
    statement.add(QStringLiteral("response"),
        { QStringLiteral(
            "SELECT 201 AS status, body.doc AS body, body.id AS resource_id FROM body, event, completed") });
}

std::optional<QByteArray> OrdersRepository::find(qint64 id)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT ") + OrderDocument + QStringLiteral("::text FROM orders o WHERE o.id = ?::bigint"),
        { id }, QStringLiteral("reading order %1").arg(id));
    if (!q.next())
        return std::nullopt;
    return q.value(0).toString().toUtf8();
}
