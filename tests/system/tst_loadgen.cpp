// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/databasetestcase.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

// The load generator's summary agrees with what the database and the rollups recorded.
class TestLoadgen final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestLoadgen()
        : DatabaseTestCase(QStringLiteral("loadgen"))
    { }

private:
    qint64 scalar(const QString& sql) { return db().scalar(sql).toLongLong(); }

private slots:
    void summaryMatchesTheDatabase()
    {
        QProcess service;
        service.start(QStringLiteral(ORDERS_SERVICE_PATH),
            { QStringLiteral("--dsn"), db().dsn(), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0") });
        QVERIFY(service.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(service.canReadLine(), 10'000);
        const QString listening = QString::fromLocal8Bit(service.readLine()).trimmed();
        QVERIFY2(listening.startsWith(QStringLiteral("listening on http://")), qPrintable(listening));

        QProcess loadgen;
        loadgen.start(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("loadgen"), QStringLiteral("--url"), listening.mid(13), QStringLiteral("--orders"),
                QStringLiteral("150"), QStringLiteral("--rate"), QStringLiteral("300"), QStringLiteral("--duplicates"),
                QStringLiteral("0.4"), QStringLiteral("--mismatches"), QStringLiteral("0.1"), QStringLiteral("--seed"),
                QStringLiteral("7"), QStringLiteral("--timeout-ms"), QStringLiteral("10000") });
        QVERIFY(loadgen.waitForFinished(60'000));
        QCOMPARE(loadgen.exitCode(), 0);
        const QJsonObject summary = QJsonDocument::fromJson(loadgen.readAllStandardOutput()).object();
        QVERIFY2(!summary.isEmpty(), loadgen.readAllStandardError().constData());

        const qint64 created = summary.value(QStringLiteral("created")).toInteger();
        const qint64 replayed = summary.value(QStringLiteral("replayed")).toInteger();
        const qint64 inProgress = summary.value(QStringLiteral("in_progress")).toInteger();
        const qint64 mismatched = summary.value(QStringLiteral("mismatched")).toInteger();
        QCOMPARE(summary.value(QStringLiteral("timeouts")).toInteger(), 0);
        QCOMPARE(summary.value(QStringLiteral("errors")).toInteger(), 0);
        QCOMPARE(summary.value(QStringLiteral("rejected")).toInteger(), 0);
        // Every new key was created exactly once; duplicates were replays or 409s, never second orders.
        QCOMPARE(created, 150LL);
        QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM orders")), created);
        QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM outbox")), created);
        // The service folds the replays into the keys' counts about once a second.
        QTRY_COMPARE_WITH_TIMEOUT(
            scalar(QStringLiteral("SELECT coalesce(sum(replay_count), 0) FROM idempotency_keys")), replayed, 10'000);
        QVERIFY(replayed + inProgress > 0);
        QVERIFY(mismatched > 0);
        // The service flushes its counters about once a second; the rollups then say the same.
        const qint64 answered = created + replayed + inProgress + mismatched;
        QTRY_COMPARE_WITH_TIMEOUT(
            scalar(QStringLiteral("SELECT coalesce(sum(requests), 0) FROM metric_rollups")), answered, 10'000);
        QCOMPARE(scalar(QStringLiteral("SELECT sum(replays) FROM metric_rollups")), replayed);
        QCOMPARE(scalar(QStringLiteral("SELECT sum(mismatches) FROM metric_rollups")), mismatched);
        QCOMPARE(scalar(QStringLiteral("SELECT sum(in_progress_rejections) FROM metric_rollups")), inProgress);

        service.terminate();
        QVERIFY(service.waitForFinished(10'000));
    }
};

QTEST_GUILESS_MAIN(TestLoadgen)
#include "support/databasetestcase.h"
#include "tst_loadgen.moc"
