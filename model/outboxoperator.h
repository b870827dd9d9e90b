#pragma once

#include "outboxrepository.h"

#include <QList>
#include <functional>

class DbSession;

struct RequeueReport {
    QList<qint64> requeued; // rows moved failed/dead -> pending
    QList<qint64> skipped; // rows of the set whose state had changed meanwhile, left alone
    bool cancelled = false;
};

// Operator actions on outbox rows, shared by `outboxctl` and the console. An action works on a frozen
// set of ids, in batches; each batch is one transaction that changes rows under their state guard and
// writes its audit row, so a row that changed after the operator looked is skipped and reported.
class OutboxOperator final {
public:
    static constexpr int DefaultBatchSize = 1000;

    explicit OutboxOperator(DbSession& session);

    // Ids of all rows matching `selection`, ascending, at most `cap` of them.
    QList<qint64> freeze(const RequeueSelection& selection, int cap);

    // `progress(done, total)` is called after each batch; returning false stops before the next batch.
    // Throws OutboxError(InvalidInput) for an empty reason and OutboxError(Permission) naming the role
    // needed when the database user may not change outbox rows.
    RequeueReport requeue(const QList<qint64>& ids, const QString& reason, int batchSize = DefaultBatchSize,
        const std::function<bool(qsizetype, qsizetype)>& progress = {});

private:
    DbSession& m_session;
};
