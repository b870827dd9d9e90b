// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

class DbSession;

// The reference consumer's read model: how many orders each customer has, maintained from order.created
// events. Not idempotent by itself (it adds one per event), which is exactly why it runs behind the inbox.
class CustomerOrderCounter final {
public:
    CustomerOrderCounter(DbSession& session, QString consumer);

    // Applies one event. Other event types are ignored; an order.created payload without a customer throws
    // OutboxError(InvalidInput).
    void apply(const QString& eventType, const QByteArray& payload);

    // The consumer's count for `customer` (0 if none).
    qint64 orders(const QString& customer);

private:
    DbSession& m_session;
    QString m_consumer;
};
