// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/sqlfragment.h"
#include "idempotency/keyfilter.h"
#include "idempotency/keystatus.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

class DbSession;
class QSqlQuery;

struct IdempotencyClaim {
    QString scope;
    QString key;
    QString fingerprint; // 64 lowercase hex digits
    qint64 leaseMs = 30'000; // how long a claim held by lease blocks duplicates before a retry may take over
    qint64 ttlMs = 24LL * 3600 * 1000; // how long the completed response is replayed
};

struct ClaimResult {
    enum class Kind {
        Claimed, // the caller owns the key now and must complete() or fail() it in the same transaction
        Replay, // same request completed (or finally failed) before: the stored response is in `response*`
        Mismatch, // the key was used with a different request
        InProgress, // another request with this key is executing; retry after `retryAfterMs`
    };
    Kind kind = Kind::InProgress;
    qint64 recordId = 0;
    bool takenOver = false; // Claimed by taking over an expired, released or abandoned record
    int responseStatus = 0;
    QByteArray responseBody;
    std::optional<qint64> orderId;
    qint64 retryAfterMs = 0;
};

struct IdempotencyRecord {
    qint64 id = 0;
    QString scope;
    QString key;
    QString fingerprint;
    KeyStatus status = KeyStatus::InProgress;
    std::optional<bool> failureRetryable;
    int responseStatus = 0;
    QByteArray responseBody; // filled by find() only: list queries leave heavy columns out
    QDateTime lockedUntil;
    QDateTime expiresAt;
    QDateTime createdAt;
    QDateTime updatedAt;
    int replayCount = 0;
    QDateTime lastReplayedAt;
    std::optional<qint64> orderId;
};

// The idempotency key store. The claim, completion and failure rules are the SQL functions of migration 0009
// (idempotency_begin, idempotency_complete, idempotency_fail), which services in other languages call too; every
// statement that changes a record carries its state guard in the WHERE clause, and a record is only ever inserted
// through INSERT ... ON CONFLICT, never check-then-insert.
class IdempotencyRepository final {
public:
    explicit IdempotencyRepository(DbSession& session);

    // How long a claim holds the key.
    enum class Holding {
        // Until the claim's transaction ends: complete() or fail() follows in the same transaction. Nothing is
        // written before them (they insert the record settled, one row version); committing without them leaves
        // nothing behind.
        ThisTransaction,
        // The record is written in progress, so the claim may be committed on its own (the two-phase form for
        // work that calls other systems); its lease (IdempotencyClaim::leaseMs) keeps duplicates out until then.
        Lease,
    };

    // Claims the key, replays the stored response, or says why not (idempotency_begin). Must run inside a
    // UnitOfWork: the claim holds a transaction-scoped advisory lock on (scope, key), so a concurrent duplicate is
    // answered InProgress at once instead of queueing behind the first request. A replay is one indexed read; it is
    // counted later (foldReplays) and its transaction commits asynchronously, so it waits for no WAL flush.
    ClaimResult claim(const IdempotencyClaim& claim, Holding holding = Holding::Lease);

    // The same claim as one part of a ChainedStatement, for an operation that runs in the claim's statement
    // (IdempotentRequest::run with a SingleWrite); claimFromRow reads its ClaimColumnCount columns from a row whose
    // column `first` is its first.
    static constexpr int ClaimColumnCount = 7;
    static SqlFragment claimPart(const IdempotencyClaim& claim, Holding holding);
    static ClaimResult claimFromRow(const QSqlQuery& row, int first);

    // in_progress -> completed (idempotency_complete). Throws OutboxError if the record is no longer in progress
    // for this request.
    void complete(const IdempotencyClaim& claim, int responseStatus, const QByteArray& responseBody,
        std::optional<qint64> orderId);

    // The same completion as one part of a ChainedStatement, its response taken from SQL expressions (without
    // placeholders) over `source`, e.g. the order inserted by an earlier part. A SELECT part runs only as far as
    // the statement reads it: the final select must read it (its one row is the record's id). The statement fails
    // when the record is no longer in progress.
    struct DerivedResponse {
        SqlFragment source;
        QString statusSql;
        QString bodySql; // jsonb
        QString orderIdSql; // bigint or NULL
    };
    static SqlFragment completionPart(const IdempotencyClaim& claim, const DerivedResponse& response);
    // in_progress -> failed in the same way (idempotency_fail); `response.orderIdSql` is not used.
    static SqlFragment failurePart(const IdempotencyClaim& claim, bool retryable, const DerivedResponse& response);

    // in_progress -> failed (idempotency_fail). A retryable failure releases the key; a final one is replayed like
    // a success.
    void fail(const IdempotencyClaim& claim, bool retryable, int responseStatus, const QByteArray& responseBody);

    // After a rolled-back attempt: records a released (retryable) failure for operators to see, unless the
    // key has meanwhile been completed or claimed by someone else.
    void recordRetryableFailure(const IdempotencyClaim& claim, int responseStatus, const QByteArray& responseBody);

    // Applies the replays counted since the last fold to replay_count and last_replayed_at
    // (idempotency_fold_replays: a replay itself writes no row version of its key). Returns how many it applied;
    // 0 also when another session is folding.
    qint64 foldReplays();

    // With the response body, unlike page().
    std::optional<IdempotencyRecord> find(const QString& scope, const QString& key);
    std::optional<IdempotencyRecord> findById(qint64 id);
    std::optional<IdempotencyRecord> findByOrder(qint64 orderId);

    // Records matching `filter`, newest first, keyset-paged on id: pass the last id of the previous page as
    // `beforeId` (0 for the first page).
    QList<IdempotencyRecord> page(const KeyFilter& filter, int limit, qint64 beforeId);
    QList<IdempotencyRecord> recordsByIds(const QList<qint64>& ids);

    // Deletes up to `batchSize` expired records; returns how many.
    int purgeExpired(int batchSize);

private:
    static SqlFragment settlementPart(
        const QString& call, const IdempotencyClaim& claim, const DerivedResponse& response);
    std::optional<IdempotencyRecord> findWhere(const QString& condition, const QVariantList& binds);
    DbSession& m_session;
};
