// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/sqlfragment.h"
#include "outbox/messagecontent.h"
#include "outbox/outboxmessage.h"
#include "outbox/statuschange.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

class DbSession;
class QSqlQuery;

// Writes to the outbox table outside the relay's lease protocol: the service adding a message in its own
// transaction, the operator transitions and the retention purge. Every transition carries its state guard in
// the WHERE clause. (The relay's claims and completions are OutboxLeaseRepository; console reads are
// OutboxReadRepository.)
class OutboxRepository final {
public:
    explicit OutboxRepository(DbSession& session);

    // Adds `message` as pending (outbox_enqueue); call it inside the UnitOfWork that writes the change the message
    // describes. A dedupe key that exists already adds nothing and returns the existing row's id.
    qint64 enqueue(const NewOutboxMessage& message);

    // An outbox message some of whose values are SQL expressions (without placeholders) over the row of
    // `source`, typically an earlier part of the same statement: the order just inserted, so the message can
    // carry its id.
    struct DerivedMessage {
        SqlFragment source; // what to read, e.g. "body" (an earlier part); its binds follow the message's
        QString aggregateType;
        QString aggregateIdSql; // SQL expressions over `source`
        QString eventType;
        QString payloadSql;
        QByteArray headers = QByteArrayLiteral("{}"); // bound as a value
        QString dedupeKeySql;
    };
    // `message` as one part of a ChainedStatement (a SELECT of outbox_enqueue(), which runs only as far as the
    // statement reads it: the final select must read it); its one row is the message's id. enqueue() runs the
    // same on its own.
    static SqlFragment enqueuePart(const DerivedMessage& message);

    // failed/dead/discarded -> pending with a fresh attempt budget, due now or at `at` (when valid). Rows in any other
    // state are left alone.
    QList<StatusChange> requeue(const QList<qint64>& ids, const QDateTime& at = {});

    // What an edit replaced: the row's change of state and the content it carried before.
    struct ContentEdit {
        StatusChange change;
        MessageContent before;
    };
    // failed/dead/discarded -> pending like requeue(), now carrying `after`, if the row still carries `expected`
    // (compared as jsonb, so a text of the same JSON in another layout matches). nullopt when the row is in another
    // state or carries other content by now: the operator edited something that no longer is.
    std::optional<ContentEdit> editAndRequeue(qint64 id, const MessageContent& expected, const MessageContent& after);

    // failed/dead -> discarded: never published (unless requeued), and its key's waiting rows are released in the
    // same transaction (a second statement, so that it sees the rows a concurrent claim parked behind these). Rows
    // in any other state are left alone.
    QList<StatusChange> discard(const QList<qint64>& ids);

    // waiting -> pending (failed if tried before) for the rows of `keys`: call it after publishing or discarding rows
    // of these keys, in the same transaction (outbox_release_waiting, migration 0013). Returns how many rows changed.
    int releaseWaiting(const QStringList& keys);

    // paused -> pending (failed if tried before) for up to `batch` rows of each resumed event type, and the end of
    // every resume with none left (outbox_release_resumed, migration 0019). Returns how many rows changed.
    int releaseResumed(int batch);

    // Analyzes again the partitions whose statistics were taken before they held rows of the log
    // (outbox_analyze_for_the_log, migration 0033). Returns how many it analyzed.
    int analyzeForTheLog();

    // in_flight with an expired lease -> pending, due now (the operator's "release lease").
    QList<StatusChange> releaseExpiredLeases(const QList<qint64>& ids);

private:
    QSqlQuery& moveFrom(const QList<qint64>& ids, const QList<OutboxStatus>& from, const QString& assignments,
        const QString& what, const QVariantList& assignmentBinds = {});

    DbSession& m_session;
};
