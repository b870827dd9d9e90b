// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

class DbSession;
struct IdempotencyClaim;

// Repositories run their statements on a session; wrap calls in a UnitOfWork to make several atomic.
class OrdersRepository final {
public:
    explicit OrdersRepository(DbSession& session);

    struct CreatedOrder {
        qint64 id = 0;
        QByteArray responseBody; // the order as JSON, also the payload of its order.created event
    };

    // The create path's one write: inserts the order, its order.created outbox message (with `eventHeaders`,
    // through OutboxRepository::enqueuePart) and completes the in-progress idempotency record of `claim`
    // with the 201 response (IdempotencyRepository::completionPart), all in a single statement, so a create
    // costs one round trip between claim and commit. Throws OutboxError if the record is no longer in
    // progress (its claim was lost).
    CreatedOrder insertWithEvent(const QString& customer, const QString& amount, const QString& currency,
        const QByteArray& eventHeaders, const IdempotencyClaim& claim);

    // The order as JSON, in the same shape as the create response; nullopt when there is no such order.
    std::optional<QByteArray> find(qint64 id);

private:
    DbSession& m_session;
};
