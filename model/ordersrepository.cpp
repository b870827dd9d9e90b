#include "ordersrepository.h"

#include "dbsession.h"
#include "outboxerror.h"

// The one definition of an order's JSON (the create response, the GET response and the order.created payload),
// over a row aliased `o`.
static const QString OrderDocument
    = QStringLiteral("jsonb_build_object('id', o.id, 'customer', o.customer, 'amount', o.amount::text, "
                     "'currency', o.currency, "
                     "'created_at', to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))");

OrdersRepository::OrdersRepository(DbSession& session)
    : m_session(session)
{ }

OrdersRepository::CreatedOrder OrdersRepository::insertWithEvent(const QString& customer, const QString& amount,
    const QString& currency, const QByteArray& eventHeaders, qint64 keyRecordId)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("WITH o AS ("
                       "  INSERT INTO orders (customer, amount, currency) VALUES (?::text, ?::numeric, ?::text) "
                       "  RETURNING id, customer, amount, currency, created_at), "
                       "body AS (SELECT o.id, ")
            + OrderDocument
            + QStringLiteral(
                " AS doc FROM o), "
                "event AS ("
                "  INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, headers, dedupe_key) "
                "  SELECT 'order', body.id::text, 'order.created', body.doc, ?::jsonb, 'order.created:' || body.id "
                "  FROM body), "
                "completed AS ("
                "  UPDATE idempotency_keys k SET status = 'completed', response_status = 201, "
                "    response_body = body.doc, order_id = body.id, locked_until = NULL, updated_at = now() "
                "  FROM body WHERE k.id = ?::bigint AND k.status = 'in_progress' RETURNING k.id) "
                "SELECT body.id, body.doc::text, (SELECT count(*) FROM completed) FROM body"),
        { customer, amount, currency, QString::fromUtf8(eventHeaders), keyRecordId },
        QStringLiteral("creating the order"));
    q.next();
    if (q.value(2).toLongLong() != 1)
        throw OutboxError(OutboxError::Kind::Other,
            QStringLiteral("idempotency record %1 is no longer in progress; its claim was lost").arg(keyRecordId));
    return CreatedOrder { q.value(0).toLongLong(), q.value(1).toString().toUtf8() };
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
