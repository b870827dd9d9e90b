// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/outboxoperator.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "operations/auditrepository.h"
#include "outbox/outboxreadrepository.h"

#include <QSet>

OutboxOperator::OutboxOperator(DbSession& session)
    : m_session(session)
{ }

QList<qint64> OutboxOperator::freeze(const OutboxFilter& filter, int cap)
{
    OutboxReadRepository outbox(m_session);
    QList<qint64> ids;
    while (ids.size() < cap) {
        const int pageSize = qMin(DefaultBatchSize, cap - int(ids.size()));
        const QList<qint64> page = outbox.matchingIds(filter, pageSize, ids.isEmpty() ? 0 : ids.last());
        ids.append(page);
        if (page.size() < pageSize)
            break;
    }
    return ids;
}

OperatorActionReport OutboxOperator::requeue(
    const QList<qint64>& ids, const QString& reason, int batchSize, const Progress& progress)
{
    return apply(
        AuditAction::Requeue,
        [](OutboxRepository& outbox, const QList<qint64>& batch) { return outbox.requeue(batch); }, ids, reason,
        batchSize, progress);
}

OperatorActionReport OutboxOperator::discard(
    const QList<qint64>& ids, const QString& reason, int batchSize, const Progress& progress)
{
    return apply(
        AuditAction::Discard,
        [](OutboxRepository& outbox, const QList<qint64>& batch) { return outbox.discard(batch); }, ids, reason,
        batchSize, progress);
}

OperatorActionReport OutboxOperator::releaseLeases(
    const QList<qint64>& ids, const QString& reason, int batchSize, const Progress& progress)
{
    return apply(
        AuditAction::ReleaseLease,
        [](OutboxRepository& outbox, const QList<qint64>& batch) { return outbox.releaseExpiredLeases(batch); }, ids,
        reason, batchSize, progress);
}

OperatorActionReport OutboxOperator::apply(const QString& action, const BatchAction& changeBatch,
    const QList<qint64>& ids, const QString& reason, int batchSize, const Progress& progress)
{
    if (reason.trimmed().isEmpty())
        throw OutboxError(
            OutboxError::Kind::InvalidInput, QStringLiteral("a reason is required to %1 rows").arg(action));
    OperatorActionReport report;
    for (qsizetype offset = 0; offset < ids.size(); offset += batchSize) {
        const QList<qint64> batch = ids.mid(offset, batchSize);
        QList<StatusChange> changes;
        try {
            UnitOfWork uow(m_session);
            OutboxRepository outbox(m_session);
            changes = changeBatch(outbox, batch);
            AuditRepository(m_session).record(action, reason.trimmed(), QStringLiteral("outbox"), changes);
            uow.commit();
        } catch (const OutboxError& error) {
            if (error.kind() != OutboxError::Kind::Permission)
                throw;
            throw OutboxError(OutboxError::Kind::Permission,
                QStringLiteral("database user '%1' may not %2 outbox rows (grant it the outbox_operator role): %3")
                    .arg(m_session.currentUser(), action, error.message()),
                error.sqlState());
        }
        QSet<qint64> changed;
        for (const StatusChange& change : changes) {
            changed.insert(change.id);
            report.changed.append(change.id);
        }
        for (qint64 id : batch) {
            if (!changed.contains(id))
                report.leftAlone.append(id);
        }
        const qsizetype done = qMin(offset + batchSize, ids.size());
        const bool goOn = !progress || progress(done, ids.size());
        if (!goOn && done < ids.size()) {
            report.cancelled = true;
            break;
        }
    }
    return report;
}
