// SPDX-License-Identifier: GPL-3.0-or-later
#include "idempotency/idempotentrequest.h"

#include "db/changenotifier.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "metrics/metricsrecorder.h"

using Execution = IdempotentRequest::Execution;
using Outcome = IdempotentRequest::Outcome;

Execution Execution::completed(int status, QByteArray body, std::optional<qint64> orderId)
{
    return Execution { status, std::move(body), orderId, false, false };
}

Execution Execution::alreadyCompleted(int status, QByteArray body, std::optional<qint64> orderId)
{
    return Execution { status, std::move(body), orderId, false, true };
}

Execution Execution::failedFinally(int status, QByteArray body)
{
    return Execution { status, std::move(body), std::nullopt, true, false };
}

// Every answer counts as a request, plus the counter of its kind (the duplicate hit rate's terms).
void IdempotentRequest::countRequest(qint64 MetricCounters::*outcome)
{
    m_metrics.record([outcome](MetricCounters& c) {
        ++c.requests;
        ++(c.*outcome);
    });
}

IdempotentRequest::IdempotentRequest(DbSession& session, MetricsRecorder& metrics)
    : m_session(session)
    , m_metrics(metrics)
{ }

Outcome IdempotentRequest::run(
    const IdempotencyClaim& claim, const Operation& operation, int retryableStatus, const QByteArray& retryableResponse)
{
    try {
        if (std::optional<Outcome> outcome = attempt(claim, operation))
            return *outcome;
    } catch (const OutboxError& error) {
        // Connection, permission and schema problems are the caller's to report; only a transient conflict
        // is answered as a retryable failure.
        if (error.kind() != OutboxError::Kind::Transient)
            throw;
    }
    // The transaction rolled back, so the key is free again; leave a visible trace of the released attempt.
    try {
        UnitOfWork uow(m_session);
        IdempotencyRepository(m_session).recordRetryableFailure(claim, retryableStatus, retryableResponse);
        uow.commit();
    } catch (const OutboxError&) {
        // Only the trace is lost; the key is released either way.
    }
    countRequest(&MetricCounters::executions);
    Outcome outcome;
    outcome.kind = Outcome::Kind::RetryableFailure;
    outcome.response = Execution { retryableStatus, retryableResponse, std::nullopt, false, false };
    return outcome;
}

std::optional<Outcome> IdempotentRequest::attempt(const IdempotencyClaim& claim, const Operation& operation)
{
    IdempotencyRepository keys(m_session);
    UnitOfWork uow(m_session);
    const ClaimResult claimed = keys.claim(claim);
    Outcome outcome;
    switch (claimed.kind) {
    case ClaimResult::Kind::Replay:
        uow.commit();
        countRequest(&MetricCounters::replays);
        outcome.kind = Outcome::Kind::Replayed;
        outcome.response = Execution::completed(claimed.responseStatus, claimed.responseBody, claimed.orderId);
        return outcome;
    case ClaimResult::Kind::Mismatch:
        countRequest(&MetricCounters::mismatches);
        outcome.kind = Outcome::Kind::Mismatch;
        return outcome;
    case ClaimResult::Kind::InProgress:
        countRequest(&MetricCounters::inProgressRejections);
        outcome.kind = Outcome::Kind::InProgress;
        outcome.retryAfterMs = claimed.retryAfterMs;
        return outcome;
    case ClaimResult::Kind::Claimed:
        break;
    }

    const Execution executed = operation(claim);
    if (executed.finalFailure)
        keys.fail(claim, false, executed.status, executed.body);
    else if (!executed.keyCompleted)
        keys.complete(claim, executed.status, executed.body, executed.orderId);
    if (m_beforeCommit && !executed.finalFailure)
        m_beforeCommit();
    uow.commit();
    if (!executed.finalFailure)
        ChangeNotifier::notify(m_session);
    countRequest(&MetricCounters::executions);
    outcome.kind = Outcome::Kind::Executed;
    outcome.response = executed;
    return outcome;
}
