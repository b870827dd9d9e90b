#pragma once

#include "outboxmessage.h"

#include <QList>
#include <QString>

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

struct RequeueSelection {
    QString status; // "failed" or "dead"
    qint64 olderThanMs = 0; // last state change at least this long ago; 0 = any
    QString errorContains; // case-insensitive substring of last_error; empty = any
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

    // in_flight whose lease expired -> failed (due now), or dead once attempts reach maxAttempts.
    QList<FailedRow> rescueExpiredLeases(const QString& worker, int maxAttempts, int limit);

    // failed/dead -> pending with a fresh attempt budget. Rows in any other state are left alone.
    QList<StatusChange> requeue(const QList<qint64>& ids);

    // Ids matching `selection`, ascending, after `afterId`: the frozen set a bulk requeue works through.
    QList<qint64> selectForRequeue(const RequeueSelection& selection, int limit, qint64 afterId);

    // Newest first, keyset-paged on id: pass the last id of the previous page as `beforeId` (0 for the first).
    QList<OutboxRowSummary> list(const QString& status, int limit, qint64 beforeId);

    BacklogSample sampleBacklog(int countCap);

    // Deletes up to `batchSize` published rows older than `olderThanMs`; returns how many.
    int purgePublished(qint64 olderThanMs, int batchSize);

private:
    DbSession& m_session;
};
