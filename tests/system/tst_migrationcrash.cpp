// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "support/databaseprobe.h"
#include "support/processtesting.h"

#include <QProcess>
#include <QTest>

// Migration 0021 (the partitioned outbox) on a populated outbox, cut off midway: its process killed with SIGKILL,
// or the server stopped with `pg_ctl stop -m immediate`, while the migration's transaction waits for a writer's
// lock, after its online steps. Run again, it completes; no row is lost, none changes. A private cluster each,
// since the shared test cluster cannot be stopped under the other tests.
class TestMigrationCrash final : public QObject {
    Q_OBJECT

    static constexpr qint64 MigrationLockId = 0x6f7574626f78; // SchemaMigrator's
    static constexpr int Rows = 200'000;

    static qint64 scalar(const PrivateCluster& cluster, const QString& sql)
    {
        return DatabaseProbe::scalar(cluster.settings(), sql);
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
        {
            DbSession seed(cluster.settings(), QStringLiteral("seed"));
            QCOMPARE(SchemaMigrator(seed).migrate(20), 20);
            seed.execScript(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                           "  dedupe_key, status, published_at) "
                                           "SELECT 'order', g::text, 'order.created', jsonb_build_object('n', g), "
                                           "  'order.created:' || g, 'published', now() "
                                           "FROM generate_series(1, %1) g")
                                .arg(Rows),
                QStringLiteral("seeding the outbox"));
        }
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
};

QTEST_GUILESS_MAIN(TestMigrationCrash)
#include "tst_migrationcrash.moc"
