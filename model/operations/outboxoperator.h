// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxfilter.h"
#include "outbox/outboxrepository.h"

#include <QList>
#include <QString>
#include <functional>

class DbSession;

// The actions as the audit log names them (audit_log.action): one spelling for the writers and the filters.
namespace AuditAction {
inline const QString Requeue = QStringLiteral("requeue");
inline const QString Discard = QStringLiteral("discard");
inline const QString ReleaseLease = QStringLiteral("release lease");
} // namespace AuditAction

struct OperatorActionReport {
    QList<qint64> changed; // rows the action moved
    QList<qint64> leftAlone; // rows of the set not in a state the action applies to (any more)
    bool cancelled = false;
};

// Operator actions on outbox rows, shared by `outboxctl` and the console. An action works on a frozen
// set of ids, in batches; each batch is one transaction that changes rows under their state guard and
// writes its audit row, so a row that changed after the operator looked is skipped and reported.
class OutboxOperator final {
public:
    static constexpr int DefaultBatchSize = 1000;

    explicit OutboxOperator(DbSession& session);

    using Progress = std::function<bool(qsizetype done, qsizetype total)>;

    // Ids of all rows matching `filter`, ascending, at most `cap` of them.
    QList<qint64> freeze(const OutboxFilter& filter, int cap);

    // failed/dead/discarded -> pending. `progress(done, total)` is called after each batch; returning false stops
    // before the next batch. Throws OutboxError(InvalidInput) for an empty reason and OutboxError(Permission)
    // naming the role needed when the database user may not change outbox rows.
    OperatorActionReport requeue(const QList<qint64>& ids, const QString& reason, int batchSize = DefaultBatchSize,
        const Progress& progress = {});

    // failed/dead -> discarded, the same way: the rows are not published, and the rows of their ordering keys that
    // waited behind them flow again. For a consumer that event of the key is missing, unless a requeue brings it
    // back (it is then published after the key's later rows).
    OperatorActionReport discard(const QList<qint64>& ids, const QString& reason, int batchSize = DefaultBatchSize,
        const Progress& progress = {});

    // in_flight with an expired lease -> pending, the same way.
    OperatorActionReport releaseLeases(const QList<qint64>& ids, const QString& reason,
        int batchSize = DefaultBatchSize, const Progress& progress = {});

private:
    using BatchAction = std::function<QList<StatusChange>(OutboxRepository&, const QList<qint64>&)>;
    OperatorActionReport apply(const QString& action, const BatchAction& changeBatch, const QList<qint64>& ids,
        const QString& reason, int batchSize, const Progress& progress);

    DbSession& m_session;
};
