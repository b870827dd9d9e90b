// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/relayworker.h"

#include "db/changenotifier.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "metrics/metricsrecorder.h"
#include "metrics/throughputrecorder.h"
#include "relay/leasekeeper.h"
#include "relay/outboxleaserepository.h"
#include "relay/relaytally.h"

#include <QElapsedTimer>
#include <QHash>
#include <numeric>

static constexpr int RescueBatchLimit = 1000;
// A completion rolled back by a deadlock runs again this often before the error goes to the worker's loop.
static constexpr int CompletionAttempts = 5;

RelayWorker::RelayWorker(DbSession& session, MessageSink& sink, MetricsRecorder& metrics,
    ThroughputRecorder& throughput, LeaseKeeper& leases, RelayTally& tally, const RelayOptions& options, QString name)
    : m_session(session)
    , m_sink(sink)
    , m_metrics(metrics)
    , m_throughput(throughput)
    , m_options(options)
    , m_name(std::move(name))
    , m_leases(leases)
    , m_tally(tally)
    , m_backoff(options.backoffBaseMs, options.backoffMaxMs)
    , m_random(QRandomGenerator::global()->generate())
{ }

// Adds what a batch or a rescue did to the seconds of the rows' event types.
static void recordThroughput(ThroughputRecorder& throughput, const QList<OutboxMessage>& batch,
    const QList<PublishedRow>& published, const QList<FailedRow>& failed)
{
    QHash<QString, ThroughputRecorder::Counts> byType;
    if (!published.isEmpty()) {
        QHash<qint64, QString> typeOf;
        for (const OutboxMessage& message : batch)
            typeOf.insert(message.id, message.eventType);
        for (const PublishedRow& row : published)
            ++byType[typeOf.value(row.id)].published;
    }
    for (const FailedRow& row : failed) {
        ThroughputRecorder::Counts& counts = byType[row.eventType];
        ++counts.failed;
        counts.dead += row.dead ? 1 : 0;
    }
    for (auto it = byType.cbegin(); it != byType.cend(); ++it)
        throughput.record(it.key(), *it);
}

static QString describeException(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    } catch (...) {
        return QStringLiteral("unknown exception thrown by the sink");
    }
}

static bool isBrokerUnavailable(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const OutboxError& e) {
        return e.kind() == OutboxError::Kind::Broker;
    } catch (...) {
        return false;
    }
}

QList<PublishResult> RelayWorker::publishIsolatingFailures(const QList<OutboxMessage>& batch)
{
    try {
        return m_sink.publish(batch);
    } catch (...) {
        const std::exception_ptr error = std::current_exception();
        if (isBrokerUnavailable(error))
            std::rethrow_exception(error); // not the messages' fault: processBatch() hands them back
        if (batch.size() == 1)
            return { PublishResult { batch.first().id, false, describeException(error) } };
    }
    // The batch as a whole failed: publish one by one, so only the message that really fails is charged.
    QList<PublishResult> results;
    for (const OutboxMessage& message : batch)
        results.append(publishIsolatingFailures({ message }));
    return results;
}

QHash<qint64, PublishResult> RelayWorker::publishInKeyOrder(const QList<OutboxMessage>& batch)
{
    // In rounds: the first with every unkeyed row, and each with the next row of every key whose earlier rows
    // were published. A batch of distinct keys (or none) is one round, as if unordered; the rows of one key take
    // a round each, which a broker sink pays with a confirm each: the single-key limit.
    QList<OutboxMessage> round;
    QList<QList<OutboxMessage>> keyed; // the rows of each key, in id order
    QHash<QString, qsizetype> keyIndex;
    for (const OutboxMessage& message : batch) {
        if (message.orderingKey.isEmpty()) {
            round.append(message);
            continue;
        }
        auto it = keyIndex.constFind(message.orderingKey);
        if (it == keyIndex.cend()) {
            it = keyIndex.insert(message.orderingKey, keyed.size());
            keyed.append(QList<OutboxMessage>());
        }
        keyed[*it].append(message);
    }
    QHash<qint64, PublishResult> outcomes;
    QList<qsizetype> flowing(keyed.size()); // the keys still publishing, as indexes into `keyed`
    std::iota(flowing.begin(), flowing.end(), 0);
    for (qsizetype next = 0; !round.isEmpty() || !flowing.isEmpty(); ++next) {
        for (const qsizetype key : std::as_const(flowing))
            round.append(keyed[key][next]);
        for (const PublishResult& outcome : publishIsolatingFailures(round))
            outcomes.insert(outcome.id, outcome);
        for (const OutboxMessage& message : std::as_const(round)) {
            if (!outcomes.contains(message.id))
                outcomes.insert(
                    message.id, { message.id, false, QStringLiteral("the sink returned no result for this message") });
        }
        flowing.removeIf(
            [&](qsizetype key) { return !outcomes.value(keyed[key][next].id).ok || next + 1 == keyed[key].size(); });
        round.clear();
    }
    return outcomes;
}

RelayBatchResult RelayWorker::processBatch()
{
    QElapsedTimer took;
    took.start();
    // A single statement: it commits on its own, so the lease is visible to everyone before we publish.
    const OutboxLeaseRepository::Claim claim = OutboxLeaseRepository(m_session).claimDue(
        m_options.workerName, m_name, m_options.batchSize, m_options.leaseMs);
    const QList<OutboxMessage>& batch = claim.messages;
    RelayBatchResult result;
    result.claimed = int(batch.size());
    result.relayPause = claim.relayPause;
    if (batch.isEmpty())
        return result;
    QList<LeaseFence> claimed;
    for (const OutboxMessage& message : batch)
        claimed.append({ message.id, message.leaseToken });
    const LeaseKeeper::Hold held = m_leases.hold(claimed);

    QHash<qint64, PublishResult> outcomes;
    try {
        outcomes = publishInKeyOrder(batch);
    } catch (const OutboxError& error) {
        if (error.kind() != OutboxError::Kind::Broker)
            throw;
        // Unconfirmed messages may still have reached the broker: published again later, they are duplicates
        // that consumers drop by message id, never losses.
        OutboxLeaseRepository(m_session).handBack(claimed);
        ChangeNotifier::notify(m_session);
        m_tally.addHandedBack(claimed.size());
        throw;
    }

    QList<LeaseFence> fences;
    QList<PublishFailure> failures;
    QList<LeaseFence> heldBack; // behind a failed row of their key: not tried, not charged
    for (const OutboxMessage& message : batch) {
        const auto it = outcomes.constFind(message.id);
        if (it != outcomes.cend() && it->ok) {
            fences.append({ message.id, message.leaseToken });
            continue;
        }
        if (it == outcomes.cend()) {
            heldBack.append({ message.id, message.leaseToken });
            continue;
        }
        failures.append({ message.id, message.leaseToken, it->error, m_backoff.delayMs(message.attempt, m_random) });
    }

    // A deadlock (40P01) or serialization failure with another relay's claim or completion rolls this one back
    // whole while its publishes stand: it runs again at once rather than leave the rows to their lease's expiry,
    // which would publish them twice.
    QList<PublishedRow> published;
    QList<FailedRow> failed;
    for (int attempt = 1;; ++attempt) {
        try {
            UnitOfWork uow(m_session);
            OutboxLeaseRepository outbox(m_session);
            published = outbox.markPublished(fences);
            failed = outbox.markFailed(m_name, failures, m_options.maxAttempts);
            result.heldBack = outbox.handBack(heldBack);
            uow.commit();
            break;
        } catch (const OutboxError& error) {
            if (error.kind() != OutboxError::Kind::Transient || attempt == CompletionAttempts)
                throw;
        }
    }
    ChangeNotifier::notify(m_session);

    result.published = int(published.size());
    result.failed = int(failed.size());
    if (!failures.isEmpty())
        result.lastError = failures.constLast().error;
    for (const FailedRow& row : failed)
        result.dead += row.dead ? 1 : 0;
    result.fenced = result.claimed - result.published - result.failed - result.heldBack;
    for (const PublishedRow& row : published)
        result.publishLatenciesMs.append(row.latencyMs);
    m_metrics.record([&](MetricCounters& c) {
        for (const qint64 latencyMs : result.publishLatenciesMs)
            c.addPublishLatency(latencyMs);
        c.failedAttempts += result.failed;
        c.deadLetters += result.dead;
    });
    recordThroughput(m_throughput, batch, published, failed);
    m_tally.addBatch(result, took.elapsed());
    return result;
}

RelayBatchResult RelayWorker::rescueExpiredLeases()
{
    const QList<FailedRow> rescued
        = OutboxLeaseRepository(m_session).rescueExpiredLeases(m_name, m_options.maxAttempts, RescueBatchLimit);
    RelayBatchResult result;
    result.failed = int(rescued.size());
    for (const FailedRow& row : rescued)
        result.dead += row.dead ? 1 : 0;
    m_tally.addRescue(result);
    if (!rescued.isEmpty()) {
        ChangeNotifier::notify(m_session);
        m_metrics.record([&](MetricCounters& c) {
            c.leaseRescues += result.failed;
            c.deadLetters += result.dead;
        });
        recordThroughput(m_throughput, {}, {}, rescued);
    }
    return result;
}
