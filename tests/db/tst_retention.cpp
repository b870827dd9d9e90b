// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "operations/retentionpurger.h"
#include "outbox/outboxpartitions.h"
#include "outbox/outboxreadrepository.h"
#include "relay/outboxleaserepository.h"
#include "relay/outboxrelay.h"
#include "support/databasetestcase.h"
#include "support/recordingsink.h"
#include "support/runningrelay.h"

#include <QScopeGuard>
#include <QSet>
#include <QSqlQuery>
#include <QTest>
#include <atomic>
#include <thread>

class TestRetention final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestRetention()
        : DatabaseTestCase(QStringLiteral("retention"))
    { }

private:
    static constexpr qint64 Day = 24LL * 3600 * 1000;

    qint64 count(const QString& sql) { return db().scalar(sql).toLongLong(); }

    QString openPartition() { return OutboxPartitions(session()).list().constLast().name; }

    // `rows` rows of `status`, published `publishedAgo` ago if published, with attempts.
    void addRows(const QString& status, const QString& publishedAgo, int rows)
    {
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                 "  status, attempts, published_at) "
                                 "SELECT 'order', g::text, 'e', '{}', gen_random_uuid()::text, ?::text, 2, "
                                 "  CASE WHEN ?::text = 'published' THEN now() - ?::interval END "
                                 "FROM generate_series(1, ?::int) g"),
            { status, status, publishedAgo, rows });
    }

    // The purges' batch size: the default, and one small enough that every purge takes several batches.
    static void batchSizes()
    {
        QTest::addColumn<int>("batchSize");
        QTest::newRow("default batches") << RetentionPurger::DefaultBatchSize;
        QTest::newRow("tiny batches") << 7;
    }

    // A closed partition of `rows` rows published two days ago.
    QString closedPublishedPartition(int rows)
    {
        addRows(QStringLiteral("published"), QStringLiteral("2 days"), rows);
        const QString filled = openPartition();
        if (!OutboxPartitions(session()).rollIfOlderThan(0))
            qFatal("the open partition did not close");
        return filled;
    }

    // The statement outbox_begin_detach() asks to run for `partition`, with rows published before a day ago going.
    QString detachStatement(const QString& partition)
    {
        return db()
            .scalar(QStringLiteral("SELECT outbox_begin_detach(?::text, now() - interval '1 day')"), { partition })
            .toString();
    }

    QString insertedInto(const QString& dedupeKey)
    {
        return db()
            .scalar(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                   "VALUES ('order', '1', 'e', '{}', ?::text) RETURNING tableoid::regclass::text"),
                { dedupeKey })
            .toString();
    }

private slots:
    void expiredKeysGo_data() { batchSizes(); }

    void expiredKeysGo()
    {
        QFETCH(int, batchSize);
        const QString insert = QStringLiteral(
            "INSERT INTO idempotency_keys (scope, idem_key, fingerprint, status, response_status, locked_until, "
            "expires_at) "
            "SELECT 's', ?::text || g, repeat('a', 64), ?::text, CASE WHEN ?::text = 'completed' THEN 201 END, "
            "  now() + ?::interval, now() + ?::interval FROM generate_series(1, ?::int) g");
        db().exec(insert,
            { QStringLiteral("old-"), QStringLiteral("completed"), QStringLiteral("completed"), QStringLiteral("0 s"),
                QStringLiteral("-1 hour"), 2500 });
        db().exec(insert,
            { QStringLiteral("fresh-"), QStringLiteral("completed"), QStringLiteral("completed"), QStringLiteral("0 s"),
                QStringLiteral("1 hour"), 10 });
        // Past its TTL but its worker still holds the lease: kept until the lease is gone too.
        db().exec(insert,
            { QStringLiteral("held-"), QStringLiteral("in_progress"), QStringLiteral("in_progress"),
                QStringLiteral("1 minute"), QStringLiteral("-1 hour"), 1 });
        db().exec(insert,
            { QStringLiteral("abandoned-"), QStringLiteral("in_progress"), QStringLiteral("in_progress"),
                QStringLiteral("-1 minute"), QStringLiteral("-1 hour"), 1 });

        QCOMPARE(RetentionPurger(session(), batchSize).purgeExpiredKeys(), 2501LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM idempotency_keys")), 11LL);
        QCOMPARE(
            count(QStringLiteral(
                "SELECT count(*) FROM idempotency_keys WHERE idem_key LIKE 'old-%' OR idem_key LIKE 'abandoned-%'")),
            0LL);
        QCOMPARE(RetentionPurger(session(), batchSize).purgeExpiredKeys(), 0LL);
    }

    // A partition whose rows were all published long enough ago is dropped whole, with the attempts of its rows;
    // the rows were written with a created_at a month old (an import), and went just as well.
    void aPublishedPartitionIsDroppedWhole()
    {
        addRows(QStringLiteral("published"), QStringLiteral("2 days"), 1500);
        db().exec(QStringLiteral("UPDATE outbox SET created_at = now() - interval '30 days'"));
        db().exec(QStringLiteral("INSERT INTO outbox_attempts (outbox_id, attempt, worker, error) "
                                 "SELECT id, 1, 'w', 'boom' FROM outbox"));
        const QString filled = openPartition();

        QCOMPARE(RetentionPurger(session()).purgePublishedOutbox(Day, 0), 1500LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox")), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_attempts")), 0LL);
        QVERIFY(db().scalar(QStringLiteral("SELECT to_regclass(?::text) IS NULL"), { filled }).toBool());
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_partitions WHERE name = ?::text"), { filled })
                     .toLongLong(),
            0LL);
        QVERIFY(openPartition() != filled);
        // Written now, the next rows go to the open partition.
        QCOMPARE(insertedInto(QStringLiteral("after")), openPartition());
    }

    // Rows of the log (migration 0028) go with their partition once their lanes' batches settled before the cutoff;
    // the batches and the ticks behind them go too, whatever the purge's batch size.
    void aPartitionOfTheLogIsDroppedWithItsLanesHistory_data() { batchSizes(); }

    void aPartitionOfTheLogIsDroppedWithItsLanesHistory()
    {
        QFETCH(int, batchSize);
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', g::text, 'e', '{}') FROM generate_series(1, 40) g"));
        OutboxLeaseRepository lease(session());
        for (;;) {
            const OutboxLeaseRepository::Claim claim
                = lease.claimDue(QStringLiteral("r"), QStringLiteral("r/w0"), 10, 30'000);
            if (claim.messages.isEmpty())
                break;
            QList<LeaseFence> fences;
            for (const OutboxMessage& message : claim.messages)
                fences.append({ message.id, message.leaseToken });
            QCOMPARE(lease.markPublished(fences).size(), fences.size());
        }
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published' "
                                      "  AND stored_status IS NULL")),
            40LL);
        const qint64 batches = count(QStringLiteral("SELECT count(*) FROM outbox_lane_batches"));
        QVERIFY(batches >= count(QStringLiteral("SELECT count(DISTINCT outbox_lane(ordering_key, id)) FROM outbox")));
        // Settled yesterday: not yet gone at a two-day cutoff, gone at a half-day one.
        db().exec(QStringLiteral("UPDATE outbox_lane_batches SET settled_at = now() - interval '1 day'"));
        QCOMPARE(RetentionPurger(session(), batchSize).purgePublishedOutbox(2 * Day, 0), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_lane_batches")), batches);
        QCOMPARE(RetentionPurger(session(), batchSize).purgePublishedOutbox(Day / 2, 0), 40LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox")), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_lane_batches")), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_ticks "
                                      "WHERE id < (SELECT min(done_tick) FROM outbox_lanes)")),
            0LL);
    }

    // A detached partition is counted a chunk at a time (migration 0023) and its files go one relation at a time
    // (migration 0022); a purge that stopped between them (a crash, a cancel) leaves a table counted in part and with
    // some of its indexes, which the next purge, or outbox_drop_detached(), finishes, counting its rows exactly.
    void aDropStoppedBetweenItsFilesIsFinished_data()
    {
        QTest::addColumn<bool>("bySql");
        QTest::newRow("by the next purge") << false;
        QTest::newRow("by outbox_drop_detached()") << true;
    }

    void aDropStoppedBetweenItsFilesIsFinished()
    {
        QFETCH(bool, bySql);
        const QString filled = closedPublishedPartition(1500);
        QVERIFY(
            db().scalar(QStringLiteral("SELECT outbox_detach_partition(?::text, now() - interval '1 day')"), { filled })
                .toBool());
        const QString detached = db().scalar(QStringLiteral("SELECT name FROM outbox_detached_partitions")).toString();
        const auto indexes = [&] {
            return count(QStringLiteral("SELECT count(*) FROM pg_index WHERE indrelid = '%1'::regclass").arg(detached));
        };
        const qint64 before = indexes();
        QVERIFY(before > 3);
        // Counted in part (800 of its rows), then three of its indexes gone.
        for (int chunk = 0; chunk < 2; ++chunk) {
            QVERIFY(db().scalar(QStringLiteral("SELECT outbox_count_detached(?::text, 400)"), { detached }).toBool());
        }
        for (int dropped = 0; dropped < 3; ++dropped) {
            QVERIFY(!db().scalar(QStringLiteral("SELECT outbox_drop_detached_index(?::text)"), { detached }).isNull());
        }
        QCOMPARE(indexes(), before - 3);

        const qint64 rows = bySql
            ? db().scalar(QStringLiteral("SELECT sum(dropped)::bigint FROM outbox_drop_detached()")).toLongLong()
            : RetentionPurger(session()).purgePublishedOutbox(Day, Day);
        QCOMPARE(rows, 1500LL);
        QVERIFY(db().scalar(QStringLiteral("SELECT to_regclass(?::text) IS NULL"), { detached }).toBool());
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_detached_partitions")), 0LL);
        QVERIFY(db().scalar(QStringLiteral("SELECT outbox_drop_detached_index(?::text)"), { detached }).isNull());
    }

    // Rows that were not published before the cutoff (dead, published later, never published) stay, with their
    // attempts; the partition keeps only them, and the next purge leaves it alone.
    void rowsNotYetDueStayWithTheirHistory_data() { batchSizes(); }

    void rowsNotYetDueStayWithTheirHistory()
    {
        QFETCH(int, batchSize);
        addRows(QStringLiteral("published"), QStringLiteral("2 days"), 1500);
        addRows(QStringLiteral("published"), QStringLiteral("1 hour"), 5);
        addRows(QStringLiteral("dead"), QStringLiteral("0 s"), 3);
        db().exec(QStringLiteral("INSERT INTO outbox_attempts (outbox_id, attempt, worker, error) "
                                 "SELECT id, 1, 'w', 'boom' FROM outbox"));
        const QString filled = openPartition();

        QCOMPARE(RetentionPurger(session(), batchSize).purgePublishedOutbox(Day, 0), 1500LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'published'")), 5LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'dead'")), 3LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_attempts")), 8LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM %1").arg(filled)), 8LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_attempts a "
                                      "WHERE NOT EXISTS (SELECT FROM outbox o WHERE o.id = a.outbox_id)")),
            0LL);
        // The kept rows are still the table's: they can be retried, and they keep their dedupe keys.
        QCOMPARE(count(QStringLiteral("WITH r AS (UPDATE outbox SET status = 'pending' WHERE status = 'dead' "
                                      "RETURNING 1) SELECT count(*) FROM r")),
            3LL);
        QCOMPARE(RetentionPurger(session(), batchSize).purgePublishedOutbox(Day, Day), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox")), 8LL);
    }

    // The open partition holds the newest rows: it is closed only once it is as old as asked, so its rows stay.
    void theOpenPartitionStaysUntilItIsOldEnough()
    {
        addRows(QStringLiteral("published"), QStringLiteral("2 days"), 100);
        const QString open = openPartition();
        QCOMPARE(RetentionPurger(session()).purgePublishedOutbox(Day, Day), 0LL);
        QCOMPARE(openPartition(), open);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox")), 100LL);
    }

    // The dedupe key is unique across the open partition and the one closed last: the SQL API returns the first
    // row's id, a plain INSERT is refused with the unique violation it always got.
    void theDedupeKeyHoldsAcrossAPartitionBoundary()
    {
        const qint64 first = db().scalar(QStringLiteral("SELECT outbox_enqueue('order', '1', 'e', '{}', "
                                                        "dedupe_key => 'order.created:1')"))
                                 .toLongLong();
        const QString before = openPartition();
        QVERIFY(OutboxPartitions(session()).rollIfOlderThan(0));
        QVERIFY(openPartition() != before);

        QCOMPARE(db().scalar(QStringLiteral("SELECT outbox_enqueue('order', '1', 'e', '{}', "
                                            "dedupe_key => 'order.created:1')"))
                     .toLongLong(),
            first);
        try {
            insertedInto(QStringLiteral("order.created:1"));
            QFAIL("a second row with the dedupe key of a row in another partition was written");
        } catch (const OutboxError& error) {
            QCOMPARE(error.sqlState(), QStringLiteral("23505"));
            QVERIFY2(error.message().contains(QLatin1String("outbox_dedupe_key_unique")), qPrintable(error.message()));
        }
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox WHERE dedupe_key = 'order.created:1'")), 1LL);
        QCOMPARE(insertedInto(QStringLiteral("order.created:2")), openPartition());
        // Nor can a key become another row's by an update: a message's identity does not change.
        try {
            db().exec(QStringLiteral("UPDATE outbox SET dedupe_key = 'order.created:1' "
                                     "WHERE dedupe_key = 'order.created:2'"));
            QFAIL("a dedupe key was changed");
        } catch (const OutboxError& error) {
            QCOMPARE(error.sqlState(), QStringLiteral("0A000"));
        }
        // Several rows in one statement, one of them a duplicate: none is written.
        try {
            db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                     "dedupe_key) VALUES ('order', '1', 'e', '{}', 'order.created:3'), "
                                     "('order', '1', 'e', '{}', 'order.created:1')"));
            QFAIL("a statement with a duplicate key was written");
        } catch (const OutboxError& error) {
            QCOMPARE(error.sqlState(), QStringLiteral("23505"));
        }
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox WHERE dedupe_key = 'order.created:3'")), 0LL);
    }

    // The window ends with the partition closed last: once a second roll has closed the one after the key's, the key
    // is free again, for the SQL API as for a plain INSERT (the check no longer reads that partition).
    void theDedupeWindowEndsTwoRollsLater()
    {
        const qint64 first = db().scalar(QStringLiteral("SELECT outbox_enqueue('order', '1', 'e', '{}', "
                                                        "dedupe_key => 'order.created:1')"))
                                 .toLongLong();
        QVERIFY(OutboxPartitions(session()).rollIfOlderThan(0));
        QCOMPARE(db().scalar(QStringLiteral("SELECT outbox_find_dedupe_key('order.created:1')")).toLongLong(), first);
        insertedInto(QStringLiteral("order.created:2")); // A roll closes only a partition with rows.
        QVERIFY(OutboxPartitions(session()).rollIfOlderThan(0));
        QVERIFY(db().scalar(QStringLiteral("SELECT outbox_find_dedupe_key('order.created:1')")).isNull());

        const qint64 again = db().scalar(QStringLiteral("SELECT outbox_enqueue('order', '1', 'e', '{}', "
                                                        "dedupe_key => 'order.created:1')"))
                                 .toLongLong();
        QVERIFY(again > first);
        QCOMPARE(db().scalar(QStringLiteral("SELECT outbox_enqueue('order', '1', 'e', '{}', "
                                            "dedupe_key => 'order.created:1')"))
                     .toLongLong(),
            again);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox WHERE dedupe_key = 'order.created:1'")), 2LL);
        // The new row has the window again.
        try {
            insertedInto(QStringLiteral("order.created:1"));
            QFAIL("a third row with the key was written");
        } catch (const OutboxError& error) {
            QCOMPARE(error.sqlState(), QStringLiteral("23505"));
        }
    }

    // The dedupe check and the SQL API's lookup stay index probes while the open partition grows. PL/pgSQL keeps a
    // statement's plan for the session: planned just after an ANALYZE saw the open partition empty, they read the
    // whole partition sequentially at every insert from then on (one session's inserts fell to 400-540 per second
    // within 30 s, where plans that leave the open partition alone hold 4,400-6,100).
    void theDedupeChecksPlansSurviveAGrowingPartition()
    {
        closedPublishedPartition(200);
        const QString open = openPartition();
        session().execScript(QStringLiteral("ANALYZE %1").arg(open), QStringLiteral("analyzing the empty partition"));
        const auto writer = db().openSession(QStringLiteral("writer"));
        const QString enqueue = QStringLiteral("SELECT outbox_enqueue('order', '1', 'e', '{}', dedupe_key => ?::text)");
        const QString insert = QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                              "dedupe_key) VALUES ('order', '1', 'e', '{}', ?::text)");
        // Planned now, several times each (PostgreSQL settles on a plan for a statement with parameters after five).
        for (int i = 0; i < 7; ++i) {
            writer->exec(insert, { QStringLiteral("early insert %1").arg(i) }, QStringLiteral("inserting"));
            writer->exec(enqueue, { QStringLiteral("early %1").arg(i) }, QStringLiteral("enqueueing"));
            writer->exec(enqueue, { QStringLiteral("early %1").arg(i) }, QStringLiteral("enqueueing again"));
        }
        addRows(QStringLiteral("pending"), QStringLiteral("0 s"), 5000);

        // Rows read by sequential scans of the open partition: the session's count not yet reported, which the
        // statements before this transaction may be part of (they met a partition of a few rows).
        const auto rowsScanned = [&writer, &open] {
            QSqlQuery& query = writer->exec(QStringLiteral("SELECT coalesce(sum(seq_tup_read), 0) "
                                                           "FROM pg_stat_xact_user_tables WHERE relid = ?::regclass"),
                { open }, QStringLiteral("reading the scans"));
            return query.next() ? query.value(0).toLongLong() : -1;
        };
        writer->execScript(QStringLiteral("BEGIN"), QStringLiteral("beginning"));
        const qint64 scannedBefore = rowsScanned();
        writer->exec(insert, { QStringLiteral("late insert") }, QStringLiteral("inserting"));
        const auto enqueued = [&writer, &enqueue](const QString& key) {
            QSqlQuery& query = writer->exec(enqueue, { key }, QStringLiteral("enqueueing"));
            return query.next() ? query.value(0).toLongLong() : -1;
        };
        const qint64 late = enqueued(QStringLiteral("late"));
        QCOMPARE(enqueued(QStringLiteral("late")), late);
        const qint64 early = count(QStringLiteral("SELECT id FROM outbox WHERE dedupe_key = 'early 3'"));
        QCOMPARE(enqueued(QStringLiteral("early 3")), early);
        QCOMPARE(rowsScanned(), scannedBefore);
        writer->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox WHERE dedupe_key IN ('late', 'late insert')")), 2LL);
    }

    // A roll cut off after any of its steps (the maintenance process killed) is finished by the next one, and
    // writers write all along.
    void anInterruptedRollIsFinished_data()
    {
        QTest::addColumn<QStringList>("steps");
        QTest::newRow("after the CHECK") << QStringList { QStringLiteral("outbox_roll_prepare()") };
        QTest::newRow("after its validation")
            << QStringList { QStringLiteral("outbox_roll_prepare()"), QStringLiteral("outbox_roll_validate()") };
        QTest::newRow("after the switch") << QStringList { QStringLiteral("outbox_roll_prepare()"),
            QStringLiteral("outbox_roll_validate()"), QStringLiteral("outbox_roll_switch()") };
    }

    void anInterruptedRollIsFinished()
    {
        QFETCH(QStringList, steps);
        addRows(QStringLiteral("pending"), QStringLiteral("0 s"), 10);
        const QString before = openPartition();
        for (const QString& step : steps)
            db().exec(QStringLiteral("SELECT ") + step);
        // Written meanwhile: into the partition being closed (its ids are below the bound until the roll ends).
        QCOMPARE(insertedInto(QStringLiteral("meanwhile")), before);

        OutboxPartitions(session()).rollIfOlderThan(Day);
        QVERIFY(openPartition() != before);
        QCOMPARE(insertedInto(QStringLiteral("after")), openPartition());
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM pg_constraint WHERE conname LIKE '%\\_closing'")), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_partitions WHERE closing_at_id IS NOT NULL")), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox")), 12LL);
    }

    // A purge that meets a long transaction on the outbox waits for it without holding up the writers: the
    // partition leaves by a concurrent detach, which waits for the transactions that may still read it, holding no
    // lock a writer wants. A second purge meanwhile waits for the first, then finds nothing left to drop.
    void aPurgeWaitingForALongTransactionLetsWritersPass()
    {
        addRows(QStringLiteral("published"), QStringLiteral("2 days"), 100);
        QVERIFY(OutboxPartitions(session()).rollIfOlderThan(0));
        const auto longTransaction = db().openSession(QStringLiteral("long transaction"));
        longTransaction->execScript(QStringLiteral("BEGIN; SELECT count(*) FROM outbox"), QStringLiteral("reading"));

        std::atomic<qint64> dropped[2] = { -1, -1 };
        QString purgeErrors[2];
        std::thread purges[2];
        const auto purge = [&](int which) {
            purges[which] = std::thread([&, which] {
                try {
                    const auto purging = db().openSession(QStringLiteral("purge"));
                    dropped[which] = RetentionPurger(*purging).purgePublishedOutbox(Day, Day);
                } catch (const OutboxError& error) {
                    purgeErrors[which] = error.message();
                }
            });
        };
        const auto joinPurges = qScopeGuard([&] {
            for (std::thread& thread : purges) {
                if (thread.joinable())
                    thread.join();
            }
        });
        // Seen once, it waits (QTRY_* evaluates its expression more than once).
        const auto waiting = [&](const QString& waitEvent) {
            return count(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                        "AND wait_event_type = 'Lock' AND wait_event = '%1'")
                             .arg(waitEvent))
                == 1;
        };
        purge(0);
        bool detachWaits = false;
        QTRY_VERIFY_WITH_TIMEOUT(detachWaits = detachWaits || waiting(QStringLiteral("virtualxid")), 20'000);
        purge(1);
        bool secondWaits = false;
        QTRY_VERIFY_WITH_TIMEOUT(secondWaits = secondWaits || waiting(QStringLiteral("advisory")), 20'000);
        // A writer gets through while the purges wait: a statement timeout makes a blocked one fail.
        db().exec(QStringLiteral("SELECT set_config('statement_timeout', '10s', false)"));
        QCOMPARE(insertedInto(QStringLiteral("passing")), openPartition());
        db().exec(QStringLiteral("SELECT set_config('statement_timeout', '0', false)"));
        QCOMPARE(dropped[0].load(), -1LL);
        QCOMPARE(dropped[1].load(), -1LL);

        longTransaction->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        QTRY_VERIFY_WITH_TIMEOUT(dropped[0] >= 0 && dropped[1] >= 0, 20'000);
        QVERIFY2(purgeErrors[0].isEmpty(), qPrintable(purgeErrors[0]));
        QVERIFY2(purgeErrors[1].isEmpty(), qPrintable(purgeErrors[1]));
        QCOMPARE(dropped[0].load(), 100LL);
        QCOMPARE(dropped[1].load(), 0LL);
    }

    // A concurrent detach stopped midway (its session cancelled or killed while it waited: the partition is left
    // "pending detach"), or done but not recorded (the purge died between the two), is finished by the next purge,
    // which counts the rows exactly; writers write meanwhile.
    void anInterruptedDetachIsFinished_data()
    {
        QTest::addColumn<QString>("interruption");
        QTest::newRow("cancelled while waiting") << QStringLiteral("pg_cancel_backend");
        QTest::newRow("killed while waiting") << QStringLiteral("pg_terminate_backend");
        QTest::newRow("detached, not recorded") << QString();
    }

    void anInterruptedDetachIsFinished()
    {
        QFETCH(QString, interruption);
        // An older partition too, which the purge reaches first.
        closedPublishedPartition(10);
        const QString filled = closedPublishedPartition(1500);
        const QString statement = detachStatement(filled);
        QCOMPARE(statement, QStringLiteral("ALTER TABLE outbox DETACH PARTITION %1 CONCURRENTLY").arg(filled));

        const auto detaching = db().openSession(QStringLiteral("detaching"));
        if (interruption.isEmpty()) {
            detaching->execScript(statement, QStringLiteral("detaching"));
        } else {
            const auto longTransaction = db().openSession(QStringLiteral("long transaction"));
            longTransaction->execScript(
                QStringLiteral("BEGIN; SELECT count(*) FROM outbox"), QStringLiteral("reading"));
            QString detachError;
            std::thread detach([&] {
                try {
                    detaching->execScript(statement, QStringLiteral("detaching"));
                } catch (const OutboxError& error) {
                    detachError = error.message();
                }
            });
            auto joinDetach = qScopeGuard([&] { detach.join(); });
            bool waits = false;
            QTRY_VERIFY_WITH_TIMEOUT(waits = waits
                    || count(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE pid = %1 AND "
                                            "wait_event = 'virtualxid'")
                                 .arg(detaching->backendPid()))
                        == 1,
                20'000);
            db().exec(QStringLiteral("SELECT %1(?::int)").arg(interruption), { detaching->backendPid() });
            joinDetach.dismiss();
            detach.join();
            QVERIFY(!detachError.isEmpty());
            longTransaction->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
            QCOMPARE(count(QStringLiteral("SELECT count(*) FROM pg_inherits WHERE inhdetachpending")), 1LL);
        }
        // The rows are out of the outbox, not yet recorded; writers write.
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox")), 10LL);
        QCOMPARE(insertedInto(QStringLiteral("meanwhile")), openPartition());

        QCOMPARE(RetentionPurger(session()).purgePublishedOutbox(Day, Day), 1510LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM pg_inherits WHERE inhdetachpending")), 0LL);
        QVERIFY(db().scalar(QStringLiteral("SELECT to_regclass(?::text) IS NULL"), { filled }).toBool());
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_partitions WHERE upper_id IS NOT NULL")), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_detached_partitions")), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox")), 1LL);
    }

    // A row that changes between the check and the concurrent detach (an operator replays a published row) is put
    // back into the outbox, in a table for the same range, and is not counted as dropped.
    void aRowChangedDuringADetachIsKept()
    {
        const QString filled = closedPublishedPartition(1500);
        const QString statement = detachStatement(filled);
        const qint64 replayed = db().scalar(QStringLiteral("UPDATE outbox SET status = 'pending', published_at = NULL "
                                                           "WHERE id = (SELECT min(id) FROM outbox) RETURNING id"))
                                    .toLongLong();
        db().openSession(QStringLiteral("detaching"))->execScript(statement, QStringLiteral("detaching"));

        QCOMPARE(RetentionPurger(session()).purgePublishedOutbox(Day, Day), 1499LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT status || ' in ' || tableoid::regclass::text FROM outbox "
                                            "WHERE id = ?::bigint"),
                         { replayed })
                     .toString(),
            QStringLiteral("pending in ") + filled);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox")), 1LL);
    }

    // The relay's claim reads only the partitions from the oldest one holding a row not yet published (migration
    // 0025): closed partitions published through stay out of its plan; only the floor looks at them.
    void theClaimLeavesPublishedPartitionsAlone()
    {
        const QString first = closedPublishedPartition(20);
        const QString second = closedPublishedPartition(20);
        addRows(QStringLiteral("pending"), QStringLiteral("0 s"), 30);
        QCOMPARE(count(QStringLiteral("SELECT outbox_live_floor()")),
            count(QStringLiteral("SELECT lower_id FROM outbox_partitions WHERE upper_id IS NULL")));

        // Scans of the two closed partitions and their indexes in the claiming session's transaction, planning
        // included (the planner probes indexes for its estimates).
        const auto scansOfClosed = [&] {
            QSqlQuery& q = session().exec(
                QStringLiteral("SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0) "
                               "FROM pg_stat_xact_user_tables WHERE relid IN (?::regclass, ?::regclass)"),
                { first, second }, QStringLiteral("reading the scan counts"));
            return q.next() ? q.value(0).toLongLong() : -1;
        };
        const auto liveFloor = [&] {
            session()
                .exec(QStringLiteral("SELECT outbox_live_floor()"), {}, QStringLiteral("reading the floor"))
                .next();
        };
        session().execScript(QStringLiteral("BEGIN"), QStringLiteral("begin"));
        liveFloor(); // its plans made
        const qint64 beforeFloor = scansOfClosed();
        liveFloor();
        const qint64 floorScans = scansOfClosed() - beforeFloor;
        // The claim reads the floor again, and nothing else of those partitions.
        const OutboxLeaseRepository::Claim claim
            = OutboxLeaseRepository(session()).claimDue(QStringLiteral("r"), QStringLiteral("r/w0"), 100, 30'000);
        const qint64 claimScans = scansOfClosed() - beforeFloor - floorScans;
        session().execScript(QStringLiteral("COMMIT"), QStringLiteral("commit"));
        QCOMPARE(claim.messages.size(), 30);
        QVERIFY(beforeFloor >= 0);
        QCOMPARE(claimScans, floorScans);
    }

    // A row the relay must still publish or wait for, in a closed partition behind and before published ones, moves
    // the floor down to its partition: the claim takes it, or parks a younger row of its ordering key behind it.
    void rowsToPublishInClosedPartitionsStayInTheClaim_data()
    {
        QTest::addColumn<bool>("inFirstPartition");
        QTest::addColumn<QString>("status");
        QTest::addColumn<bool>("claimed"); // the old row; otherwise the young row of its key is parked
        QTest::newRow("failed, due") << false << QStringLiteral("failed") << true;
        QTest::newRow("pending, in the first partition") << true << QStringLiteral("pending") << true;
        QTest::newRow("dead, ahead of its key") << false << QStringLiteral("dead") << false;
        QTest::newRow("dead, in the first partition") << true << QStringLiteral("dead") << false;
    }

    void rowsToPublishInClosedPartitionsStayInTheClaim()
    {
        QFETCH(bool, inFirstPartition);
        QFETCH(QString, status);
        QFETCH(bool, claimed);
        const auto addOld = [&] {
            return db()
                .scalar(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                       "  dedupe_key, status, attempts, ordering_key, next_attempt_at) "
                                       "VALUES ('order', 'old', 'e', '{}', 'old', ?::text, 1, 'key', "
                                       "  now() - interval '1 s') RETURNING id"),
                    { status })
                .toLongLong();
        };
        qint64 old = -1;
        if (inFirstPartition)
            old = addOld();
        closedPublishedPartition(20);
        if (!inFirstPartition) {
            closedPublishedPartition(20);
            addRows(QStringLiteral("published"), QStringLiteral("2 days"), 20);
            old = addOld();
            QVERIFY(OutboxPartitions(session()).rollIfOlderThan(0));
        }
        closedPublishedPartition(20);
        addRows(QStringLiteral("pending"), QStringLiteral("0 s"), 5);
        // Off the log, like the old row and the five above: the claim of the rows off the log takes them together.
        const qint64 young = count(
            QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                           "  ordering_key, status) VALUES ('order', 'young', 'e', '{}', 'young', 'key', 'pending') "
                           "RETURNING id"));
        const qint64 floor = count(QStringLiteral("SELECT outbox_live_floor()"));
        QCOMPARE(floor,
            db().scalar(
                    QStringLiteral("SELECT coalesce(lower_id, '-9223372036854775808'::bigint) "
                                   "FROM outbox_partitions "
                                   "WHERE name = (SELECT tableoid::regclass::text FROM outbox WHERE id = ?::bigint)"),
                    { old })
                .toLongLong());
        QVERIFY(floor < count(QStringLiteral("SELECT lower_id FROM outbox_partitions WHERE upper_id IS NULL")));

        const OutboxLeaseRepository::Claim claim
            = OutboxLeaseRepository(session()).claimDue(QStringLiteral("r"), QStringLiteral("r/w0"), 100, 30'000);
        QSet<qint64> ids;
        for (const OutboxMessage& message : claim.messages)
            ids.insert(message.id);
        QCOMPARE(ids.contains(old), claimed);
        QCOMPARE(ids.contains(young), claimed);
        QCOMPARE(ids.size(), claimed ? 7 : 5);
        QCOMPARE(db().scalar(QStringLiteral("SELECT status FROM outbox_messages WHERE id = ?::bigint"), { young })
                     .toString(),
            claimed ? QStringLiteral("in_flight") : QStringLiteral("waiting"));
    }

    // A search of a created range reads only the partitions that can hold such rows: those closed before the
    // range began are skipped (no scan of them at all), and the results are the same.
    void aCreatedRangeSkipsThePartitionsBeforeIt()
    {
        addRows(QStringLiteral("pending"), QStringLiteral("0 s"), 50);
        db().exec(QStringLiteral("UPDATE outbox SET created_at = now() - interval '10 days'"));
        const QString old = openPartition();
        QVERIFY(OutboxPartitions(session()).rollIfOlderThan(0));
        addRows(QStringLiteral("pending"), QStringLiteral("0 s"), 20);
        // An import into the open partition: as old as the closed partition's rows, and found.
        addRows(QStringLiteral("dead"), QStringLiteral("0 s"), 1);
        db().exec(QStringLiteral("UPDATE outbox SET created_at = now() - interval '2 days' WHERE status = 'dead'"));

        // In the session that searches: the counts are its transaction's.
        const auto scansOfOld = [&] {
            QSqlQuery& q = session().exec(QStringLiteral("SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) "
                                                         "FROM pg_stat_xact_user_tables WHERE relname = ?::text"),
                { old }, QStringLiteral("reading the scan counts"));
            return q.next() ? q.value(0).toLongLong() : -1;
        };
        OutboxFilter filter;
        filter.createdFrom = QDateTime::currentDateTimeUtc().addDays(-3);
        session().execScript(QStringLiteral("BEGIN"), QStringLiteral("begin"));
        const qint64 before = scansOfOld();
        const OutboxPage page = OutboxReadRepository(session()).page(filter, 100, 0);
        const qint64 after = scansOfOld();
        session().execScript(QStringLiteral("COMMIT"), QStringLiteral("commit"));
        QCOMPARE(page.rows.size(), 21);
        QVERIFY(before >= 0);
        QCOMPARE(after, before);

        // A range that reaches back to the closed partition reads it.
        filter.createdFrom = QDateTime::currentDateTimeUtc().addDays(-11);
        QCOMPARE(OutboxReadRepository(session()).page(filter, 100, 0).rows.size(), 71);
    }

    // Purges while two relays drain and a service writes: nothing lost, nothing published twice, no writer error.
    void purgingWhileRelaysDrainAndAServiceWrites()
    {
        auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        RelayOptions options;
        options.workerName = QStringLiteral("retention");
        options.workers = 2;
        options.batchSize = 50;
        options.idlePollMs = 20;
        options.log = [](QtMsgType, const QString&) {};
        OutboxRelay relay(
            db().settings(), [=] { return std::make_unique<RecordingSink>(deliveries); }, options);
        RunningRelay running(relay);

        std::atomic<bool> writing = true;
        std::atomic<qint64> written = 0;
        QString writerError;
        std::thread writer([&] {
            try {
                const auto session = db().openSession(QStringLiteral("writer"));
                while (writing) {
                    session->exec(QStringLiteral("SELECT outbox_enqueue('order', g::text, 'e', '{}') "
                                                 "FROM generate_series(1, 20) g"),
                        {}, QStringLiteral("writing"));
                    written += 20;
                }
            } catch (const OutboxError& error) {
                writerError = error.message();
            }
        });

        qint64 dropped = 0;
        for (int round = 0; round < 6; ++round) {
            const qint64 before = written;
            // Wait for rows the relays published since the last round, then drop them with their partition.
            QTRY_VERIFY_WITH_TIMEOUT(written >= before + 200
                    && count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")) > 0,
                20'000);
            dropped += RetentionPurger(session()).purgePublishedOutbox(0, 0);
        }
        writing = false;
        writer.join();
        QVERIFY2(writerError.isEmpty(), qPrintable(writerError));
        QTRY_COMPARE_WITH_TIMEOUT(
            count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status IS DISTINCT FROM 'published'")),
            0LL, 30'000);
        running.stop();

        const QList<OutboxMessage> delivered = deliveries->snapshot();
        QSet<qint64> ids;
        for (const OutboxMessage& message : delivered)
            ids.insert(message.id);
        QCOMPARE(qint64(delivered.size()), qint64(ids.size()));
        QCOMPARE(qint64(ids.size()), written.load());
        QVERIFY(dropped > 0);
        QCOMPARE(dropped + count(QStringLiteral("SELECT count(*) FROM outbox")), written.load());
        QVERIFY(OutboxPartitions(session()).list().size() >= 2);
    }
};

QTEST_GUILESS_MAIN(TestRetention)
#include "tst_retention.moc"
