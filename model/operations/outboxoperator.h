// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/contenteditpreview.h"
#include "outbox/outboxfilter.h"
#include "outbox/outboxrepository.h"

#include <QList>
#include <QString>
#include <functional>
#include <optional>

class DbSession;

// The actions as the audit log names them (audit_log.action): one spelling for the writers and the filters.
namespace AuditAction {
inline const QString Requeue = QStringLiteral("requeue");
inline const QString Discard = QStringLiteral("discard");
inline const QString Edit = QStringLiteral("edit");
inline const QString ReleaseLease = QStringLiteral("release lease");
inline const QString ForgetRelay = QStringLiteral("forget relay");
inline const QString Pause = QStringLiteral("pause");
inline const QString Resume = QStringLiteral("resume");

// Whether the action gave the rows a fresh attempt budget (the relay's count starts from 0 again).
inline bool startsAttemptsAgain(const QString& action)
{
    return action == Requeue || action == Edit;
}
} // namespace AuditAction

struct OperatorActionReport {
    QList<qint64> changed; // rows the action moved
    QList<qint64> leftAlone; // rows of the set not in a state the action applies to (any more)
    bool cancelled = false;
};

// Operator actions on outbox rows, shared by `outboxctl` and the console. An action works on a frozen
// set of ids, in batches; each batch is one transaction that changes rows under their state guard and
// writes its audit row, so a row that changed after the operator looked is skipped and reported. The first
// batch that changes rows writes the action's entry, every later one a continuation of it: one action, one
// entry in the audit log's lists, counting its rows.
class OutboxOperator final {
public:
    static constexpr int DefaultBatchSize = 1000;

    explicit OutboxOperator(DbSession& session);

    using Progress = std::function<bool(qsizetype done, qsizetype total)>;

    // The states an action whose rows are selected by a filter acts on: those of `requested` (the filter's) that the
    // action moves rows out of (`source`); with none requested, the failed and dead rows. A discarded row comes back
    // only when its state is asked for by name: an operator gave up on it, and a broad retry must not undo that.
    static QList<OutboxStatus> statusesToActOn(const QList<OutboxStatus>& requested, const QList<OutboxStatus>& source);

    // The failure group (error signature) the ids of the actions that follow were selected by, empty for none: their
    // audit entries record it in their details, so the log tells a group retry and which group it was.
    void setSelectedGroup(const QString& errorSignature) { m_selectedGroup = errorSignature; }

    // Ids of all rows matching `filter`, ascending, at most `cap` of them.
    QList<qint64> freeze(const OutboxFilter& filter, int cap);

    // failed/dead/discarded -> pending, due now, or at `at` when it is valid (a retry later: after a fix is deployed,
    // outside the consumers' busy hour); the audit entry's details say when. `progress(done, total)` is called after
    // each batch; returning false stops before the next batch. Throws OutboxError(InvalidInput) for an empty reason
    // or an `at` that is not in the future by the server's clock, and OutboxError(Permission) naming the role
    // needed when the database user may not change outbox rows.
    OperatorActionReport requeue(const QList<qint64>& ids, const QString& reason, const QDateTime& at = {},
        int batchSize = DefaultBatchSize, const Progress& progress = {});

    // failed/dead -> discarded, the same way: the rows are not published, and the rows of their ordering keys that
    // waited behind them flow again. For a consumer that event of the key is missing, unless a requeue brings it
    // back (it is then published after the key's later rows).
    OperatorActionReport discard(const QList<qint64>& ids, const QString& reason, int batchSize = DefaultBatchSize,
        const Progress& progress = {});

    // Row `id` with `payload` and/or `headers` (JSON texts; nullopt keeps what it carries) as the operator will
    // confirm it: both sides rendered by the database. Throws OutboxError(InvalidInput) naming the problem when there
    // is no such row, when a text is not one JSON value (with its line and column) or the headers are not an
    // object. Changes nothing.
    ContentEditPreview previewEdit(
        qint64 id, const std::optional<QString>& payload, const std::optional<QString>& headers);

    // failed/dead/discarded -> pending carrying the preview's proposed content, if the row still carries the
    // preview's current content when the action runs; otherwise it is left alone. The audit entry (action "edit")
    // keeps both in its details. Throws like requeue().
    OperatorActionReport editAndRequeue(const ContentEditPreview& preview, const QString& reason);

    // in_flight with an expired lease -> pending, the same way.
    OperatorActionReport releaseLeases(const QList<qint64>& ids, const QString& reason,
        int batchSize = DefaultBatchSize, const Progress& progress = {});

private:
    // What one batch changed: the rows' states, and the audit entry's details (JSON text, empty for none).
    struct BatchChanges {
        QList<StatusChange> changes;
        QString details;
    };
    using BatchAction = std::function<BatchChanges(OutboxRepository&, const QList<qint64>&)>;
    // `text` as a JSON value the database accepts (rendered by jsonb_pretty); `what` names it in the error.
    QString normalizedJson(const QString& text, const QString& what, bool objectOnly);
    OperatorActionReport apply(const QString& action, const BatchAction& changeBatch, const QList<qint64>& ids,
        const QString& reason, int batchSize, const Progress& progress);

    // The audit details of a requeue or discard: the selected group, and for a retry later when.
    QString selectionDetails(const QDateTime& dueAt) const;

    DbSession& m_session;
    QString m_selectedGroup;
};
