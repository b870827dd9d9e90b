// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "idempotency/idempotencyrepository.h"
#include "outbox/outboxrows.h"

#include <QDateTime>
#include <QList>
#include <optional>

class DbSession;

// Everything an operator wants to know about one idempotency key, read in one go for a detail view.
struct KeyDossier {
    static constexpr int EventLimit = 50;

    qint64 id = 0;
    std::optional<IdempotencyRecord> record; // nullopt: the key no longer exists (purged)
    QList<OutboxRowSummary> events; // the outbox rows of the order the key created, newest first
    QDateTime serverNow; // leases and TTLs are judged by the database's clock, not this machine's

    static KeyDossier load(DbSession& session, qint64 id);
    // The outbox rows the request of key `id` wrote, oldest first: those of its order created by the transaction that
    // completed the key (the key's updated_at, which only the completion sets). The order's later events, written by
    // other requests, are not among them. Empty for a key without an order, or whose rows were purged.
    static QList<qint64> requestRows(DbSession& session, qint64 id);
};
