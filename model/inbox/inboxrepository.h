// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class DbSession;

// The inbox table: which messages each consumer has already applied.
class InboxRepository final {
public:
    explicit InboxRepository(DbSession& session);

    // Records that `consumer` applied `messageId`; false if it already had (a duplicate delivery). Call it inside
    // the consumer's own transaction, so the row commits or rolls back with the changes the message causes. A
    // concurrent delivery of the same message waits for the first transaction and then sees the duplicate.
    bool record(const QString& consumer, const QString& messageId);

    // Deletes up to `batchSize` rows received more than `olderThanMs` ago; returns how many. Keep rows longer than
    // the broker can redeliver a message (its queue TTL, or how long a consumer may stay down).
    int purgeOlderThan(qint64 olderThanMs, int batchSize);

private:
    DbSession& m_session;
};
