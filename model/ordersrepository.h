#pragma once

#include <QDateTime>
#include <QString>
#include <optional>

class DbSession;

struct Order {
    qint64 id = 0;
    QString customer;
    QString amount; // decimal text with two fraction digits, e.g. "12.50"
    QString currency;
    QDateTime createdAt;
};

// Repositories run their statements on a session; wrap calls in a UnitOfWork to make several atomic.
class OrdersRepository final {
public:
    explicit OrdersRepository(DbSession& session);

    // Inserts the order and returns it as stored (id and created_at filled in).
    Order insert(const QString& customer, const QString& amount, const QString& currency);
    std::optional<Order> find(qint64 id);

private:
    DbSession& m_session;
};
