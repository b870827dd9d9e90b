// SPDX-License-Identifier: GPL-3.0-or-later
#include "idempotency/idempotentrequest.h"

#include "db/chainedstatement.h"
#include "db/changenotifier.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "metrics/metricsrecorder.h"

#include <QSqlQuery>

using Execution = IdempotentRequest::Execution;
using Outcome = IdempotentRequest::Outcome;

// The part every SingleWrite reads its input through: the claim's row when this request owns the key.
static const QString ClaimGate = QStringLiteral(" FROM claim WHERE claim.outcome = 'execute'");

Execution Execution::completed(int status, QByteArray body, std::optional<qint64> orderId)
{
    return Execution { status, std::move(body), orderId, false, false };
}

Execution Execution::failedFinally(int status, QByteArray body)
{
    return Execution { status, std::move(body), std::nullopt, true, false };
}

IdempotentRequest::SingleWrite IdempotentRequest::SingleWrite::refusal(
    const IdempotencyClaim& claim, int status, const QByteArray& body)
{
    const auto addParts = [claim, status, body](ChainedStatement& statement, const QString& gate) {
        statement.add(QStringLiteral("refused"),
            SqlFragment {
                QStringLiteral("SELECT ?::int AS status, ?::jsonb AS body, NULL::bigint AS resource_id") + gate,
                { status, QString::fromUtf8(body) } });
        statement.add(QStringLiteral("settled"),
            IdempotencyRepository::failurePart(claim, false,
                { SqlFragment { QStringLiteral("refused") }, QStringLiteral("refused.status"),
                    QStringLiteral("refused.body"), {} }));
        statement.add(
            QStringLiteral("response"), SqlFragment { QStringLiteral("SELECT refused.* FROM refused, settled") });
    };
    return SingleWrite { addParts, true };
}

// The response a SingleWrite stored, from the first three columns of its statement's row.
static Execution writtenResponse(const QSqlQuery& row, const IdempotentRequest::SingleWrite& write)
{
    Execution execution = Execution::completed(row.value(0).toInt(), row.value(1).toString().toUtf8());
    if (!row.value(2).isNull())
        execution.orderId = row.value(2).toLongLong();
    execution.finalFailure = write.finalFailure;
    execution.keySettled = true;
    return execution;
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
    return answerRetryably(claim, retryableStatus, retryableResponse, [&] { return attempt(claim, operation); });
}

Outcome IdempotentRequest::run(const IdempotencyClaim& claim, const SingleWrite& write, Form form, int retryableStatus,
    const QByteArray& retryableResponse)
{
    if (form == Form::OneStatement) {
        return answerRetryably(
            claim, retryableStatus, retryableResponse, [&] { return attemptAsOneStatement(claim, write); });
    }
    // Claimed already: the gate passes.
    const auto inTransaction = [&](const IdempotencyClaim&) {
        QSqlQuery& row = execute(write, SqlFragment { QStringLiteral("SELECT 'execute'::text AS outcome") },
            QStringLiteral("SELECT response.status, response.body::text, response.resource_id FROM response"));
        row.next();
        return writtenResponse(row, write);
    };
    return run(claim, inTransaction, retryableStatus, retryableResponse);
}

Outcome IdempotentRequest::answerRetryably(const IdempotencyClaim& claim, int retryableStatus,
    const QByteArray& retryableResponse, const std::function<Outcome()>& attempt)
{
    try {
        return attempt();
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

// The answer to a request that does not execute.
Outcome IdempotentRequest::answer(const ClaimResult& claimed)
{
    Outcome outcome;
    switch (claimed.kind) {
    case ClaimResult::Kind::Replay:
        countRequest(&MetricCounters::replays);
        outcome.kind = Outcome::Kind::Replayed;
        outcome.response = Execution::completed(claimed.responseStatus, claimed.responseBody, claimed.orderId);
        break;
    case ClaimResult::Kind::Mismatch:
        countRequest(&MetricCounters::mismatches);
        outcome.kind = Outcome::Kind::Mismatch;
        break;
    case ClaimResult::Kind::InProgress:
    case ClaimResult::Kind::Claimed: // not reached: a claimed request executes
        countRequest(&MetricCounters::inProgressRejections);
        outcome.kind = Outcome::Kind::InProgress;
        outcome.retryAfterMs = claimed.retryAfterMs;
        break;
    }
    return outcome;
}

// The answer to a request that executed and committed.
Outcome IdempotentRequest::executed(const Execution& execution)
{
    if (!execution.finalFailure)
        ChangeNotifier::notify(m_session);
    countRequest(&MetricCounters::executions);
    Outcome outcome;
    outcome.kind = Outcome::Kind::Executed;
    outcome.response = execution;
    return outcome;
}

Outcome IdempotentRequest::attempt(const IdempotencyClaim& claim, const Operation& operation)
{
    IdempotencyRepository keys(m_session);
    UnitOfWork uow(m_session);
    const ClaimResult claimed = keys.claim(claim, IdempotencyRepository::Holding::ThisTransaction);
    if (claimed.kind != ClaimResult::Kind::Claimed) {
        if (claimed.kind == ClaimResult::Kind::Replay)
            uow.commit(); // the replay's count
        return answer(claimed);
    }
    const Execution execution = operation(claim);
    if (!execution.keySettled && execution.finalFailure)
        keys.fail(claim, false, execution.status, execution.body);
    else if (!execution.keySettled)
        keys.complete(claim, execution.status, execution.body, execution.orderId);
    if (m_beforeCommit && !execution.finalFailure)
        m_beforeCommit();
    uow.commit();
    return executed(execution);
}

Outcome IdempotentRequest::attemptAsOneStatement(const IdempotencyClaim& claim, const SingleWrite& write)
{
    // The claim's row joined with the response, which is there when the claim executed.
    QSqlQuery& row
        = execute(write, IdempotencyRepository::claimPart(claim, IdempotencyRepository::Holding::ThisTransaction),
            QStringLiteral("SELECT response.status, response.body::text, response.resource_id, claim.* "
                           "FROM claim LEFT JOIN response ON true"));
    row.next();
    const ClaimResult claimed = IdempotencyRepository::claimFromRow(row, 3);
    if (claimed.kind != ClaimResult::Kind::Claimed)
        return answer(claimed);
    return executed(writtenResponse(row, write));
}

QSqlQuery& IdempotentRequest::execute(
    const SingleWrite& write, const SqlFragment& claimPart, const QString& finalSelect)
{
    ChainedStatement statement;
    statement.add(QStringLiteral("claim"), claimPart);
    write.addParts(statement, ClaimGate);
    const SqlFragment built = statement.build(SqlFragment { finalSelect });
    return m_session.exec(built.sql, built.binds, QStringLiteral("executing the idempotent write"));
}
