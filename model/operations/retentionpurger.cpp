// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/retentionpurger.h"

#include "db/maintenancepace.h"
#include "idempotency/idempotencyrepository.h"
#include "inbox/inboxrepository.h"
#include "operations/relayfleet.h"
#include "outbox/outboxpartitions.h"

#include <functional>

RetentionPurger::RetentionPurger(DbSession& session, int batchSize)
    : m_session(session)
    , m_batchSize(batchSize)
{ }

// Batches until one comes back short, paced: deleting 1 M expired keys back to back halved the claims of new keys
// on 2 cores for its 9 s.
static qint64 purgeInBatches(int batchSize, const std::function<int()>& deleteBatch)
{
    qint64 total = 0;
    MaintenancePace pace;
    for (;;) {
        const int deleted = deleteBatch();
        total += deleted;
        if (deleted < batchSize)
            return total;
        pace.rest();
    }
}

qint64 RetentionPurger::purgeExpiredKeys()
{
    IdempotencyRepository keys(m_session);
    return purgeInBatches(m_batchSize, [&] { return keys.purgeExpired(m_batchSize); });
}

qint64 RetentionPurger::purgePublishedOutbox(qint64 olderThanMs, qint64 partitionAgeMs)
{
    OutboxPartitions partitions(m_session);
    partitions.rollIfOlderThan(partitionAgeMs);
    return partitions.dropPublished(olderThanMs, m_batchSize);
}

qint64 RetentionPurger::purgeInbox(qint64 olderThanMs)
{
    InboxRepository inbox(m_session);
    return purgeInBatches(m_batchSize, [&] { return inbox.purgeOlderThan(olderThanMs, m_batchSize); });
}

qint64 RetentionPurger::purgeGoneRelays(qint64 olderThanMs)
{
    RelayFleet fleet(m_session);
    return purgeInBatches(m_batchSize, [&] { return fleet.purgeGone(olderThanMs, m_batchSize); });
}
