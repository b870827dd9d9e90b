// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/outboxoperator.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "operations/auditrepository.h"
#include "operations/jsonsyntax.h"
#include "operations/operatorrole.h"
#include "outbox/outboxreadrepository.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlQuery>

OutboxOperator::OutboxOperator(DbSession& session)
    : m_session(session)
{ }

QList<OutboxStatus> OutboxOperator::statusesToActOn(
    const QList<OutboxStatus>& requested, const QList<OutboxStatus>& source)
{
    const QList<OutboxStatus> wanted = requested.isEmpty() ? failureStatuses() : requested;
    return outboxStatusesWhere([&](OutboxStatus status) { return wanted.contains(status) && source.contains(status); });
}

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
    const QList<qint64>& ids, const QString& reason, const QDateTime& at, int batchSize, const Progress& progress)
{
    if (at.isValid()) {
        const QDateTime now = m_session.serverNow();
        if (at <= now)
            throw OutboxError(OutboxError::Kind::InvalidInput,
                QStringLiteral("the time to retry at, %1, is not in the future (the server's time is %2); to retry "
                               "now, give no time")
                    .arg(at.toUTC().toString(Qt::ISODate), now.toUTC().toString(Qt::ISODate)));
    }
    const QString details = selectionDetails(at);
    return apply(
        AuditAction::Requeue,
        [at, details](OutboxRepository& outbox, const QList<qint64>& batch) {
            return BatchChanges { outbox.requeue(batch, at), details };
        },
        ids, reason, batchSize, progress);
}

OperatorActionReport OutboxOperator::discard(
    const QList<qint64>& ids, const QString& reason, int batchSize, const Progress& progress)
{
    return apply(
        AuditAction::Discard,
        [details = selectionDetails({})](OutboxRepository& outbox, const QList<qint64>& batch) {
            return BatchChanges { outbox.discard(batch), details };
        },
        ids, reason, batchSize, progress);
}

OperatorActionReport OutboxOperator::releaseLeases(
    const QList<qint64>& ids, const QString& reason, int batchSize, const Progress& progress)
{
    return apply(
        AuditAction::ReleaseLease,
        [](OutboxRepository& outbox, const QList<qint64>& batch) {
            return BatchChanges { outbox.releaseExpiredLeases(batch), {} };
        },
        ids, reason, batchSize, progress);
}

QString OutboxOperator::selectionDetails(const QDateTime& dueAt) const
{
    QJsonObject details;
    if (!m_selectedGroup.isEmpty())
        details.insert(QStringLiteral("signature"), m_selectedGroup);
    if (dueAt.isValid())
        details.insert(QStringLiteral("next_attempt_at"), dueAt.toUTC().toString(Qt::ISODateWithMs));
    return details.isEmpty() ? QString() : QString::fromUtf8(QJsonDocument(details).toJson(QJsonDocument::Compact));
}

QString OutboxOperator::normalizedJson(const QString& text, const QString& what, bool objectOnly)
{
    if (const auto problem = JsonSyntax::check(text))
        throw OutboxError(
            OutboxError::Kind::InvalidInput, QStringLiteral("the %1 is not JSON: %2").arg(what, problem->text()));
    try {
        QSqlQuery& q
            = m_session.exec(QStringLiteral("SELECT jsonb_pretty(j), jsonb_typeof(j) FROM (SELECT ?::jsonb) AS v(j)"),
                { text }, QStringLiteral("checking the %1").arg(what));
        q.next();
        if (objectOnly && q.value(1).toString() != QLatin1String("object"))
            throw OutboxError(OutboxError::Kind::InvalidInput,
                QStringLiteral("the %1 must be a JSON object, not %2 %3")
                    .arg(what,
                        q.value(1).toString() == QLatin1String("array") ? QStringLiteral("an") : QStringLiteral("a"),
                        q.value(1).toString()));
        return q.value(0).toString();
    } catch (const OutboxError& error) {
        if (error.kind() != OutboxError::Kind::InvalidInput || !error.sqlState().startsWith(QLatin1String("22")))
            throw;
        throw OutboxError(OutboxError::Kind::InvalidInput,
            QStringLiteral("PostgreSQL refuses the %1: %2").arg(what, error.message()), error.sqlState());
    }
}

ContentEditPreview OutboxOperator::previewEdit(
    qint64 id, const std::optional<QString>& payload, const std::optional<QString>& headers)
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT status, jsonb_pretty(payload), jsonb_pretty(headers) FROM outbox_messages "
                       "WHERE id = ?::bigint"),
        { id }, QStringLiteral("reading the outbox row to edit"));
    if (!q.next())
        throw OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("there is no outbox row %1").arg(id));
    ContentEditPreview preview;
    preview.id = id;
    preview.status = OutboxStatusNames.fromColumn(q.value(0));
    preview.current = { q.value(1).toString(), q.value(2).toString() };
    preview.proposed = preview.current;
    if (payload)
        preview.proposed.payload = normalizedJson(*payload, QStringLiteral("payload"), false);
    if (headers)
        preview.proposed.headers = normalizedJson(*headers, QStringLiteral("headers"), true);
    return preview;
}

// The audit entry's details of an edit: the texts are the database's own renderings, spliced in as they are so that
// a number keeps every digit (a round trip through QJsonDocument would make it a double).
static QString editDetails(const MessageContent& before, const MessageContent& after)
{
    return QStringLiteral(R"({"payload": {"before": %1, "after": %2}, "headers": {"before": %3, "after": %4}})")
        .arg(before.payload, after.payload, before.headers, after.headers);
}

OperatorActionReport OutboxOperator::editAndRequeue(const ContentEditPreview& preview, const QString& reason)
{
    if (!preview.changesSomething())
        throw OutboxError(OutboxError::Kind::InvalidInput,
            QStringLiteral("the edit changes nothing in row %1; to publish it as it is, requeue it").arg(preview.id));
    return apply(AuditAction::Edit,
        [&preview](OutboxRepository& outbox, const QList<qint64>&) {
            const auto edit = outbox.editAndRequeue(preview.id, preview.current, preview.proposed);
            if (!edit)
                return BatchChanges {};
            return BatchChanges { { edit->change }, editDetails(edit->before, preview.proposed) };
        },
        { preview.id }, reason, DefaultBatchSize, {});
}

OperatorActionReport OutboxOperator::apply(const QString& action, const BatchAction& changeBatch,
    const QList<qint64>& ids, const QString& reason, int batchSize, const Progress& progress)
{
    const QString why = OperatorRole::requiredReason(reason, action, QStringLiteral("rows"));
    OperatorActionReport report;
    // The action's own audit entry, written by the first batch that changes rows: every later batch's entry continues
    // it, so that the action is one entry counting every row it changed (what committed, if it is cancelled or fails
    // midway).
    std::optional<qint64> actionEntry;
    for (qsizetype offset = 0; offset < ids.size(); offset += batchSize) {
        const QList<qint64> batch = ids.mid(offset, batchSize);
        QList<StatusChange> changes;
        try {
            UnitOfWork uow(m_session);
            OutboxRepository outbox(m_session);
            const BatchChanges batchChanges = changeBatch(outbox, batch);
            changes = batchChanges.changes;
            const std::optional<qint64> entry = AuditRepository(m_session).record(
                action, why, AuditEntity::Outbox, changes, batchChanges.details, AuditCount { actionEntry, {} });
            uow.commit();
            if (!actionEntry)
                actionEntry = entry;
        } catch (const OutboxError& error) {
            if (error.kind() != OutboxError::Kind::Permission)
                throw;
            throw OperatorRole::refused(m_session, action, QStringLiteral("outbox rows"), error);
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
