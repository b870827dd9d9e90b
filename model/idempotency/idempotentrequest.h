// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "idempotency/idempotencyrepository.h"

#include <QByteArray>
#include <functional>
#include <optional>

class ChainedStatement;
class DbSession;
class MetricsRecorder;
class QSqlQuery;
struct MetricCounters;

// Runs one operation idempotently: claims the key, executes the operation once in the claim's transaction,
// stores its response and commits, or replays the stored response, refuses a reused key, or answers "in
// progress". The operation does its writes (domain rows, outbox messages) on the same session, so everything
// commits together or not at all. Counts every request into the duplicate-hit-rate metrics.
//
// Any C++ operation runs inside a transaction (BEGIN, claim, operation, complete, COMMIT). An operation whose work
// is one database write can instead be given as a SingleWrite, the parts of one statement, which runs with the
// claim and the completion as that one statement in autocommit: one round trip for a create, and for a replay.
//
//     IdempotentRequest request(session, metrics);
//     const auto outcome = request.run(claim, [&](const IdempotencyClaim& /*owned*/) {
//         const QString id = insertPayment(session, ...);
//         OutboxRepository(session).enqueue({ "payment", id, "payment.created", body, "{}", "payment.created:" + id });
//         return IdempotentRequest::Execution::completed(201, body);
//     }, 503, R"({"error":"temporarily_unavailable"})");
class IdempotentRequest final {
public:
    // What the operation did.
    struct Execution {
        int status = 0; // HTTP-like status of the stored response
        QByteArray body; // JSON; a replay returns it as stored (jsonb: same document, normalised whitespace)
        std::optional<qint64> orderId; // the order it created, if any (idempotency_keys.order_id references orders)
        bool finalFailure = false; // a refusal to replay like a success (e.g. a business rule), nothing written
        bool keySettled = false; // the operation's own statement completed or failed the record (a SingleWrite)

        static Execution completed(int status, QByteArray body, std::optional<qint64> orderId = std::nullopt);
        static Execution failedFinally(int status, QByteArray body);
    };
    // Runs once the key is claimed.
    using Operation = std::function<Execution(const IdempotencyClaim& claim)>;

    // An operation whose work is one database write, as parts of a ChainedStatement. `addParts` adds parts that
    // read their input through `gate` (a FROM clause with one row when this request owns the key, none otherwise),
    // settle the key themselves (IdempotencyRepository::completionPart or failurePart) and end with a part named
    // "response" of one row (status int, body jsonb, resource_id bigint) that reads every part that must run.
    struct SingleWrite {
        std::function<void(ChainedStatement& statement, const QString& gate)> addParts;
        bool finalFailure = false; // the response is a refusal, replayed like a success (refusal())

        // Refuses the request for good (e.g. a business rule): the key is failed, not released, nothing else written.
        static SingleWrite refusal(const IdempotencyClaim& claim, int status, const QByteArray& body);
    };
    enum class Form {
        OneStatement, // the claim, the write and the completion are one statement in autocommit
        Transaction, // BEGIN, claim, the write, COMMIT: the before-commit hook runs (tests and demos inject faults)
    };

    struct Outcome {
        enum class Kind {
            Executed, // the operation ran now and its response is stored (also for a final failure)
            Replayed, // the stored response of the first request with this key and request
            InProgress, // the first request is still executing; retry after retryAfterMs
            Mismatch, // the key was used with a different request
            RetryableFailure, // a transient database error: nothing committed, the key is released
        };
        Kind kind = Kind::InProgress;
        Execution response; // Executed and Replayed
        qint64 retryAfterMs = 0; // InProgress
    };

    IdempotentRequest(DbSession& session, MetricsRecorder& metrics);

    // `operation` runs at most once per key and request, inside the transaction. An OutboxError of kind
    // Transient from it (or from the commit) rolls everything back and gives RetryableFailure with
    // `retryableResponse` recorded for operators; any other error propagates, rolled back.
    Outcome run(const IdempotencyClaim& claim, const Operation& operation, int retryableStatus,
        const QByteArray& retryableResponse);
    // The same for a single write, with the same answers in either form.
    Outcome run(const IdempotencyClaim& claim, const SingleWrite& write, Form form, int retryableStatus,
        const QByteArray& retryableResponse);

    // Fault-injection point for tests and demos: runs inside the transaction after an operation that succeeded,
    // just before commit (not in Form::OneStatement, which has no such moment). Whatever it throws rolls it all back.
    void setBeforeCommitHook(std::function<void()> hook) { m_beforeCommit = std::move(hook); }

private:
    Outcome answerRetryably(const IdempotencyClaim& claim, int retryableStatus, const QByteArray& retryableResponse,
        const std::function<Outcome()>& attempt);
    Outcome attempt(const IdempotencyClaim& claim, const Operation& operation);
    Outcome attemptAsOneStatement(const IdempotencyClaim& claim, const SingleWrite& write);
    // The statement of `write` after `claimPart`, executed; its row starts with the response's three columns.
    QSqlQuery& execute(const SingleWrite& write, const SqlFragment& claimPart, const QString& finalSelect);
    Outcome answer(const ClaimResult& claimed);
    Outcome executed(const Execution& execution);
    void countRequest(qint64 MetricCounters::*outcome);

    DbSession& m_session;
    MetricsRecorder& m_metrics;
    std::function<void()> m_beforeCommit;
};
