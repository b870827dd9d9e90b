// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/outboxdossier.h"

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
    dossier.audit = AuditRepository(session).forEntity(QStringLiteral("outbox"), id, HistoryLimit);
    const OutboxRowSummary& row = dossier.detail->summary;
    bool numeric = false;
    const qint64 orderId = row.aggregateId.toLongLong(&numeric);
    if (row.aggregateType == QLatin1String("order") && numeric)
        dossier.idempotencyRecord = IdempotencyRepository(session).findByOrder(orderId);
    return dossier;
}
