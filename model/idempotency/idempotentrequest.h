// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "idempotency/idempotencyrepository.h"

#include <QByteArray>
#include <functional>
#include <optional>

class DbSession;
class MetricsRecorder;
struct MetricCounters;

// Runs one operation idempotently: claims the key, executes the operation once in the claim's transaction,
// stores its response and commits, or replays the stored response, refuses a reused key, or answers "in
// progress". The operation does its writes (domain rows, outbox messages) on the same session, so everything
// commits together or not at all. Counts every request into the duplicate-hit-rate metrics.
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
        bool keyCompleted = false; // the operation already completed the record in one of its own statements

        static Execution completed(int status, QByteArray body, std::optional<qint64> orderId = std::nullopt);
        // For operations that complete the record themselves, with IdempotencyRepository::completionPart
        // inside their own statement, to save a round trip.
        static Execution alreadyCompleted(int status, QByteArray body, std::optional<qint64> orderId = std::nullopt);
        static Execution failedFinally(int status, QByteArray body);
    };
    // Runs once the key is claimed; the claim is passed on for operations that complete it themselves.
    using Operation = std::function<Execution(const IdempotencyClaim& claim)>;

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

    // Fault-injection point for tests and demos: runs inside the transaction after an operation that succeeded,
    // just before commit. Whatever it throws rolls it all back.
    void setBeforeCommitHook(std::function<void()> hook) { m_beforeCommit = std::move(hook); }

private:
    std::optional<Outcome> attempt(const IdempotencyClaim& claim, const Operation& operation);
    void countRequest(qint64 MetricCounters::*outcome);

    DbSession& m_session;
    MetricsRecorder& m_metrics;
    std::function<void()> m_beforeCommit;
};
