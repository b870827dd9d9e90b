// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/backlogsample.h"
#include "outbox/outboxfilter.h"
#include "outbox/outboxrows.h"

#include <QList>
#include <optional>

class DbSession;

// What the console, outboxctl and the relay's sampler read from the outbox. Never changes a row.
class OutboxReadRepository final {
public:
    explicit OutboxReadRepository(DbSession& session);

    // Rows matching `filter`, newest first, keyset-paged: pass the last id of the previous page as `beforeId` (0
    // for the first page). Each status of the filter is read from its own (status, id) index range and merged, so
    // a page costs the same at 10 million rows as at ten; while a created-time range is set, newest first means by
    // created_at (then id), read from (status, created_at, id).
    OutboxPage page(const OutboxFilter& filter, int limit, qint64 beforeId);

    // The same rows, ids only, ascending after `afterId`: the frozen set for a bulk action.
    QList<qint64> matchingIds(const OutboxFilter& filter, int limit, qint64 afterId);

    // Current state of the given rows (for refreshing what a list shows), newest first.
    QList<OutboxRowSummary> rowsByIds(const QList<qint64>& ids);

    // The rows waiting longest to be published (pending, in flight or failed), oldest first: off the log found
    // here, of the log among `oldestOfTheLog`, the ids of those the caller read (the Overview, within its count's
    // cap: outbox_log_unpublished_within()).
    QList<OutboxRowSummary> oldestUnpublished(int limit, const QList<qint64>& oldestOfTheLog);

    // The oldest row of `row`'s ordering key not yet published or discarded, if it is older than `row`: the one that
    // must be published first, which `row` waits behind. nullopt for an unordered row or a key's head.
    std::optional<OutboxRowSummary> keyHead(const OutboxRowSummary& row);
    // How many rows of `row`'s key wait behind it (status waiting, later ids), counted up to `cap`.
    qint64 waitingBehind(const OutboxRowSummary& row, int cap);

    std::optional<OutboxRowDetail> detail(qint64 id);
    QList<OutboxAttempt> attempts(qint64 outboxId, int limit);
    // How many failed attempts of the row are on record, however many that is (outbox_attempts_outbox_idx).
    int attemptCount(qint64 outboxId);
    QList<OutboxRowSummary> forAggregate(const QString& aggregateType, const QString& aggregateId, int limit);

    BacklogSample sampleBacklog(int countCap);

private:
    // The lowest id a row of the filter's created range can have, if the partitions say (the search then skips
    // the partitions below it).
    std::optional<qint64> firstIdOf(const OutboxFilter& filter);

    DbSession& m_session;
};
