// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "metrics/metricsrecorder.h"
#include "outbox/outboxrepository.h"
#include "relay/outboxleaserepository.h"
#include "relay/outboxrelay.h"
#include "relay/relayworker.h"
#include "relay/sinks/faultinjectingsink.h"
#include "relay/sinks/jsonlinesfilesink.h"
#include "support/databasetestcase.h"
#include "support/querytesting.h"
#include "support/recordingsink.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <mutex>
#include <thread>

namespace {

// Refuses whole batches that contain a poison message (payload {"poison": true}), like a broker client
// that throws on a message it cannot encode.
class PoisonSink final : public MessageSink {
public:
    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override
    {
        QList<PublishResult> results;
        for (const OutboxMessage& message : batch) {
            if (QJsonDocument::fromJson(message.payload).object().value(QStringLiteral("poison")).toBool())
                throw std::runtime_error("cannot encode message: field 'poison' is not allowed");
            results.append({ message.id, true, {} });
        }
        return results;
    }
};

// A broker behind a cut link: every check of it fails.
class UnreachableSink final : public MessageSink {
public:
    QList<PublishResult> publish(const QList<OutboxMessage>&) final override
    {
        ensureReachable();
        return {};
    }
    void ensureReachable() final override
    {
        throw OutboxError(OutboxError::Kind::Broker, QStringLiteral("connecting: a socket error occurred"));
    }
};

// A broker that takes `latencyMs` to confirm each batch and counts every message it was given, across the
// sinks of one relay.
class SlowCountingSink final : public MessageSink {
public:
    struct Deliveries {
        std::mutex mutex;
        QHash<qint64, int> perId;
    };

    SlowCountingSink(int latencyMs, std::shared_ptr<Deliveries> deliveries)
        : m_latencyMs(latencyMs)
        , m_deliveries(std::move(deliveries))
    { }

    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override
    {
        std::this_thread::sleep_for(std::chrono::milliseconds(m_latencyMs)); // the broker's own pace
        QList<PublishResult> results;
        std::lock_guard lock(m_deliveries->mutex);
        for (const OutboxMessage& message : batch) {
            ++m_deliveries->perId[message.id];
            results.append({ message.id, true, {} });
        }
        return results;
    }

private:
    int m_latencyMs;
    std::shared_ptr<Deliveries> m_deliveries;
};

RelayOptions testOptions()
{
    RelayOptions options;
    options.workers = 4;
    options.batchSize = 200;
    options.maxAttempts = 5;
    options.backoffBaseMs = 0; // failed rows are due again at once, so --once drains everything
    options.once = true;
    options.log = [](QtMsgType, const QString&) {};
    return options;
}

} // namespace

class TestRelay final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestRelay()
        : DatabaseTestCase(QStringLiteral("relay"))
    { }

private:
    void seed(int rows, const QString& payloadSql = QStringLiteral("jsonb_build_object('n', g)"))
    {
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                 "SELECT 'order', g::text, 'order.created', %1, 'test:' || g "
                                 "FROM generate_series(1, ?::int) AS g")
                      .arg(payloadSql),
            { rows });
    }

    // Counts rows by their state as outbox_messages derives it: a row in the log (stored status NULL) is pending,
    // in flight or published by its lane's cursor (migration 0028).
    qint64 count(const QString& where)
    {
        return db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE ") + where).toLongLong();
    }

    // Every row a worker can claim now: a claim of rows in the log takes one lane's batch, so a worker that holds
    // them all has claimed until a claim took none.
    static QList<OutboxMessage> claimAll(
        OutboxLeaseRepository& lease, const QString& relay, const QString& worker, int batchSize, qint64 leaseMs)
    {
        QList<OutboxMessage> claimed;
        for (;;) {
            const QList<OutboxMessage> batch = lease.claimDue(relay, worker, batchSize, leaseMs).messages;
            if (batch.isEmpty())
                return claimed;
            claimed += batch;
        }
    }

    // The lane fence a row of the log was claimed with: -(lease_token * 16 + lane) of its lane's lease.
    qint64 laneFenceOf(qint64 id)
    {
        return db()
            .scalar(QStringLiteral("SELECT -(l.lease_token * 16 + l.lane) FROM outbox o "
                                   "JOIN outbox_lanes l ON l.lane = outbox_lane(o.ordering_key, o.id) "
                                   "WHERE o.id = ?::bigint AND l.claimed_through IS NOT NULL"),
                { id })
            .toLongLong();
    }

private slots:
    // The fixture's TRUNCATE empties the outbox, but the lanes' cursors and leases (migration 0028) live in
    // outbox_lanes: a lane left leased by a test (a claim never completed) would hold the next test's rows of that
    // lane until its lease expired. Every lane starts afresh, unleased, at a new tick.
    // Faults in front of a real sink do not hide that sink's outage: were ensureReachable() answered by the faults,
    // the relay would take the broker to be back (and say "available again" while its link is still cut).
    void injectedFaultsAskTheSinkBehindThemWhetherItIsReachable()
    {
        FaultInjectingSink faults(FaultInjectingSink::Options {}, std::make_shared<std::atomic<qint64>>(0),
            std::make_unique<UnreachableSink>());
        QVERIFY_THROWS_EXCEPTION(OutboxError, faults.ensureReachable());
        FaultInjectingSink alone(FaultInjectingSink::Options {}, std::make_shared<std::atomic<qint64>>(0));
        alone.ensureReachable();
    }

    // A batch whose publish takes longer than the lease keeps its lease (the heartbeat extends it), so no other
    // worker rescues and republishes it. Without the heartbeat the other worker's rescue, every 100 ms between its
    // batches, would take over a batch whose lease ran out during the publish and publish it again. The lease (4 s,
    // extended every 1.33 s) leaves a heartbeat 2.6 s to be late on a loaded machine before it expires; each publish
    // (6 s) outlasts it by half. Whether a rescue happens to fall inside a publish depends on how the two workers'
    // batches interleave, so the test also watches one in-flight row's lease move forward while it is published:
    // without the heartbeat it stays where the claim put it.
    void aSlowBrokerKeepsItsLease()
    {
        constexpr int Rows = 20;
        seed(Rows);
        auto deliveries = std::make_shared<SlowCountingSink::Deliveries>();
        RelayOptions options = testOptions();
        options.workers = 2;
        options.batchSize = 5;
        options.leaseMs = 4'000;
        options.rescueIntervalMs = 100;
        OutboxRelay relay(
            db().settings(), [=] { return std::make_unique<SlowCountingSink>(6'000, deliveries); }, options);
        RelayTotals totals;
        QString runError;
        std::thread running([&] {
            try {
                totals = relay.run();
            } catch (const OutboxError& error) {
                runError = error.message();
            }
        });
        const auto joinRelay = qScopeGuard([&] {
            if (running.joinable()) {
                relay.stop();
                running.join();
            }
        });
        qint64 watched = 0;
        QTRY_VERIFY_WITH_TIMEOUT((watched = db().scalar(QStringLiteral("SELECT coalesce(min(id), 0) "
                                                                       "FROM outbox_messages "
                                                                       "WHERE status = 'in_flight'"))
                                                .toLongLong())
                > 0,
            10'000);
        const QString leaseOf = QStringLiteral("SELECT coalesce((extract(epoch FROM lease_expires_at) * 1000)::bigint, "
                                               "0) FROM outbox_messages WHERE id = ?::bigint AND status = 'in_flight'");
        const qint64 claimedUntil = db().scalar(leaseOf, { watched }).toLongLong();
        QVERIFY(claimedUntil > 0);
        QTRY_VERIFY_WITH_TIMEOUT(db().scalar(leaseOf, { watched }).toLongLong() > claimedUntil, 5'000);
        running.join();
        QVERIFY2(runError.isEmpty(), qPrintable(runError));

        QCOMPARE(totals.published, qint64(Rows));
        QCOMPARE(totals.rescued, 0LL);
        QCOMPARE(totals.fenced, 0LL);
        QCOMPARE(deliveries->perId.size(), Rows);
        for (auto it = deliveries->perId.cbegin(); it != deliveries->perId.cend(); ++it)
            QVERIFY2(
                it.value() == 1, qPrintable(QStringLiteral("row %1 published %2 times").arg(it.key()).arg(it.value())));
        QCOMPARE(count(QStringLiteral("status = 'published' AND attempts = 1")), qint64(Rows));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_attempts")).toLongLong(), 0LL);
    }

    void workersDrainEverythingDespiteFailures()
    {
        constexpr int Rows = 10'000;
        seed(Rows);
        FaultInjectingSink::Options faults;
        faults.failureRate = 0.3;
        auto published = std::make_shared<std::atomic<qint64>>(0);
        const RelayOptions options = testOptions();
        OutboxRelay relay(
            db().settings(), [=] { return std::make_unique<FaultInjectingSink>(faults, published); }, options);
        const RelayTotals totals = relay.run();

        // Nothing lost, nothing left behind.
        QCOMPARE(count(QStringLiteral("status IN ('published', 'dead')")), qint64(Rows));
        QCOMPARE(count(QStringLiteral("status NOT IN ('published', 'dead')")), 0LL);
        QCOMPARE(totals.published, count(QStringLiteral("status = 'published'")));
        QCOMPARE(totals.dead, count(QStringLiteral("status = 'dead'")));
        QCOMPARE(totals.fenced, 0LL);
        // With 30 % failures about 0.3^5 of the rows exhaust 5 attempts: 24 expected out of 10,000.
        QVERIFY2(totals.dead > 0 && totals.dead < 100, qPrintable(QString::number(totals.dead)));
        QCOMPARE(count(QStringLiteral("status = 'dead' AND attempts <> 5")), 0LL);

        // Every failed attempt is in the history, with its attempt number, and nothing else is.
        const qint64 attemptRows = db().scalar(QStringLiteral("SELECT count(*) FROM outbox_attempts")).toLongLong();
        QCOMPARE(attemptRows, totals.failed);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages o "
                                            "WHERE o.attempts - (o.status = 'published')::int "
                                            "<> (SELECT count(*) FROM outbox_attempts a WHERE a.outbox_id = o.id)"))
                     .toLongLong(),
            0LL);
        QCOMPARE(
            db().scalar(QStringLiteral(
                            "SELECT count(*) FROM outbox_attempts a JOIN outbox_messages o ON o.id = a.outbox_id "
                            "WHERE a.attempt < 1 OR a.attempt > o.attempts OR a.error NOT LIKE '%injected fault%'"))
                .toLongLong(),
            0LL);
        // Roughly 30 % of all publish attempts failed.
        const double failureShare = double(totals.failed) / double(totals.failed + totals.published);
        QVERIFY2(failureShare > 0.25 && failureShare < 0.35, qPrintable(QString::number(failureShare)));
        // Metrics flushed at shutdown agree with what happened.
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT sum(published) FROM metric_rollups")).toLongLong(), totals.published);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT sum(failed_attempts) FROM metric_rollups")).toLongLong(), totals.failed);
        QCOMPARE(db().scalar(QStringLiteral("SELECT sum(dead_letters) FROM metric_rollups")).toLongLong(), totals.dead);
    }

    // The outbox write belongs to the caller's transaction: rolled back with it, or committed and relayed.
    void enqueueIsPartOfTheCallersTransaction()
    {
        auto session = db().openSession(QStringLiteral("service"));
        const NewOutboxMessage message { QStringLiteral("invoice"), QStringLiteral("INV-7"),
            QStringLiteral("invoice.issued"), QByteArrayLiteral("[1, \"two\", {\"three\": 3}]"),
            QByteArrayLiteral("{\"trace\": \"abc\"}"), QStringLiteral("invoice.issued:INV-7") };
        {
            UnitOfWork uow(*session);
            OutboxRepository(*session).enqueue(message);
        }
        QCOMPARE(count(QStringLiteral("true")), 0LL);
        {
            UnitOfWork uow(*session);
            QVERIFY(OutboxRepository(*session).enqueue(message) > 0);
            uow.commit();
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.jsonl"));
        OutboxRelay relay(
            db().settings(), [path] { return std::make_unique<JsonLinesFileSink>(path); }, testOptions());
        QCOMPARE(relay.run().published, 1LL);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject line = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(
            line.value(QStringLiteral("payload")).toArray().at(2).toObject().value(QStringLiteral("three")).toInt(), 3);
        QCOMPARE(line.value(QStringLiteral("headers")).toObject().value(QStringLiteral("trace")).toString(),
            QStringLiteral("abc"));
        QCOMPARE(line.value(QStringLiteral("attempt")).toInt(), 1);
    }

    void staleWorkerIsFencedOff()
    {
        seed(3);
        auto sessionA = db().openSession(QStringLiteral("worker-a"));
        auto sessionB = db().openSession(QStringLiteral("worker-b"));
        OutboxLeaseRepository a(*sessionA);
        OutboxLeaseRepository b(*sessionB);
        const QList<OutboxMessage> claimedByA = claimAll(a, QStringLiteral("A"), QStringLiteral("A"), 10, 30'000);
        QCOMPARE(claimedByA.size(), 3);
        // Rows of the log: each is leased with its lane, under the lane's fence.
        for (const OutboxMessage& m : claimedByA)
            QCOMPARE(m.leaseToken, laneFenceOf(m.id));

        // A stalls past its lease (its lanes'); B rescues the rows and claims them again.
        db().exec(QStringLiteral("UPDATE outbox_lanes SET lease_expires_at = now() - interval '1 second' "
                                 "WHERE claimed_through IS NOT NULL"));
        QCOMPARE(b.rescueExpiredLeases(QStringLiteral("B"), 5, 100).size(), 3);
        const QList<OutboxMessage> claimedByB
            = b.claimDue(QStringLiteral("B"), QStringLiteral("B"), 10, 30'000).messages;
        QCOMPARE(claimedByB.size(), 3);
        // Rescued, they left the log: B's claim is each row's own first lease, a fence other than A's.
        for (const OutboxMessage& m : claimedByB)
            QCOMPARE(m.leaseToken, 1LL);

        // A wakes up and reports its stale results: both are refused by the fencing token.
        QList<LeaseFence> staleFences;
        QList<PublishFailure> staleFailures;
        for (const OutboxMessage& m : claimedByA) {
            staleFences.append({ m.id, m.leaseToken });
            staleFailures.append({ m.id, m.leaseToken, QStringLiteral("stale"), 0 });
        }
        // Each of A's lease operations is refused too: a hand-back would undo B's claim, an extension prolong it.
        const QString leases = QStringLiteral("SELECT string_agg(status || '/' || attempts || '/' || "
                                              "coalesce(lease_expires_at::text, '-'), ',' ORDER BY id) "
                                              "FROM outbox_messages");
        const QString leasedToB = db().scalar(leases).toString();
        QVERIFY(a.markPublished(staleFences).isEmpty());
        QVERIFY(a.markFailed(QStringLiteral("A"), staleFailures, 5).isEmpty());
        QCOMPARE(a.handBack(staleFences), 0);
        QCOMPARE(a.extendLeases(staleFences, 3'600'000), 0);
        QCOMPARE(db().scalar(leases).toString(), leasedToB);
        QCOMPARE(count(QStringLiteral("status = 'in_flight' AND lease_owner = 'B'")), 3LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_attempts WHERE error = 'stale'")).toLongLong(),
            0LL);

        // The new owner's completion goes through.
        QList<LeaseFence> fences;
        for (const OutboxMessage& m : claimedByB)
            fences.append({ m.id, m.leaseToken });
        QCOMPARE(b.markPublished(fences).size(), 3);
        QCOMPARE(count(QStringLiteral("status = 'published'")), 3LL);
        // A completed lease is over: with the same tokens, nothing is handed back or extended.
        const QString published = db().scalar(leases).toString();
        QCOMPARE(b.handBack(fences), 0);
        QCOMPARE(b.extendLeases(fences, 3'600'000), 0);
        QCOMPARE(db().scalar(leases).toString(), published);
    }

    // A failure's error reaches the row and its attempt as the sink said it, whatever it holds: the relay sends the
    // errors of a batch as one text array.
    void anErrorIsRecordedVerbatim_data()
    {
        QTest::addColumn<QString>("error");
        QTest::newRow("plain") << QStringLiteral("connection refused");
        QTest::newRow("array syntax") << QStringLiteral("{a,b} \"quoted\", back\\slash\\\"");
        QTest::newRow("the word NULL") << QStringLiteral("NULL");
        QTest::newRow("empty") << QString();
        QTest::newRow("lines and blanks") << QStringLiteral("  first line\n\tsecond line  ");
        QTest::newRow("Korean") << QStringLiteral("브로커에 연결할 수 없습니다");
    }

    void anErrorIsRecordedVerbatim()
    {
        QFETCH(QString, error);
        seed(2);
        OutboxLeaseRepository lease(session());
        const QList<OutboxMessage> claimed = claimAll(lease, QStringLiteral("r"), QStringLiteral("r/w0"), 10, 30'000);
        QCOMPARE(claimed.size(), 2);
        // Beside another row's error, so that the array has a separator to get wrong.
        const QList<FailedRow> failed = lease.markFailed(QStringLiteral("r/w0"),
            { { claimed[0].id, claimed[0].leaseToken, error, 60'000 },
                { claimed[1].id, claimed[1].leaseToken, QStringLiteral("other"), 60'000 } },
            5);
        QCOMPARE(failed.size(), 2);
        QCOMPARE(db().scalar(QStringLiteral("SELECT last_error FROM outbox WHERE id = ?::bigint"), { claimed[0].id })
                     .toString(),
            error);
        QCOMPARE(db().scalar(QStringLiteral("SELECT error FROM outbox_attempts WHERE outbox_id = ?::bigint"),
                         { claimed[0].id })
                     .toString(),
            error);
        QCOMPARE(db().scalar(QStringLiteral("SELECT last_error FROM outbox WHERE id = ?::bigint"), { claimed[1].id })
                     .toString(),
            QStringLiteral("other"));
    }

    // The relay's functions refuse what cannot be a fence or a claim, with a message that names the problem, and
    // change nothing.
    void theRelaysFunctionsRefuseBadInput_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<QString>("message");
        QTest::newRow("complete") << QStringLiteral("SELECT * FROM outbox_complete('{1,2}', '{1}')")
                                  << QStringLiteral("2 ids but 1 lease tokens");
        QTest::newRow("hand back") << QStringLiteral("SELECT outbox_hand_back('{1,2}', '{}')")
                                   << QStringLiteral("2 ids but 0 lease tokens");
        QTest::newRow("extend") << QStringLiteral("SELECT outbox_extend_leases('{1,2}', NULL, 1000)")
                                << QStringLiteral("2 ids but 0 lease tokens");
        QTest::newRow("fail without errors")
            << QStringLiteral("SELECT * FROM outbox_fail('w', '{1,2}', '{1,1}', '{x}', '{0,0}', 5)")
            << QStringLiteral("2 ids but 1 errors and 2 backoffs");
        QTest::newRow("claim of no rows") << QStringLiteral("SELECT * FROM outbox_claim('r', 'w', 0, 1000)")
                                          << QStringLiteral("a claim needs a batch size and a lease of at least 1");
        QTest::newRow("claim without a lease")
            << QStringLiteral("SELECT * FROM outbox_claim('r', 'w', 10, NULL)")
            << QStringLiteral("a claim needs a batch size and a lease of at least 1");
        QTest::newRow("claim without a worker") << QStringLiteral("SELECT * FROM outbox_claim('r', '', 10, 1000)")
                                                << QStringLiteral("a claim needs the relay's name");
        QTest::newRow("fences of two dimensions")
            << QStringLiteral("SELECT * FROM outbox_complete('{{1,2}}', '{{1},{2}}')")
            << QStringLiteral("fences are two one-dimensional arrays");
        QTest::newRow("a lease that ended before it began")
            << QStringLiteral("SELECT outbox_extend_leases('{1,2}', '{1,1}', -100000)")
            << QStringLiteral("a lease runs for 1 ms or more (got -100000)");
        QTest::newRow("fail without a maximum")
            << QStringLiteral("SELECT * FROM outbox_fail('w', '{1,2}', '{1,1}', '{x,y}', '{0,0}', NULL)")
            << QStringLiteral("a maximum of attempts of at least 1");
        QTest::newRow("fail without an error")
            << QStringLiteral("SELECT * FROM outbox_fail('w', '{1,2}', '{1,1}', '{x,NULL}', '{0,0}', 5)")
            << QStringLiteral("an error and a backoff of 0 ms or more for each row");
        QTest::newRow("rescue without a batch") << QStringLiteral("SELECT * FROM outbox_rescue_expired('w', 5, 0)")
                                                << QStringLiteral("a rescue needs a batch size of at least 1 (got 0)");
    }

    void theRelaysFunctionsRefuseBadInput()
    {
        QFETCH(QString, call);
        QFETCH(QString, message);
        seed(2);
        OutboxLeaseRepository lease(session());
        QCOMPARE(claimAll(lease, QStringLiteral("r"), QStringLiteral("r/w0"), 10, 30'000).size(), 2);
        const QString before = db().scalar(QStringLiteral("SELECT string_agg(id || status || lease_token || "
                                                          "  coalesce(lease_expires_at::text, ''), ',' ORDER BY id) "
                                                          "FROM outbox_messages"))
                                   .toString();
        QVERIFY(!before.isEmpty());
        try {
            session().exec(call, {}, QStringLiteral("calling a relay function"));
            QFAIL("the call was accepted");
        } catch (const OutboxError& error) {
            QVERIFY2(error.message().contains(message), qPrintable(error.message()));
        }
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(id || status || lease_token || "
                                            "  coalesce(lease_expires_at::text, ''), ',' ORDER BY id) "
                                            "FROM outbox_messages"))
                     .toString(),
            before);
    }

    // A lane's batch is read in id order through outbox_log_idx, as far as the batch goes, also on a partition never
    // analyzed (a new one, for up to a minute): the planner, blind there, took outbox_log_txid_idx
    // (the smaller, a transaction's entries deduplicated) and read every row of the lane in the log to sort it
    // (migration 0031). Counted by the rows the completion fetched through indexes.
    void aLaneBatchIsReadAsFarAsTheBatchGoes()
    {
        // A partition of its own, as the roll opens it, that autovacuum leaves alone: the fixture's TRUNCATE
        // keeps what an earlier ANALYZE of the open one found.
        seed(1);
        session().execScript(QStringLiteral("CALL outbox_roll()"), QStringLiteral("opening a partition"));
        const QString partition
            = db().scalar(QStringLiteral("SELECT name FROM outbox_partitions WHERE upper_id IS NULL")).toString();
        session().execScript(QStringLiteral("ALTER TABLE %1 SET (autovacuum_enabled = off)").arg(partition),
            QStringLiteral("keeping autovacuum away"));
        // Large transactions, so that outbox_log_txid_idx is much the smaller index: about 5,000 rows of each lane.
        for (int transaction = 0; transaction < 4; ++transaction) {
            db().exec(
                QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                               "SELECT 'order', g::text, 'order.created', '{}', ?::text || ':' || g "
                               "FROM generate_series(1, 20000) g"),
                { transaction });
        }
        constexpr int Batch = 20;
        QSqlQuery& claim
            = session().exec(QStringLiteral("SELECT array_agg(id)::text, array_agg(lease_token)::text, count(*) "
                                            "FROM outbox_claim('r', 'r/w0', ?::int, 30000)"),
                { Batch }, QStringLiteral("claiming"));
        QVERIFY(claim.next());
        QCOMPARE(claim.value(2).toLongLong(), qint64(Batch));
        const QString ids = claim.value(0).toString();
        const QString tokens = claim.value(1).toString();
        // The counts not yet reported may hold the claim's too: the completion's are the difference.
        UnitOfWork transaction(session());
        const qint64 before = QueryTesting::outboxRowsFetched(session());
        QSqlQuery& completed
            = session().exec(QStringLiteral("SELECT count(*) FROM outbox_complete(?::bigint[], ?::bigint[])"),
                { ids, tokens }, QStringLiteral("completing"));
        QVERIFY(completed.next());
        QCOMPARE(completed.value(0).toLongLong(), qint64(Batch));
        const qint64 read = QueryTesting::outboxRowsFetched(session()) - before;
        QVERIFY2(
            read <= 2 * Batch, qPrintable(QStringLiteral("%1 rows fetched for a batch of %2").arg(read).arg(Batch)));
        transaction.commit();
    }

    // A completion rolled back by a deadlock (here a trigger raises 40P01 once, as the deadlock detector would when a
    // completion meets another relay's claim) runs again at once: its publishes stand, so leaving the rows to their
    // lease's expiry would have them rescued and published twice. A completion publishes rows of the log by settling
    // their lane's batch (a row of outbox_lane_batches), rows off the log by their status: the trigger is on both.
    void aCompletionRolledBackByADeadlockRunsAgain()
    {
        seed(20);
        session().execScript(
            QStringLiteral("CREATE SEQUENCE completion_deadlocks; "
                           "CREATE FUNCTION deadlock_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                           "  IF nextval('completion_deadlocks') = 1 THEN "
                           "    RAISE EXCEPTION 'deadlock detected (raised by the test)' USING ERRCODE = '40P01'; "
                           "  END IF; "
                           "  RETURN NEW; "
                           "END $$; "
                           "CREATE TRIGGER deadlock_once BEFORE UPDATE OF status ON outbox FOR EACH ROW "
                           "WHEN (NEW.status = 'published') EXECUTE FUNCTION deadlock_once(); "
                           "CREATE TRIGGER deadlock_once BEFORE INSERT ON outbox_lane_batches FOR EACH ROW "
                           "EXECUTE FUNCTION deadlock_once()"),
            QStringLiteral("arranging a deadlock"));
        const auto dropTrigger = qScopeGuard([this] {
            session().execScript(QStringLiteral("DROP TRIGGER deadlock_once ON outbox; "
                                                "DROP TRIGGER deadlock_once ON outbox_lane_batches; "
                                                "DROP FUNCTION deadlock_once(); DROP SEQUENCE completion_deadlocks"),
                QStringLiteral("removing the deadlock"));
        });
        const auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        RelayOptions options = testOptions();
        options.workers = 1;
        options.leaseMs = 2'000; // a batch left in flight would be rescued and published again within seconds
        OutboxRelay relay(
            db().settings(), [deliveries] { return std::make_unique<RecordingSink>(deliveries); }, options);
        const RelayTotals totals = relay.run();
        QCOMPARE(count(QStringLiteral("status = 'published'")), 20LL);
        QCOMPARE(totals.published, 20LL);
        QCOMPARE(totals.rescued, 0LL);
        QCOMPARE(deliveries->snapshot().size(), 20);
        QVERIFY2(db().scalar(QStringLiteral("SELECT last_value FROM completion_deadlocks")).toLongLong() > 1,
            "the completion never met the deadlock: the test proves nothing");
    }

    void poisonMessageDoesNotStallOthers()
    {
        seed(20, QStringLiteral("jsonb_build_object('n', g, 'poison', g = 7)"));
        RelayOptions options = testOptions();
        options.maxAttempts = 3;
        OutboxRelay relay(
            db().settings(), [] { return std::make_unique<PoisonSink>(); }, options);
        const RelayTotals totals = relay.run();
        QCOMPARE(totals.published, 19LL);
        QCOMPARE(totals.dead, 1LL);
        QCOMPARE(count(QStringLiteral("status = 'published'")), 19LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT status FROM outbox_messages WHERE aggregate_id = '7'")).toString(),
            QStringLiteral("dead"));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox_attempts a JOIN outbox o ON o.id = a.outbox_id "
                                       "WHERE o.aggregate_id = '7' AND a.error LIKE 'cannot encode message%'"))
                .toLongLong(),
            3LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_attempts")).toLongLong(), 3LL);
    }

    // A relay that died between claim and completion leaves rows in flight; once the lease has expired any
    // worker rescues them, the crash counts as a failed attempt, and repeated crashes end in dead. Row 1 is in the
    // log, claimed with its lane; row 2 is off it, failed twice already and due, so the crash costs its third and
    // last attempt.
    void crashedWorkersRowsAreRescued()
    {
        seed(1);
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                 "  status, attempts, next_attempt_at) "
                                 "VALUES ('order', '2', 'order.created', jsonb_build_object('n', 2), 'test:2', "
                                 "  'failed', 2, now())"));
        auto crashed = db().openSession(QStringLiteral("crashed"));
        OutboxLeaseRepository crashedLease(*crashed);
        QCOMPARE(claimAll(crashedLease, QStringLiteral("crashed-host"), QStringLiteral("crashed-host/w0"), 10, 30'000)
                     .size(),
            2);
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(status || '/' || attempts || '/' || "
                                            "  coalesce(stored_status, 'log'), ',' ORDER BY id) FROM outbox_messages"))
                     .toString(),
            QStringLiteral("in_flight/1/log,in_flight/3/in_flight"));
        db().exec(QStringLiteral("UPDATE outbox_lanes SET lease_expires_at = now() - interval '1 second' "
                                 "WHERE claimed_through IS NOT NULL"));
        db().exec(QStringLiteral("UPDATE outbox SET lease_expires_at = now() - interval '1 second' "
                                 "WHERE status = 'in_flight'"));

        RelayOptions options = testOptions();
        options.workers = 1;
        options.maxAttempts = 3;
        OutboxRelay relay(db().settings(), SinkSpec::parse(QStringLiteral("null")), options);
        const RelayTotals totals = relay.run();
        QCOMPARE(totals.rescued, 2LL);
        QCOMPARE(totals.published, 1LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT status || '/' || attempts FROM outbox_messages "
                                            "WHERE aggregate_id = '1'"))
                     .toString(),
            QStringLiteral("published/2"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT status FROM outbox_messages WHERE aggregate_id = '2'")).toString(),
            QStringLiteral("dead"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_attempts "
                                            "WHERE error LIKE 'lease of crashed-host/w0 expired at %presumed crashed'"))
                     .toLongLong(),
            2LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT sum(lease_rescues) FROM metric_rollups")).toLongLong(), 2LL);
    }

    void fileSinkWritesEachMessageOnceAsJsonLines()
    {
        seed(500);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("events.jsonl"));
        RelayOptions options = testOptions();
        options.batchSize = 37;
        OutboxRelay relay(
            db().settings(), [path] { return std::make_unique<JsonLinesFileSink>(path); }, options);
        QCOMPARE(relay.run().published, 500LL);

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QSet<QString> dedupeKeys;
        int lines = 0;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine();
            QVERIFY(line.endsWith('\n'));
            QJsonParseError error;
            const QJsonObject record = QJsonDocument::fromJson(line, &error).object();
            QCOMPARE(error.error, QJsonParseError::NoError);
            QCOMPARE(record.value(QStringLiteral("event_type")).toString(), QStringLiteral("order.created"));
            QCOMPARE(record.value(QStringLiteral("payload")).toObject().value(QStringLiteral("n")).toInt(),
                record.value(QStringLiteral("aggregate_id")).toString().toInt());
            dedupeKeys.insert(record.value(QStringLiteral("dedupe_key")).toString());
            ++lines;
        }
        QCOMPARE(lines, 500);
        QCOMPARE(dedupeKeys.size(), 500);
    }

    void unopenableFileSinkStopsTheRelayWithItsReason()
    {
        seed(1);
        OutboxRelay relay(
            db().settings(),
            [] { return std::make_unique<JsonLinesFileSink>(QStringLiteral("/nonexistent-dir/x.jsonl")); },
            testOptions());
        try {
            relay.run();
            QFAIL("the relay ran without a sink");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
            QVERIFY2(error.message().contains(QStringLiteral("/nonexistent-dir/x.jsonl")), error.what());
        }
        QCOMPARE(count(QStringLiteral("status = 'pending'")), 1LL);
    }

    // A relay killed in the middle of a write leaves a fragment of a line; the next sink on the file ends it before
    // its own records, so that none of them is glued onto the fragment.
    void aFileSinkEndsTheLineAKilledRelayLeftUnfinished()
    {
        QTemporaryDir directory;
        const QString path = directory.filePath(QStringLiteral("events.jsonl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"id\": 1, \"dedupe_key\": \"whole\"}\n{\"id\": 2, \"dedu");
        file.close();
        OutboxMessage message;
        message.id = 3;
        message.dedupeKey = QStringLiteral("after");
        message.payload = QByteArrayLiteral("{}");
        message.headers = QByteArrayLiteral("{}");
        for (int round = 0; round < 2; ++round) {
            JsonLinesFileSink sink(path);
            QCOMPARE(sink.publish({ message }).size(), 1);
        }
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.size(), 5); // whole, the fragment, two records, and nothing after the last line break
        QCOMPARE(lines.at(1), QByteArray("{\"id\": 2, \"dedu"));
        for (int record = 2; record <= 3; ++record)
            QCOMPARE(QJsonDocument::fromJson(lines.at(record)).object().value(QStringLiteral("dedupe_key")).toString(),
                QStringLiteral("after"));
        QVERIFY(lines.at(4).isEmpty());
    }

    void stopEndsAContinuousRelay()
    {
        seed(50);
        RelayOptions options = testOptions();
        options.once = false;
        options.idlePollMs = 60'000; // only stop() can end the idle wait
        OutboxRelay relay(db().settings(), SinkSpec::parse(QStringLiteral("null")), options);
        RelayTotals totals;
        std::thread runner([&] { totals = relay.run(); });
        QTRY_COMPARE_WITH_TIMEOUT(count(QStringLiteral("status = 'published'")), 50LL, 10'000);
        relay.stop();
        runner.join();
        QCOMPARE(totals.published, 50LL);
    }
};

QTEST_GUILESS_MAIN(TestRelay)
#include "tst_relay.moc"
