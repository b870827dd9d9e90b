// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/outboxdossier.h"

#include "operations/outboxoperator.h"
#include "outbox/outboxreadrepository.h"

OutboxDossier OutboxDossier::load(DbSession& session, qint64 id)
{
    OutboxDossier dossier;
    dossier.id = id;
    OutboxReadRepository outbox(session);
    dossier.detail = outbox.detail(id);
    if (!dossier.detail)
        return dossier;
    dossier.attempts = outbox.attempts(id, HistoryLimit);
    dossier.failedAttempts = outbox.attemptCount(id);
    dossier.audit = AuditRepository(session).forEntity(AuditEntity::Outbox, id, HistoryLimit);
    const OutboxRowSummary& row = dossier.detail->summary;
    if (row.status == OutboxStatus::Waiting)
        dossier.waitsBehind = outbox.keyHead(row);
    else if (row.status != OutboxStatus::Published && row.status != OutboxStatus::Discarded)
        dossier.heldBack = outbox.waitingBehind(row, HeldBackCap);
    bool numeric = false;
    const qint64 orderId = row.aggregateId.toLongLong(&numeric);
    if (row.aggregateType == QLatin1String("order") && numeric)
        dossier.idempotencyRecord = IdempotencyRepository(session).findByOrder(orderId);
    return dossier;
}

int OutboxDossier::totalAttempts() const
{
    if (!detail)
        return 0;
    const OutboxRowSummary& row = detail->summary;
    const bool oneMore = row.status == OutboxStatus::InFlight || row.status == OutboxStatus::Published;
    // A history purged by hand (or rows written without one) must not count fewer than the row itself says.
    return qMax(row.attempts, failedAttempts + (oneMore ? 1 : 0));
}

QDateTime OutboxDossier::lastRequeuedAt() const
{
    for (const AuditEntry& entry : audit) { // newest first
        if (AuditAction::startsAttemptsAgain(entry.action))
            return entry.at;
    }
    return {};
}
