// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

class DbSession;

// Retention in bounded batches: each batch is one short DELETE ... LIMIT transaction that skips locked
// rows, so a purge over millions of rows never holds long locks or builds a giant transaction, and the batches are
// paced (MaintenancePace) so that the writers keep most of the machine. The outbox's
// published rows go with whole partitions instead (OutboxPartitions).
class RetentionPurger final {
public:
    static constexpr int DefaultBatchSize = 1000;
    static constexpr qint64 DefaultPartitionAgeMs = 24LL * 3600 * 1000;

    explicit RetentionPurger(DbSession& session, int batchSize = DefaultBatchSize);

    // Idempotency keys past their TTL (in-progress ones only once their lease has expired too).
    qint64 purgeExpiredKeys();

    // Published outbox rows (with their attempt history) published more than `olderThanMs` ago, by dropping the
    // partitions that hold them, after closing the open partition if it is `partitionAgeMs` old (rows in the open
    // partition go once it is closed). Needs a session outside any transaction.
    qint64 purgePublishedOutbox(qint64 olderThanMs, qint64 partitionAgeMs = DefaultPartitionAgeMs);

    // Inbox rows (of every consumer) received more than `olderThanMs` ago.
    qint64 purgeInbox(qint64 olderThanMs);

    // Registry rows of relays that stopped or went stale and were last seen more than `olderThanMs` ago.
    qint64 purgeGoneRelays(qint64 olderThanMs);

private:
    DbSession& m_session;
    int m_batchSize;
};
