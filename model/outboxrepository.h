#pragma once

#include "outboxfilter.h"
#include "outboxmessage.h"

#include <QList>
#include <QString>
#include <optional>

class DbSession;

struct OutboxRowSummary {
    qint64 id = 0;
    QString aggregateType;
    QString aggregateId;
    QString eventType;
    QString status;
    int attempts = 0;
    QDateTime nextAttemptAt;
    QString lastErrorLine; // first line of last_error, at most 200 characters
    QString leaseOwner;
    QDateTime leaseExpiresAt;
    QDateTime createdAt;
    QDateTime publishedAt;
};

struct OutboxPage {
    QList<OutboxRowSummary> rows; // newest first
    QDateTime serverNow; // the database's clock when the page was read, for classifying stuck rows
};

struct OutboxRowDetail {
    OutboxRowSummary summary;
    QString dedupeKey;
    QByteArray payload; // JSON as stored
    QByteArray headers;
    QString lastError; // complete
    qint64 leaseToken = 0;
    QDateTime updatedAt;
};

struct OutboxAttempt {
    int attempt = 0;
    QString worker;
    QString error;
    QDateTime at;
};

struct LeaseFence {
    qint64 id = 0;
    qint64 leaseToken = 0;
};

struct PublishFailure {
    qint64 id = 0;
    qint64 leaseToken = 0;
    QString error;
    qint64 backoffMs = 0;
};

struct PublishedRow {
    qint64 id = 0;
    qint64 latencyMs = 0; // created_at -> published_at
};

struct FailedRow {
    qint64 id = 0;
    bool dead = false;
};

struct StatusChange {
    qint64 id = 0;
    QString before;
    QString after;
};

struct BacklogSample {
    qint64 unpublished = 0; // pending + in_flight + failed, counted up to the cap
    bool capped = false;
    qint64 oldestUnpublishedAgeMs = 0;
};

// The outbox table. Claims and completions are batch statements (one round trip per batch); every
// completion carries the fencing token of its claim, so a worker whose lease was taken over cannot
// overwrite the new owner's result.
class OutboxRepository final {
public:
    explicit OutboxRepository(DbSession& session);

    qint64 enqueue(const NewOutboxMessage& message);

    // pending/failed and due -> in_flight, leased to `worker` for `leaseMs`, SKIP LOCKED. Ordered by id.
    QList<OutboxMessage> claimDue(const QString& worker, int batchSize, qint64 leaseMs);

    // in_flight (this lease) -> published. Returns the rows that actually changed.
    QList<PublishedRow> markPublished(const QList<LeaseFence>& fences);

    // in_flight (this lease) -> failed with backoff, or dead once attempts reach maxAttempts; each failure is
    // appended to outbox_attempts. Returns the rows that actually changed.
    QList<FailedRow> markFailed(const QString& worker, const QList<PublishFailure>& failures, int maxAttempts);

    // in_flight (this lease) -> pending or failed as before the claim, the claim's attempt not counted: the
    // broker could not be reached, so the messages were not at fault. Returns how many rows changed.
    int handBack(const QList<LeaseFence>& fences);

    // in_flight whose lease expired -> failed (due now), or dead once attempts reach maxAttempts.
    QList<FailedRow> rescueExpiredLeases(const QString& worker, int maxAttempts, int limit);

    // failed/dead -> pending with a fresh attempt budget. Rows in any other state are left alone.
    QList<StatusChange> requeue(const QList<qint64>& ids);

    // in_flight with an expired lease -> pending, due now (the operator's "release lease").
    QList<StatusChange> releaseExpiredLeases(const QList<qint64>& ids);

    // Rows matching `filter`, newest first, keyset-paged on id: pass the last id of the previous page as
    // `beforeId` (0 for the first page). Each status of the filter is read from its own (status, id) index
    // range and merged, so a page costs the same at 10 million rows as at ten.
    OutboxPage page(const OutboxFilter& filter, int limit, qint64 beforeId);

    // The same rows, ids only, ascending after `afterId`: the frozen set for a bulk action.
    QList<qint64> matchingIds(const OutboxFilter& filter, int limit, qint64 afterId);

    // Current state of the given rows (for refreshing what a list shows), newest first.
    QList<OutboxRowSummary> rowsByIds(const QList<qint64>& ids);

    std::optional<OutboxRowDetail> detail(qint64 id);
    QList<OutboxAttempt> attempts(qint64 outboxId, int limit);
    QList<OutboxRowSummary> forAggregate(const QString& aggregateType, const QString& aggregateId, int limit);

    BacklogSample sampleBacklog(int countCap);

    // Deletes up to `batchSize` published rows older than `olderThanMs`; returns how many.
    int purgePublished(qint64 olderThanMs, int batchSize);

private:
    DbSession& m_session;
};
