#include "ordersrepository.h"

#include "dbsession.h"
#include "sqlvalues.h"

static Order orderFromRow(const QSqlQuery& q)
{
    return Order { q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
        SqlValues::instant(q.value(4)) };
}

OrdersRepository::OrdersRepository(DbSession& session)
    : m_session(session)
{
}

Order OrdersRepository::insert(const QString& customer, const QString& amount, const QString& currency)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("INSERT INTO orders (customer, amount, currency) VALUES (?, ?::numeric, ?) "
                       "RETURNING id, customer, amount::text, currency, epoch_ms(created_at)"),
        { customer, amount, currency }, QStringLiteral("inserting the order"));
    q.next();
    return orderFromRow(q);
}

std::optional<Order> OrdersRepository::find(qint64 id)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT id, customer, amount::text, currency, epoch_ms(created_at) FROM orders WHERE id = ?"),
        { id }, QStringLiteral("reading order %1").arg(id));
    if (!q.next())
        return std::nullopt;
    return orderFromRow(q);
}
