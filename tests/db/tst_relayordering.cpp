// SPDX-License-Identifier: GPL-3.0-or-later
// Rows that share an ordering key reach the sink in id order (migration 0013): across workers, under failures,
// behind a dead row, and when writers of one key race.
#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "db/unitofwork.h"
#include "operations/auditrepository.h"
#include "operations/outboxdossier.h"
#include "operations/outboxoperator.h"
#include "operations/outboxoverview.h"
#include "outbox/failuregrouprepository.h"
#include "outbox/outboxreadrepository.h"
#include "relay/outboxleaserepository.h"
#include "relay/outboxrelay.h"
#include "support/databasetestcase.h"

#include <QHash>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSet>
#include <QSqlQuery>
#include <QTest>
#include <mutex>
#include <thread>

namespace {

// What a consumer of every relay's sinks would see: each delivered message in the order of delivery, across
// workers. Fails `failureRate` of the messages (not of `failingKey`'s: all of them).
class RecordingSink final : public MessageSink {
public:
    struct Deliveries {
        std::mutex mutex;
        QList<std::pair<QString, qint64>> inOrder; // (ordering key, id)
    };

    RecordingSink(std::shared_ptr<Deliveries> deliveries, double failureRate, QString failingKey)
        : m_deliveries(std::move(deliveries))
        , m_failureRate(failureRate)
        , m_failingKey(std::move(failingKey))
        , m_random(QRandomGenerator::global()->generate())
    { }

    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override
    {
        QList<PublishResult> results;
        std::lock_guard lock(m_deliveries->mutex); // a batch is delivered as a whole, like one channel
        for (const OutboxMessage& message : batch) {
            const bool fails = (!m_failingKey.isEmpty() && message.orderingKey == m_failingKey)
                || m_random.generateDouble() < m_failureRate;
            if (fails) {
                results.append({ message.id, false, QStringLiteral("injected failure") });
                continue;
            }
            m_deliveries->inOrder.append({ message.orderingKey, message.id });
            results.append({ message.id, true, {} });
        }
        return results;
    }

private:
    std::shared_ptr<RecordingSink::Deliveries> m_deliveries;
    double m_failureRate;
    QString m_failingKey;
    QRandomGenerator m_random;
};

struct Inversions {
    qint64 pairs = 0; // a key's first delivery of a row after the first delivery of a later row of that key
    QSet<QString> keys;
    QString example;
};

// Compares each keyed row's first delivery with the highest id of its key delivered before it; redeliveries
// (a row seen before) are allowed to repeat.
Inversions inversionsIn(const QList<std::pair<QString, qint64>>& deliveries)
{
    Inversions found;
    QHash<QString, qint64> highest;
    QSet<qint64> seen;
    for (const auto& [key, id] : deliveries) {
        if (key.isEmpty() || seen.contains(id))
            continue;
        seen.insert(id);
        const qint64 before = highest.value(key, 0);
        if (id < before) {
            ++found.pairs;
            found.keys.insert(key);
            if (found.example.isEmpty())
                found.example = QStringLiteral("key %1: #%2 after #%3").arg(key).arg(id).arg(before);
        }
        highest[key] = std::max(before, id);
    }
    return found;
}

RelayOptions onceOptions(int workers, int batchSize, int maxAttempts)
{
    RelayOptions options;
    options.workers = workers;
    options.batchSize = batchSize;
    options.maxAttempts = maxAttempts;
    options.backoffBaseMs = 0; // failed rows are due again at once, so --once drains everything
    options.backoffMaxMs = 0;
    options.once = true;
    options.log = [](QtMsgType, const QString&) {};
    return options;
}

} // namespace

class TestRelayOrdering final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestRelayOrdering()
        : DatabaseTestCase(QStringLiteral("relayordering"))
    { }

private:
    // `rows` events through outbox_enqueue, round-robin over `aggregates` orders: keyed order:0 ... order:N-1.
    void enqueue(int rows, int aggregates, bool ordered = true)
    {
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', (g % ?::int)::text, 'order.updated', "
                                 "  jsonb_build_object('n', g), ordered => ?::boolean) "
                                 "FROM generate_series(1, ?::int) AS g"),
            { aggregates, ordered, rows });
    }

    // Counts rows by their state as outbox_messages derives it: a row in the log (stored status NULL) is pending,
    // in flight or published by its lane's cursor (migration 0028).
    qint64 count(const QString& where)
    {
        return db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE ") + where).toLongLong();
    }

    RelayTotals drain(const std::shared_ptr<RecordingSink::Deliveries>& deliveries, const RelayOptions& options,
        double failureRate, const QString& failingKey = {})
    {
        OutboxRelay relay(
            db().settings(), [=] { return std::make_unique<RecordingSink>(deliveries, failureRate, failingKey); },
            options);
        return relay.run();
    }

    // Whether, within 10 s, exactly one session waits for a lock `holder` holds (a writer of its key).
    bool oneSessionWaitsFor(DbSession& holder)
    {
        return QTest::qWaitFor(
            [&] {
                return db().scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity "
                                                  "WHERE ?::int = ANY (pg_blocking_pids(pid))"),
                               { holder.backendPid() })
                           .toLongLong()
                    == 1;
            },
            10'000);
    }

private slots:
    // The fixture's TRUNCATE empties the outbox, but the lanes' cursors and leases (migration 0028) live in
    // outbox_lanes: a lane left leased by a test (a claim never completed) would hold the next test's rows of that
    // lane until its lease expired. Every lane starts afresh, unleased, at a new tick.
    void theSqlApiKeysRowsByTheirAggregate()
    {
        enqueue(4, 2);
        enqueue(1, 1, false);
        QCOMPARE(count(QStringLiteral("ordering_key = 'order:0'")), 2LL);
        QCOMPARE(count(QStringLiteral("ordering_key = 'order:1'")), 2LL);
        QCOMPARE(count(QStringLiteral("ordering_key IS NULL")), 1LL);
        db().exec(
            QStringLiteral("SELECT outbox_enqueue('order', '7', 'order.created', '{}', ordering_key => 'tenant-3')"));
        QCOMPARE(count(QStringLiteral("ordering_key = 'tenant-3' AND aggregate_id = '7'")), 1LL);
    }

    // The measurement of issue 23, which found 20,781 inverted pairs over all 20 aggregates before the keys.
    void keyedRowsArePublishedInIdOrderDespiteFailures()
    {
        enqueue(4'000, 20);
        enqueue(1'000, 20, false);
        auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        const RelayTotals totals = drain(deliveries, onceOptions(4, 10, 1'000), 0.05);

        QCOMPARE(count(QStringLiteral("status <> 'published'")), 0LL);
        QCOMPARE(totals.published, 5'000LL);
        QVERIFY2(totals.failed > 100, qPrintable(QString::number(totals.failed))); // the faults did happen
        const Inversions inversions = inversionsIn(deliveries->inOrder);
        QVERIFY2(inversions.pairs == 0,
            qPrintable(QStringLiteral("%1 inversions over %2 keys, e.g. %3")
                           .arg(inversions.pairs)
                           .arg(inversions.keys.size())
                           .arg(inversions.example)));
        // The unkeyed rows were not ordered: with 4 workers some went out of id order. (Were they, the test could
        // not tell ordering from a relay that serialises everything.)
        QList<std::pair<QString, qint64>> unkeyed;
        for (const auto& delivery : std::as_const(deliveries->inOrder))
            if (delivery.first.isEmpty())
                unkeyed.append({ QStringLiteral("all"), delivery.second });
        QVERIFY(inversionsIn(unkeyed).pairs > 0);
    }

    // --once stops when no row is due, not when a claim took none: rows due behind a row of their key that another
    // relay has in flight are waited for (and said so), then published, before run() returns.
    void aOnceRelayWaitsForRowsDueBehindARowInFlight()
    {
        enqueue(5, 1);
        const OutboxLeaseRepository::Claim elsewhere = OutboxLeaseRepository(session()).claimDue(
            QStringLiteral("another-relay"), QStringLiteral("another-relay"), 1, 60'000);
        QCOMPARE(elsewhere.messages.size(), 1);
        std::mutex linesMutex;
        QStringList lines;
        RelayOptions options = onceOptions(1, 10, 3);
        options.log = [&](QtMsgType, const QString& line) {
            std::lock_guard lock(linesMutex);
            lines.append(line);
        };
        auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        RelayTotals totals;
        std::thread relay([&] { totals = drain(deliveries, options, 0.0); });
        auto join = qScopeGuard([&] { relay.join(); });
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                std::lock_guard lock(linesMutex);
                return lines.join(QLatin1Char('\n')).contains(QStringLiteral("waiting for those"));
            }(),
            10'000);
        QCOMPARE(count(QStringLiteral("status = 'published'")), 0LL); // nothing overtook the row in flight

        const LeaseFence head { elsewhere.messages.first().id, elsewhere.messages.first().leaseToken };
        QCOMPARE(OutboxLeaseRepository(session()).markPublished({ head }).size(), 1);
        join.dismiss();
        relay.join();
        QCOMPARE(totals.published, 4LL);
        QCOMPARE(count(QStringLiteral("status <> 'published'")), 0LL);
        QCOMPARE(inversionsIn(deliveries->inOrder).pairs, 0LL);
    }

    // One claim goes past the rows it parks: a full batch of rows waiting behind a failed row of their key (retried
    // in an hour) is parked, and the same call claims the rows behind them instead of returning nothing. Then the
    // publish of the failed row lets them go, in the completion itself. A claim of rows in the log takes one lane's
    // batch (migration 0028), so the rows behind are of another key of order:0's lane.
    void aClaimGoesPastTheRowsItParksAndTheCompletionLetsThemGo()
    {
        enqueue(6, 1); // order:0, six rows
        db().exec(
            QStringLiteral("UPDATE outbox SET status = 'failed', attempts = 1, "
                           "  next_attempt_at = now() + interval '1 hour' WHERE id = (SELECT min(id) FROM outbox)"));
        const QString sameLane
            = db().scalar(QStringLiteral("SELECT 'tenant:' || g FROM generate_series(1, 1000) AS g "
                                         "WHERE outbox_lane('tenant:' || g, 0) = outbox_lane('order:0', 0) "
                                         "ORDER BY g LIMIT 1"))
                  .toString();
        QVERIFY(!sameLane.isEmpty());
        // Due after the keyed rows, in their lane.
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', g::text, 'order.updated', jsonb_build_object('n', g), "
                                 "  ordering_key => ?::text) FROM generate_series(1, 3) AS g"),
            { sameLane });
        OutboxLeaseRepository lease(session());
        const QList<OutboxMessage> claimed
            = lease.claimDue(QStringLiteral("r"), QStringLiteral("r/w0"), 5, 30'000).messages;
        QCOMPARE(claimed.size(), 3);
        for (const OutboxMessage& message : claimed)
            QVERIFY2(message.orderingKey == sameLane, qPrintable(QString::number(message.id)));
        QCOMPARE(count(QStringLiteral("status = 'waiting'")), 5LL);

        db().exec(QStringLiteral("UPDATE outbox SET next_attempt_at = now() WHERE status = 'failed'"));
        const QList<OutboxMessage> retried
            = lease.claimDue(QStringLiteral("r"), QStringLiteral("r/w0"), 5, 30'000).messages;
        QCOMPARE(retried.size(), 1);
        QCOMPARE(retried.first().attempt, 2);
        {
            UnitOfWork uow(session());
            QCOMPARE(lease.markPublished({ { retried.first().id, retried.first().leaseToken } }).size(), 1);
            // Let go in the completion's own transaction: nothing else is left to do for the rows behind it.
            QCOMPARE(
                db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'waiting'")).toLongLong(), 5LL);
            QSqlQuery& waiting = session().exec(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'waiting'"),
                {}, QStringLiteral("counting the waiting rows"));
            QVERIFY(waiting.next());
            QCOMPARE(waiting.value(0).toLongLong(), 0LL);
            uow.commit();
        }
        QCOMPARE(count(QStringLiteral("ordering_key = 'order:0' AND status = 'pending'")), 5LL);
        const QList<OutboxMessage> rest
            = lease.claimDue(QStringLiteral("r"), QStringLiteral("r/w0"), 10, 30'000).messages;
        QCOMPARE(rest.size(), 5);
    }

    // A key whose head always fails holds back only itself: its later rows wait (parked, out of the claim's
    // index), every other key drains, and once the head is requeued and publishes, the rest follows in order.
    void aDeadRowBlocksOnlyItsKey()
    {
        enqueue(200, 10);
        auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        const RelayTotals blocked = drain(deliveries, onceOptions(2, 20, 3), 0.0, QStringLiteral("order:3"));

        QCOMPARE(blocked.published, 180LL);
        QCOMPARE(count(QStringLiteral("ordering_key = 'order:3' AND status = 'dead'")), 1LL);
        QCOMPARE(count(QStringLiteral("ordering_key = 'order:3' AND status = 'waiting'")), 19LL);
        QCOMPARE(count(QStringLiteral("ordering_key <> 'order:3' AND status <> 'published'")), 0LL);
        const qint64 head
            = db().scalar(QStringLiteral("SELECT min(id) FROM outbox WHERE ordering_key = 'order:3'")).toLongLong();
        QCOMPARE(db().scalar(QStringLiteral("SELECT id FROM outbox WHERE status = 'dead'")).toLongLong(), head);
        // Only the head was tried: the rows behind it were handed back or parked, never charged.
        QCOMPARE(count(QStringLiteral("status = 'waiting' AND attempts > 0")), 0LL);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(DISTINCT outbox_id) FROM outbox_attempts")).toLongLong(), 1LL);

        // Retry, as the console and outboxctl do it.
        QCOMPARE(OutboxOperator(session()).requeue({ head }, QStringLiteral("consumer fixed")).changed,
            QList<qint64> { head });
        const RelayTotals released = drain(deliveries, onceOptions(2, 20, 3), 0.0);
        QCOMPARE(released.published, 20LL);
        QCOMPARE(count(QStringLiteral("status <> 'published'")), 0LL);
        QCOMPARE(inversionsIn(deliveries->inOrder).pairs, 0LL);
    }

    // Discard gives up on a dead head: it is not published, its audit row says who and why, and the rows waiting
    // behind it are due at once (released in the discard's transaction), then published in order. A retry brings
    // it back, and it is published last.
    void aDiscardReleasesABlockedKey()
    {
        enqueue(60, 3);
        auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        drain(deliveries, onceOptions(2, 20, 2), 0.0, QStringLiteral("order:1"));
        const qint64 head
            = db().scalar(QStringLiteral("SELECT min(id) FROM outbox WHERE ordering_key = 'order:1'")).toLongLong();
        QCOMPARE(count(QStringLiteral("status = 'dead'")), 1LL);
        QCOMPARE(count(QStringLiteral("status = 'waiting'")), 19LL);

        const OperatorActionReport report
            = OutboxOperator(session()).discard({ head }, QStringLiteral("order 1 was deleted upstream"));
        QCOMPARE(report.changed, QList<qint64> { head });
        QCOMPARE(count(QStringLiteral("status = 'waiting'")), 0LL);
        QCOMPARE(count(QStringLiteral("ordering_key = 'order:1' AND status = 'pending'")), 19LL);
        const QList<AuditEntry> audit = AuditRepository(session()).forEntity(QStringLiteral("outbox"), head, 10);
        QCOMPARE(audit.size(), 1);
        QCOMPARE(audit.first().action, QStringLiteral("discard"));
        QCOMPARE(audit.first().reason, QStringLiteral("order 1 was deleted upstream"));

        const RelayTotals released = drain(deliveries, onceOptions(2, 20, 2), 0.0);
        QCOMPARE(released.published, 19LL);
        QCOMPARE(count(QStringLiteral("status NOT IN ('published', 'discarded')")), 0LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT status FROM outbox WHERE id = ?::bigint"), { head }).toString(),
            QStringLiteral("discarded"));
        for (const auto& delivery : std::as_const(deliveries->inOrder))
            QVERIFY2(delivery.second != head, "the discarded row was published");
        QCOMPARE(inversionsIn(deliveries->inOrder).pairs, 0LL);

        const OperatorActionReport retried
            = OutboxOperator(session()).requeue({ head }, QStringLiteral("order 1 was restored upstream"));
        QCOMPARE(retried.changed, QList<qint64> { head });
        QCOMPARE(drain(deliveries, onceOptions(2, 20, 2), 0.0).published, 1LL);
        QCOMPARE(deliveries->inOrder.last().second, head);
        QCOMPARE(AuditRepository(session()).forEntity(QStringLiteral("outbox"), head, 10).first().action,
            QStringLiteral("requeue"));
    }

    // What the console reads about a key blocked by a dead row: the Overview's counts and the cause of its oldest
    // rows (naming the dead row), both dossiers, the failure group, and the "blocking keys only" filter.
    void theConsoleExplainsABlockedKey()
    {
        enqueue(60, 3);
        auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        drain(deliveries, onceOptions(2, 20, 2), 0.0, QStringLiteral("order:1"));
        const qint64 head = db().scalar(QStringLiteral("SELECT id FROM outbox WHERE status = 'dead'")).toLongLong();
        const qint64 behind
            = db().scalar(QStringLiteral("SELECT max(id) FROM outbox WHERE status = 'waiting'")).toLongLong();

        const OutboxOverview overview = OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs);
        QCOMPARE(overview.waiting.value, 19LL);
        QCOMPARE(overview.blockedKeys.value, 1LL);
        QCOMPARE(overview.oldestUnpublished.size(), OutboxOverview::ExplainedRows);
        for (const WaitingRow& waiting : overview.oldestUnpublished) {
            QCOMPARE(waiting.cause, WaitCause::BehindOlderRow);
            QVERIFY(waiting.blocker);
            QCOMPARE(waiting.blocker->id, head);
            QCOMPARE(waiting.blocker->status, OutboxStatus::Dead);
            QCOMPARE(waiting.blocker->lastErrorLine, QStringLiteral("injected failure"));
        }

        QCOMPARE(OutboxDossier::load(session(), head).heldBack, 19LL);
        QVERIFY(!OutboxDossier::load(session(), head).waitsBehind);
        const OutboxDossier waitingRow = OutboxDossier::load(session(), behind);
        QVERIFY(waitingRow.waitsBehind);
        QCOMPARE(waitingRow.waitsBehind->id, head);
        QCOMPARE(waitingRow.detail->summary.orderingKey, QStringLiteral("order:1"));

        const QList<FailureGroup> groups = FailureGroupRepository(session()).groups(FailureGroupFilter {});
        QCOMPARE(groups.size(), 1);
        QCOMPARE(groups.first().blockedKeys, 1LL);
        QCOMPARE(groups.first().heldBack, 19LL);

        OutboxFilter blocking;
        blocking.blockingOnly = true;
        OutboxReadRepository outbox(session());
        QCOMPARE(outbox.page(blocking, 50, 0).rows.size(), 1);
        QCOMPARE(outbox.page(blocking, 50, 0).rows.first().id, head);
        blocking.eventType = QStringLiteral("order.nothing");
        QVERIFY(outbox.page(blocking, 50, 0).rows.isEmpty());
        // A failed row does not block for good: it is not among them, nor is an unkeyed dead row.
        db().exec(QStringLiteral("UPDATE outbox SET status = 'failed' WHERE id = ?::bigint"), { head });
        blocking.eventType.clear();
        QVERIFY(outbox.page(blocking, 50, 0).rows.isEmpty());
        QCOMPARE(OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs).blockedKeys.value, 0LL);
    }

    // Migration 0013 on a database that has rows in every state: they keep no key (nobody chose an order for
    // them), keep their state, and a relay publishes them as before; new rows get their aggregate's key.
    void theMigrationLeavesExistingRowsUnordered()
    {
        // A database of its own, migrated to the version before the keys.
        TestDatabase oldDatabase(QStringLiteral("relayordering_v12"), 12);
        const ConnectionSettings settings = oldDatabase.settings();
        {
            DbSession old(settings, QStringLiteral("test"));
            old.exec(QStringLiteral(
                         "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, "
                         "  attempts, last_error, published_at) "
                         "SELECT 'order', (g % 3)::text, 'order.updated', '{}', 'old:' || g, "
                         "  (ARRAY['pending', 'failed', 'dead', 'published'])[1 + g % 4], (g % 4 > 0)::int, "
                         "  CASE WHEN g % 4 IN (1, 2) THEN 'broker said no' END, "
                         "  CASE WHEN g % 4 = 3 THEN now() END "
                         "FROM generate_series(1, 40) AS g"),
                {}, QStringLiteral("seeding"));
            QCOMPARE(SchemaMigrator(old).migrate(), SchemaMigrator::latestVersion());
            const auto scalar = [&](const QString& sql) {
                QSqlQuery& q = old.exec(sql, {}, QStringLiteral("checking"));
                return q.next() ? q.value(0).toLongLong() : -1;
            };
            QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE ordering_key IS NOT NULL")), 0LL);
            QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'dead'")), 10LL);
            QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'published'")), 10LL);
            old.exec(QStringLiteral("SELECT outbox_enqueue('order', '1', 'order.cancelled', '{}')"), {},
                QStringLiteral("enqueueing"));
            QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE ordering_key = 'order:1'")), 1LL);
        }
        {
            // The old pending and failed rows flow; the dead ones wait for an operator as before and, having no
            // key, hold nobody back: the new keyed row of order 1 is published although old rows of order 1 are
            // dead.
            auto deliveries = std::make_shared<RecordingSink::Deliveries>();
            OutboxRelay relay(
                settings, [=] { return std::make_unique<RecordingSink>(deliveries, 0.0, QString()); },
                onceOptions(2, 5, 5));
            QCOMPARE(relay.run().published, 21LL);
        }
    }

    // Writers of one key commit one at a time, and a row's id is drawn once its writer holds the key: a writer
    // that waited gets an id above every row written meanwhile, so ids follow the commit order and a relay never
    // sees a key's later id before its earlier one.
    void aWriterThatWaitedForItsKeyGetsALaterId()
    {
        const auto insertKeyed = QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, ordering_key) "
            "VALUES ('order', '1', 'order.updated', '{}', ?::text, 'order:1') RETURNING id");
        const std::unique_ptr<DbSession> first = db().openSession();
        first->execScript(QStringLiteral("BEGIN"), QStringLiteral("beginning"));
        QSqlQuery& firstRow = first->exec(insertKeyed, { QStringLiteral("first") }, QStringLiteral("first writer"));
        QVERIFY(firstRow.next());
        const qint64 firstId = firstRow.value(0).toLongLong();

        qint64 secondId = 0;
        std::thread second([&] {
            const std::unique_ptr<DbSession> session = db().openSession();
            QSqlQuery& q = session->exec(insertKeyed, { QStringLiteral("second") }, QStringLiteral("second writer"));
            if (q.next())
                secondId = q.value(0).toLongLong();
        });
        // The second writer waits for the key's lock...
        QVERIFY(oneSessionWaitsFor(*first));
        // ...while an unkeyed row is written and committed.
        const qint64 unkeyedId
            = db().scalar(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                         "dedupe_key) VALUES ('order', '2', 'order.created', '{}', 'unkeyed') "
                                         "RETURNING id"))
                  .toLongLong();
        first->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        second.join();

        QVERIFY2(unkeyedId > firstId, qPrintable(QStringLiteral("%1 %2").arg(unkeyedId).arg(firstId)));
        QVERIFY2(secondId > unkeyedId,
            qPrintable(QStringLiteral("the waiting writer kept the id %1, below the unkeyed %2")
                           .arg(secondId)
                           .arg(unkeyedId)));
    }

    // A backfill of 100,000 events of distinct keys in one transaction, under the default lock table (the advisory
    // lock per key of migration 0013 ran out of shared memory past about 6,000 keys): it holds no lock per key, a
    // writer of another key goes on while it is open, and a writer of one of its keys waits for its commit and then
    // gets a later id.
    void aBackfillOfManyKeysHoldsNoLockPerKey()
    {
        constexpr int Events = 100'000;
        const std::unique_ptr<DbSession> backfill = db().openSession();
        backfill->execScript(QStringLiteral("BEGIN"), QStringLiteral("beginning"));
        try {
            backfill->exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                          "dedupe_key, ordering_key) "
                                          "SELECT 'order', g::text, 'order.imported', '{}', 'import:' || g, "
                                          "  'order:' || g FROM generate_series(1, ?::int) AS g"),
                { Events }, QStringLiteral("backfilling"));
        } catch (const OutboxError& error) {
            QFAIL(qPrintable(error.message()));
        }
        const qint64 locks = db().scalar(QStringLiteral("SELECT count(*) FROM pg_locks WHERE pid = ?::int"),
                                     { backfill->backendPid() })
                                 .toLongLong();
        QVERIFY2(locks < 100, qPrintable(QStringLiteral("the backfill holds %1 locks").arg(locks)));

        // Another key: written and committed while the backfill is open, without waiting (a wait would end in the
        // lock timeout's error).
        const std::unique_ptr<DbSession> other = db().openSession();
        other->execScript(QStringLiteral("SET lock_timeout = '5s'"), QStringLiteral("bounding the wait"));
        other->exec(QStringLiteral("SELECT outbox_enqueue('order', 'other', 'order.created', '{}')"), {},
            QStringLiteral("writing another key"));

        qint64 laterId = 0;
        std::thread sameKey([&] {
            const std::unique_ptr<DbSession> session = db().openSession();
            QSqlQuery& q
                = session->exec(QStringLiteral("SELECT outbox_enqueue('order', '50000', 'order.updated', '{}')"), {},
                    QStringLiteral("writing a key of the backfill"));
            if (q.next())
                laterId = q.value(0).toLongLong();
        });
        QVERIFY(oneSessionWaitsFor(*backfill));
        backfill->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        sameKey.join();
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE event_type = 'order.imported'")).toLongLong(),
            qint64(Events));
        QVERIFY2(laterId > db().scalar(QStringLiteral("SELECT max(id) FROM outbox WHERE event_type = 'order.imported'"))
                               .toLongLong(),
            "the key's writer that waited for the backfill kept an id below the backfill's");
    }
};

QTEST_GUILESS_MAIN(TestRelayOrdering)
#include "tst_relayordering.moc"
