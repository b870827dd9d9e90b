#include "outboxoperator.h"

#include "auditrepository.h"
#include "dbsession.h"
#include "outboxerror.h"
#include "unitofwork.h"

#include <QSet>

OutboxOperator::OutboxOperator(DbSession& session)
    : m_session(session)
{ }

QList<qint64> OutboxOperator::freeze(const RequeueSelection& selection, int cap)
{
    OutboxRepository outbox(m_session);
    QList<qint64> ids;
    while (ids.size() < cap) {
        const int pageSize = qMin(DefaultBatchSize, cap - int(ids.size()));
        const QList<qint64> page = outbox.selectForRequeue(selection, pageSize, ids.isEmpty() ? 0 : ids.last());
        ids.append(page);
        if (page.size() < pageSize)
            break;
    }
    return ids;
}

RequeueReport OutboxOperator::requeue(const QList<qint64>& ids, const QString& reason, int batchSize,
    const std::function<bool(qsizetype, qsizetype)>& progress)
{
    if (reason.trimmed().isEmpty())
        throw OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("a reason is required to requeue rows"));
    RequeueReport report;
    for (qsizetype offset = 0; offset < ids.size(); offset += batchSize) {
        const QList<qint64> batch = ids.mid(offset, batchSize);
        QList<StatusChange> changes;
        try {
            UnitOfWork uow(m_session);
            changes = OutboxRepository(m_session).requeue(batch);
            AuditRepository(m_session).record(
                QStringLiteral("requeue"), reason.trimmed(), QStringLiteral("outbox"), changes);
            uow.commit();
        } catch (const OutboxError& error) {
            if (error.kind() != OutboxError::Kind::Permission)
                throw;
            throw OutboxError(OutboxError::Kind::Permission,
                QStringLiteral("database user '%1' may not requeue outbox rows (grant it the outbox_operator role): %2")
                    .arg(m_session.currentUser(), error.message()),
                error.sqlState());
        }
        QSet<qint64> changed;
        for (const StatusChange& change : changes) {
            changed.insert(change.id);
            report.requeued.append(change.id);
        }
        for (qint64 id : batch) {
            if (!changed.contains(id))
                report.skipped.append(id);
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
