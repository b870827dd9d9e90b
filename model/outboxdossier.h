#pragma once

#include "auditrepository.h"
#include "idempotencyrepository.h"
#include "outboxrepository.h"

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
