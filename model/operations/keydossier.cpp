// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/keydossier.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"
#include "outbox/outboxreadrepository.h"

#include <QSqlQuery>

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

QList<qint64> KeyDossier::requestRows(DbSession& session, qint64 id)
{
    // now() is the transaction's start: the order's rows and the key's completion share it to the microsecond.
    QSqlQuery& q
        = session.exec(QStringLiteral("SELECT o.id FROM idempotency_keys k JOIN outbox o ON o.aggregate_type = 'order' "
                                      "  AND o.aggregate_id = k.order_id::text AND o.created_at = k.updated_at "
                                      "WHERE k.id = ?::bigint ORDER BY o.id"),
            { id }, QStringLiteral("reading the outbox rows of key %1").arg(id));
    return SqlValues::collect(q, [](const QSqlQuery& row) { return row.value(0).toLongLong(); });
}
