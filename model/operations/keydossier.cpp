// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/keydossier.h"

#include "db/dbsession.h"
#include "outbox/outboxreadrepository.h"

KeyDossier KeyDossier::load(DbSession& session, qint64 id)
{
    KeyDossier dossier;
    dossier.id = id;
    dossier.record = IdempotencyRepository(session).findById(id);
    if (dossier.record && dossier.record->orderId) {
        dossier.events = OutboxReadRepository(session).forAggregate(
            QStringLiteral("order"), QString::number(*dossier.record->orderId), EventLimit);
    }
    dossier.serverNow = session.serverNow();
    return dossier;
}
