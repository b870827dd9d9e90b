// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/requeuecandidates.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"
#include "operations/outboxoperator.h"

#include <QSqlQuery>

qint64 RequeueCandidates::sinceLastFailureMs() const
{
    if (!lastFailure.isValid() || !serverNow.isValid())
        return -1;
    return qMax<qint64>(0, lastFailure.msecsTo(serverNow));
}

RequeueCandidates RequeueCandidates::of(DbSession& session, const QList<qint64>& ids, const QString& errorSignature)
{
    RequeueCandidates candidates;
    candidates.ids = ids;
    // A failed or dead row's updated_at is its last failure (nothing else changes such a row); a group's cause may
    // also have failed other rows since, which outbox_attempts_signature_idx finds with one probe. Both read
    // indexes only: the primary key for the ids, the signature index for the cause.
    QSqlQuery& q
        = session.exec(QStringLiteral("SELECT epoch_ms(greatest("
                                      "  (SELECT max(updated_at) FROM outbox WHERE id = ANY(?::bigint[]) "
                                      "     AND status IN ('failed', 'dead')), "
                                      "  (SELECT max(created_at) FROM outbox_attempts WHERE signature = ?::text))), "
                                      "  epoch_ms(now())"),
            { SqlValues::bigintArray(ids),
                errorSignature.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(errorSignature) },
            QStringLiteral("reading the last failure of the rows to requeue"));
    q.next();
    candidates.lastFailure = SqlValues::instant(q.value(0));
    candidates.serverNow = SqlValues::instant(q.value(1));
    return candidates;
}

RequeueCandidates RequeueCandidates::freeze(DbSession& session, const OutboxFilter& filter, int cap)
{
    return of(session, OutboxOperator(session).freeze(filter, cap), filter.errorSignature);
}
