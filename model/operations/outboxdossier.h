// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "idempotency/idempotencyrepository.h"
#include "operations/auditrepository.h"
#include "outbox/outboxrows.h"

#include <optional>

class DbSession;

// Everything an operator wants to know about one outbox row, read in one go for a detail view.
struct OutboxDossier {
    static constexpr int HistoryLimit = 200;

    qint64 id = 0;
    std::optional<OutboxRowDetail> detail; // nullopt: the row no longer exists (purged)
    QList<OutboxAttempt> attempts; // newest first
    QList<AuditEntry> audit; // newest first
    std::optional<IdempotencyRecord> idempotencyRecord; // for order events: the request that created the order

    static OutboxDossier load(DbSession& session, qint64 id);
};
