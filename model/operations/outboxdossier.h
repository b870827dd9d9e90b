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
    static constexpr int HeldBackCap = 10'000; // rows waiting behind this one are counted up to here

    qint64 id = 0;
    std::optional<OutboxRowDetail> detail; // nullopt: the row no longer exists (purged)
    QList<OutboxAttempt> attempts; // newest first
    int failedAttempts = 0; // every failure on record (outbox_attempts), also those beyond HistoryLimit
    QList<AuditEntry> audit; // newest first
    std::optional<IdempotencyRecord> idempotencyRecord; // for order events: the request that created the order
    // Ordering (migration 0013). For a waiting row: the oldest row of its key not yet published, which it waits
    // behind. For a row of a key: how many rows of the key wait behind it, up to HeldBackCap.
    std::optional<OutboxRowSummary> waitsBehind;
    qint64 heldBack = 0;

    // The row's attempts counted over its whole history: a requeue starts outbox.attempts (what the relay's
    // --max-attempts counts) from 0, but the failures before it stay on record. Each failure is one attempt, and an
    // in-flight or published row has one more, the attempt under way or the one that succeeded.
    int totalAttempts() const;
    // When an operator last requeued the row (from its audit entries); invalid if never.
    QDateTime lastRequeuedAt() const;

    static OutboxDossier load(DbSession& session, qint64 id);
};
