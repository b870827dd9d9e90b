// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

class ChainedStatement;
class DbSession;
struct IdempotencyClaim;

// Repositories run their statements on a session; wrap calls in a UnitOfWork to make several atomic.
class OrdersRepository final {
public:
    explicit OrdersRepository(DbSession& session);

    // The create path's one write, as the parts of an IdempotentRequest::SingleWrite: inserts the order for the row
    // of `gate`, its order.created outbox message (with `eventHeaders`, through OutboxRepository::enqueuePart),
    // completes the in-progress key of `claim` with the 201 response (IdempotencyRepository::completionPart), and
    // adds the part "response". The statement fails if the key is no longer in progress (its claim was lost).
    static void addCreateParts(ChainedStatement& statement, const QString& gate, const QString& customer,
        const QString& amount, const QString& currency, const QByteArray& eventHeaders, const IdempotencyClaim& claim);

    // The order as JSON, in the same shape as the create response; nullopt when there is no such order.
    std::optional<QByteArray> find(qint64 id);

private:
    DbSession& m_session;
};
