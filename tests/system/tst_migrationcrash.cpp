// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "support/databaseprobe.h"
#include "support/processtesting.h"

#include <QProcess>
#include <QTest>

// Migrations cut off midway on a populated outbox: their process killed with SIGKILL, their statement cancelled, or
// the server stopped with `pg_ctl stop -m immediate`. 0021 (the partitioned outbox) while its transaction waits for
// a writer's lock, after its online steps; 0028 (the log), upgrading from schema 25, inside an online step, while
// CREATE INDEX CONCURRENTLY waits for an old snapshot, which a cancel or a crash leaves half built (invalid). Run
// again, each completes; no row is lost, none changes. A private cluster each, since the shared test cluster cannot
// be stopped under the other tests.
class TestMigrationCrash final : public QObject {
    Q_OBJECT

public:
    enum class CutOff { ProcessKilled, StatementCancelled, ServerCrashed };
    Q_ENUM(CutOff)

private:
    static constexpr qint64 MigrationLockId = 0x6f7574626f78; // SchemaMigrator's
    static constexpr int Rows = 200'000;

    static qint64 scalar(const PrivateCluster& cluster, const QString& sql)
    {
        return DatabaseProbe::scalar(cluster.settings(), sql);
    }

    // The schema at `version`, and `rows` published rows in the outbox; false if the schema did not reach it.
    static bool seedPublished(const PrivateCluster& cluster, int version, int rows)
    {
        DbSession seed(cluster.settings(), QStringLiteral("seed"));
        if (SchemaMigrator(seed).migrate(version) != version)
            return false;
        seed.execScript(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                       "  dedupe_key, status, published_at) "
                                       "SELECT 'order', g::text, 'order.created', jsonb_build_object('n', g), "
                                       "  'order.created:' || g, 'published', now() "
                                       "FROM generate_series(1, %1) g")
                            .arg(rows),
            QStringLiteral("seeding the outbox"));
        return true;
    }

    static QStringList migrateArguments(const PrivateCluster& cluster)
    {
        return { QStringLiteral("--dsn"), cluster.dsn(), QStringLiteral("migrate") };
    }

private slots:
    void aMigrationCutOffMidwayCompletesWhenRunAgain_data()
    {
        QTest::addColumn<bool>("serverCrashes");
        QTest::newRow("migrating process killed") << false;
        QTest::newRow("server stopped -m immediate") << true;
    }

    void aMigrationCutOffMidwayCompletesWhenRunAgain()
    {
        QFETCH(bool, serverCrashes);
        PrivateCluster cluster;
        cluster.start();
        QVERIFY(seedPublished(cluster, 20, Rows));
        const QString fingerprint = QStringLiteral("SELECT hashtext(string_agg(id || dedupe_key, ',' ORDER BY id)) "
                                                   "FROM outbox");
        const qint64 before = scalar(cluster, fingerprint);

        // Holds the migrators' lock, so that the migration does its online steps and then waits inside its
        // transaction; a writer's open transaction then holds it at the table's lock.
        auto holder = std::make_unique<DbSession>(cluster.settings(), QStringLiteral("holder"));
        holder->exec(QStringLiteral("SELECT pg_advisory_lock(?)"), { MigrationLockId }, QStringLiteral("locking"));
        QProcess migrating;
        migrating.start(QStringLiteral(OUTBOXCTL_PATH), migrateArguments(cluster));
        QVERIFY(migrating.waitForStarted());
        const QString waitingFor
            = QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE backend_type = "
                             "'client backend' AND wait_event_type = 'Lock' AND wait_event = '%1'");
        QTRY_COMPARE_WITH_TIMEOUT(scalar(cluster, waitingFor.arg(QStringLiteral("advisory"))), 1LL, 60'000);
        QCOMPARE(scalar(cluster,
                     QStringLiteral("SELECT count(*) FROM pg_constraint "
                                    "WHERE conname = 'outbox_legacy_range' AND convalidated")),
            1LL);
        auto writer = std::make_unique<DbSession>(cluster.settings(), QStringLiteral("writer"));
        writer->execScript(QStringLiteral("BEGIN; INSERT INTO outbox (aggregate_type, aggregate_id, event_type, "
                                          "payload, dedupe_key) VALUES ('order', 'w', 'order.created', '{}', 'w')"),
            QStringLiteral("writing"));
        holder.reset();
        // The migration's lock tries alternate with short pauses (outbox_lock_briefly), so its wait is seen now and
        // then, not steadily: once seen, it is known to have reached its transaction's lock.
        bool sawLockWait = false;
        QTRY_VERIFY_WITH_TIMEOUT(
            sawLockWait = sawLockWait || scalar(cluster, waitingFor.arg(QStringLiteral("relation"))) == 1, 60'000);

        if (serverCrashes) {
            cluster.crash();
            QVERIFY(migrating.waitForFinished(60'000));
            QVERIFY(migrating.exitCode() != 0);
            writer.reset();
            cluster.start();
        } else {
            migrating.kill();
            QVERIFY(migrating.waitForFinished(60'000));
            writer->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
            writer.reset();
        }
        // Nothing of the migration's transaction stayed.
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT max(version) FROM schema_migrations")), 20LL);
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT count(*) FROM pg_partitioned_table")), 0LL);

        const ProcessTesting::Run again
            = ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH), migrateArguments(cluster));
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(
            again.out.trimmed(), QByteArray("schema version ") + QByteArray::number(SchemaMigrator::latestVersion()));
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT count(*) FROM outbox WHERE dedupe_key <> 'w'")), qint64(Rows));
        // The writer's row is there if it committed (not if the server crashed under its transaction).
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT count(*) FROM outbox WHERE dedupe_key = 'w'")),
            serverCrashes ? 0LL : 1LL);
        QCOMPARE(scalar(cluster, fingerprint + QStringLiteral(" WHERE dedupe_key <> 'w'")), before);
        QCOMPARE(
            scalar(cluster, QStringLiteral("SELECT count(*) FROM outbox_from_min")), Rows + (serverCrashes ? 0 : 1));
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT count(*) FROM outbox_partitions WHERE upper_id IS NULL")), 1LL);
        // New rows go to the open partition, and the old keys still refuse a duplicate.
        QCOMPARE(scalar(cluster,
                     QStringLiteral("SELECT outbox_enqueue('order', '7', 'order.created', '{}', "
                                    "dedupe_key => 'order.created:7')")),
            scalar(cluster, QStringLiteral("SELECT id FROM outbox WHERE dedupe_key = 'order.created:7'")));
        QCOMPARE(scalar(cluster,
                     QStringLiteral("SELECT count(*) FROM outbox WHERE tableoid = (SELECT name::regclass FROM "
                                    "outbox_partitions WHERE upper_id IS NULL)")),
            0LL);
    }

    void anIndexBuildCutOffMidwayIsBuiltAgainWhenRunAgain_data()
    {
        QTest::addColumn<CutOff>("cutOff");
        QTest::addColumn<qint64>("invalidIndexes"); // what the cut leaves
        // The server goes on with the statement of a client that vanished, and completes the index once the
        // snapshot is gone.
        QTest::newRow("migrating process killed") << CutOff::ProcessKilled << 0LL;
        QTest::newRow("index build cancelled") << CutOff::StatementCancelled << 1LL;
        QTest::newRow("server stopped -m immediate") << CutOff::ServerCrashed << 1LL;
    }

    void anIndexBuildCutOffMidwayIsBuiltAgainWhenRunAgain()
    {
        QFETCH(CutOff, cutOff);
        QFETCH(qint64, invalidIndexes);
        constexpr int LogRows = 20'000;
        PrivateCluster cluster;
        cluster.start();
        QVERIFY(seedPublished(cluster, 25, LogRows));
        const QString fingerprint = QStringLiteral("SELECT hashtext(string_agg(id || dedupe_key || status, ',' "
                                                   "ORDER BY id)) FROM outbox");
        const qint64 before = scalar(cluster, fingerprint);

        // A snapshot older than the index builds: the last phase of CREATE INDEX CONCURRENTLY waits for it. It
        // holds no lock on the outbox, so the online steps before (a column, a function) go through.
        auto holder = std::make_unique<DbSession>(cluster.settings(), QStringLiteral("holder"));
        holder->execScript(QStringLiteral("BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM pg_class"),
            QStringLiteral("holding a snapshot"));
        QProcess migrating;
        migrating.start(QStringLiteral(OUTBOXCTL_PATH), migrateArguments(cluster));
        QVERIFY(migrating.waitForStarted());
        const QString indexBuilds = QStringLiteral(
            " FROM pg_stat_activity WHERE query LIKE 'CREATE INDEX CONCURRENTLY%' AND pid <> pg_backend_pid()");
        const QString building = QStringLiteral("SELECT count(*)") + indexBuilds;
        QTRY_COMPARE_WITH_TIMEOUT(
            scalar(cluster, building + QStringLiteral(" AND wait_event = 'virtualxid'")), 1LL, 60'000);
        switch (cutOff) {
        case CutOff::ProcessKilled:
            migrating.kill();
            QVERIFY(migrating.waitForFinished(60'000));
            holder.reset();
            break;
        case CutOff::StatementCancelled:
            QCOMPARE(scalar(cluster, QStringLiteral("SELECT count(pg_cancel_backend(pid))") + indexBuilds), 1LL);
            QVERIFY(migrating.waitForFinished(60'000));
            QVERIFY(migrating.exitCode() != 0);
            holder.reset();
            break;
        case CutOff::ServerCrashed:
            cluster.crash();
            QVERIFY(migrating.waitForFinished(60'000));
            QVERIFY(migrating.exitCode() != 0);
            holder.reset();
            cluster.start();
            break;
        }
        QTRY_COMPARE_WITH_TIMEOUT(scalar(cluster, building), 0LL, 60'000);
        // Left behind: the column, perhaps a half-built index; the migration itself never ran.
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT max(version) FROM schema_migrations")), 25LL);
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT count(*) FROM pg_index WHERE NOT indisvalid")), invalidIndexes);

        const ProcessTesting::Run again
            = ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH), migrateArguments(cluster));
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(
            again.out.trimmed(), QByteArray("schema version ") + QByteArray::number(SchemaMigrator::latestVersion()));
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT count(*) FROM pg_index WHERE NOT indisvalid")), 0LL);
        // Both indexes of the log on the outbox and on each of its partitions.
        QCOMPARE(scalar(cluster,
                     QStringLiteral("SELECT count(*) FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid "
                                    "WHERE c.relname ~ 'outbox_lane_(id|txid)_idx$' OR c.relname IN "
                                    "  ('outbox_log_idx', 'outbox_log_txid_idx')")),
            2
                * (1
                    + scalar(cluster,
                        QStringLiteral("SELECT count(*) FROM pg_inherits "
                                       "WHERE inhparent = 'outbox'::regclass"))));
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT count(*) FROM outbox")), qint64(LogRows));
        QCOMPARE(scalar(cluster, fingerprint), before);
        // The log works: a row written now is claimed through its lane.
        const qint64 written
            = scalar(cluster, QStringLiteral("SELECT outbox_enqueue('order', 'new', 'order.created', '{}')"));
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT id FROM outbox_claim('r', 'r/w0', 10, 30000)")), written);
    }
};

QTEST_GUILESS_MAIN(TestMigrationCrash)
#include "tst_migrationcrash.moc"
