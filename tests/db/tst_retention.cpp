// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/retentionpurger.h"
#include "support/databasetestcase.h"

#include <QTest>

class TestRetention final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestRetention()
        : DatabaseTestCase(QStringLiteral("retention"))
    { }

private:
    qint64 count(const QString& sql) { return db().scalar(sql).toLongLong(); }

private slots:
    void expiredKeysGo_data()
    {
        QTest::addColumn<int>("batchSize");
        QTest::newRow("default batches") << RetentionPurger::DefaultBatchSize;
        QTest::newRow("tiny batches") << 7;
    }

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

    void oldPublishedRowsGoWithTheirHistory()
    {
        const QString insert = QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, attempts, "
            "published_at) "
            "SELECT 'order', g::text, 'e', '{}', gen_random_uuid()::text, ?::text, 2, "
            "  CASE WHEN ?::text = 'published' THEN now() - ?::interval END FROM generate_series(1, ?::int) g");
        db().exec(insert, { QStringLiteral("published"), QStringLiteral("published"), QStringLiteral("2 days"), 1500 });
        db().exec(insert, { QStringLiteral("published"), QStringLiteral("published"), QStringLiteral("1 hour"), 5 });
        db().exec(insert, { QStringLiteral("dead"), QStringLiteral("dead"), QStringLiteral("0 s"), 3 });
        db().exec(QStringLiteral("UPDATE outbox SET created_at = now() - interval '30 days'"));
        db().exec(QStringLiteral("INSERT INTO outbox_attempts (outbox_id, attempt, worker, error) "
                                 "SELECT id, 1, 'w', 'boom' FROM outbox"));

        QCOMPARE(RetentionPurger(session()).purgePublishedOutbox(24LL * 3600 * 1000), 1500LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'published'")), 5LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'dead'")), 3LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_attempts")), 8LL);
    }
};

QTEST_GUILESS_MAIN(TestRetention)
#include "tst_retention.moc"
