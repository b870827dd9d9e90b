// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/outboxdossier.h"
#include "operations/outboxoperator.h"
#include "operations/requeuecandidates.h"
#include "operations/requeueoutcome.h"
#include "relay/outboxleaserepository.h"
#include "support/databasetestcase.h"
#include "support/querytesting.h"

#include <QScopeGuard>
#include <QSqlQuery>
#include <QTest>

// What the console reads around a requeue: when the rows last failed (for the confirmation), where they are after it
// (the follow-up), and a row's attempts since the requeue and in total.
class TestRequeueOutcome final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestRequeueOutcome()
        : DatabaseTestCase(QStringLiteral("requeueoutcome"))
    { }

private:
    // One pass of a relay worker over every due row, through the lease protocol: each claimed row whose id is in
    // `failing` fails with `errors` (cycled), every other one is published. Returns how many rows it claimed.
    int relayPass(const QList<qint64>& failing, const QStringList& errors, int maxAttempts)
    {
        OutboxLeaseRepository lease(session());
        const QList<OutboxMessage> claimed
            = lease.claimDue(QStringLiteral("test-relay"), QStringLiteral("test-relay/w0"), 1000, 30'000).messages;
        QList<LeaseFence> published;
        QList<PublishFailure> failures;
        for (const OutboxMessage& message : claimed) {
            if (failing.contains(message.id))
                failures.append({ message.id, message.leaseToken, errors.at(failures.size() % errors.size()), 0 });
            else
                published.append({ message.id, message.leaseToken });
        }
        lease.markPublished(published);
        lease.markFailed(QStringLiteral("test-relay/w0"), failures, maxAttempts);
        return int(claimed.size());
    }

    // Sequential and index scans of `table` (of its partitions, if it has some) in the session's transaction so far
    // (pg_stat_xact_user_tables).
    std::pair<qint64, qint64> scansOf(const QString& table)
    {
        QSqlQuery& q = session().exec(
            QStringLiteral("SELECT coalesce(sum(seq_scan), 0)::bigint, coalesce(sum(idx_scan), 0)::bigint "
                           "FROM pg_stat_xact_user_tables "
                           "WHERE relid IN (SELECT relid FROM pg_partition_tree(?::regclass) WHERE isleaf)"),
            { table }, QStringLiteral("reading the scan counts"));
        q.next();
        return { q.value(0).toLongLong(), q.value(1).toLongLong() };
    }

private slots:
    void outcomeCountsEachState_data()
    {
        QTest::addColumn<QList<qint64>>("failing");
        QTest::addColumn<int>("maxAttempts");
        QTest::addColumn<qint64>("published");
        QTest::addColumn<qint64>("failed");
        QTest::addColumn<qint64>("dead");
        QTest::newRow("all published") << QList<qint64> {} << 4 << 6LL << 0LL << 0LL;
        QTest::newRow("some fail, a retry scheduled") << QList<qint64> { 2, 4, 5 } << 4 << 3LL << 3LL << 0LL;
        QTest::newRow("all fail for the last time") << QList<qint64> { 1, 2, 3, 4, 5, 6 } << 1 << 0LL << 0LL << 6LL;
    }

    void outcomeCountsEachState()
    {
        QFETCH(QList<qint64>, failing);
        QFETCH(int, maxAttempts);
        QFETCH(qint64, published);
        QFETCH(qint64, failed);
        QFETCH(qint64, dead);
        QueryTesting::addRows(db(), 6, QStringLiteral("pending"));
        const QList<qint64> ids { 1, 2, 3, 4, 5, 6 };
        const RequeueOutcome before = RequeueOutcome::read(session(), ids);
        QCOMPARE(before.pending, 6LL);
        QVERIFY(!before.settled());

        QCOMPARE(
            relayPass(failing,
                { QStringLiteral("NO_ROUTE 312 to exchange demo-events"),
                    QStringLiteral("NO_ROUTE 312 to exchange demo-events"), QStringLiteral("channel closed: 406") },
                maxAttempts),
            6);
        const RequeueOutcome after = RequeueOutcome::read(session(), ids);
        QVERIFY(after.settled());
        QCOMPARE(after.published, published);
        QCOMPARE(after.failed, failed);
        QCOMPARE(after.dead, dead);
        QCOMPARE(after.failedIds, failing);
        QCOMPARE(after.gone, 0LL);
        if (failing.isEmpty()) {
            QVERIFY(after.commonError.isEmpty());
        } else {
            // Two of every three failures are the unroutable ones; the signature drops the number.
            QCOMPARE(after.commonError, QStringLiteral("NO_ROUTE <n> to exchange demo-events"));
            QCOMPARE(after.commonErrorRows, qint64(failing.size() - failing.size() / 3));
        }
    }

    void purgedRowsAreCountedAsGone()
    {
        QueryTesting::addRows(db(), 3, QStringLiteral("published"));
        db().exec(QStringLiteral("DELETE FROM outbox WHERE id = 2"));
        const RequeueOutcome outcome = RequeueOutcome::read(session(), { 1, 2, 3 });
        QCOMPARE(outcome.published, 2LL);
        QCOMPARE(outcome.gone, 1LL);
        QVERIFY(outcome.settled());
    }

    // The follow-up reads every second for up to two minutes, the confirmation once: by the primary key and the
    // signature index, never a scan of the outbox or its history, whatever their size.
    void readsUseTheIndexes()
    {
        QueryTesting::addRows(db(), 20'000, QStringLiteral("published"));
        QueryTesting::addRows(db(), 50, QStringLiteral("dead"), QStringLiteral("last_error = 'boom'"));
        db().exec(QStringLiteral("INSERT INTO outbox_attempts (outbox_id, attempt, worker, error) "
                                 "SELECT id, 1, 'w', 'broker unavailable ' || id FROM outbox WHERE id <= 20000"));
        session().execScript(QStringLiteral("ANALYZE outbox; ANALYZE outbox_attempts"), QStringLiteral("analyze"));
        // As the console's workers plan (DatabaseWorker): each execution with its values. A generic plan, which this
        // session's earlier executions of the same statements on a handful of rows can make PostgreSQL choose,
        // does not know how many ids the array holds.
        session().planEachSearch();
        const QList<qint64> ids { 20001, 20002, 20003, 20010 };
        // In one transaction, rolled back also when a check fails (or the next test's reset would wait for its
        // locks). The scans are counted as differences: PostgreSQL 15's pg_stat_xact_* also count what the session
        // did before and has not flushed yet (it flushes at most once a second).
        session().execScript(QStringLiteral("BEGIN"), QStringLiteral("begin"));
        const auto rollback
            = qScopeGuard([this] { session().execScript(QStringLiteral("ROLLBACK"), QStringLiteral("rollback")); });
        const auto outboxBefore = scansOf(QStringLiteral("outbox"));
        const auto attemptsBefore = scansOf(QStringLiteral("outbox_attempts"));
        QCOMPARE(RequeueOutcome::read(session(), ids).dead, 4LL);
        QCOMPARE(scansOf(QStringLiteral("outbox")).first - outboxBefore.first, 0LL);
        QVERIFY(scansOf(QStringLiteral("outbox")).second > outboxBefore.second);
        const RequeueCandidates candidates = RequeueCandidates::of(session(), ids, QStringLiteral("boom"));
        QVERIFY(candidates.lastFailure.isValid());
        QCOMPARE(scansOf(QStringLiteral("outbox")).first - outboxBefore.first, 0LL);
        QCOMPARE(scansOf(QStringLiteral("outbox_attempts")).first - attemptsBefore.first, 0LL);
    }

    // The confirmation says how long ago the rows (or, for a group, their cause) last failed, on the server's clock.
    void candidatesSayWhenTheRowsLastFailed()
    {
        QueryTesting::addRows(db(), 3, QStringLiteral("pending"));
        relayPass({ 1, 2, 3 }, { QStringLiteral("connect to 10.0.0.1:5672 failed") }, 1);
        db().exec(QStringLiteral("UPDATE outbox SET updated_at = now() - interval '10 minutes' WHERE id IN (1, 2)"));
        db().exec(QStringLiteral("UPDATE outbox SET updated_at = now() - interval '5 minutes' WHERE id = 3"));
        db().exec(QStringLiteral("UPDATE outbox_attempts SET created_at = now() - interval '10 minutes'"));
        const RequeueCandidates chosen = RequeueCandidates::of(session(), { 1, 2 });
        QVERIFY2(qAbs(chosen.sinceLastFailureMs() - 600'000) < 5'000,
            qPrintable(QString::number(chosen.sinceLastFailureMs())));

        // Another row with the same cause failed just now (it is published since): the group's cause is recent.
        QueryTesting::addRow(db(), QStringLiteral("pending"));
        relayPass({ 4 }, { QStringLiteral("connect to 10.0.0.9:5672 failed") }, 4);
        OutboxFilter group;
        group.errorSignature = QStringLiteral("connect to <host> failed");
        group.statuses = { OutboxStatus::Dead };
        const RequeueCandidates ofGroup = RequeueCandidates::freeze(session(), group, 100);
        QCOMPARE(ofGroup.ids, (QList<qint64> { 1, 2, 3 }));
        QVERIFY2(ofGroup.sinceLastFailureMs() >= 0 && ofGroup.sinceLastFailureMs() < 5'000,
            qPrintable(QString::number(ofGroup.sinceLastFailureMs())));

        QueryTesting::addRow(db(), QStringLiteral("published"));
        QCOMPARE(RequeueCandidates::of(session(), { 5 }).sinceLastFailureMs(), -1LL);
    }

    // A requeue starts outbox.attempts from 0; the dossier still counts every attempt.
    void dossierCountsAttemptsSinceTheRequeueAndInTotal()
    {
        QueryTesting::addRow(db(), QStringLiteral("pending"));
        for (int attempt = 0; attempt < 4; ++attempt)
            QCOMPARE(relayPass({ 1 }, { QStringLiteral("NO_ROUTE") }, 4), 1);
        QCOMPARE(QueryTesting::statusOf(db(), 1), QStringLiteral("dead"));
        OutboxDossier dossier = OutboxDossier::load(session(), 1);
        QCOMPARE(dossier.totalAttempts(), 4);
        QVERIFY(!dossier.lastRequeuedAt().isValid());

        OutboxOperator(session()).requeue({ 1 }, QStringLiteral("routing fixed?"));
        dossier = OutboxDossier::load(session(), 1);
        QCOMPARE(dossier.detail->summary.attempts, 0);
        QCOMPARE(dossier.totalAttempts(), 4);
        QVERIFY(dossier.lastRequeuedAt().isValid());

        QCOMPARE(relayPass({ 1 }, { QStringLiteral("NO_ROUTE") }, 4), 1);
        dossier = OutboxDossier::load(session(), 1);
        QCOMPARE(dossier.detail->summary.attempts, 1);
        QCOMPARE(dossier.failedAttempts, 5);
        QCOMPARE(dossier.totalAttempts(), 5);

        // The next attempt is under way, then succeeds: one more, not on record as a failure.
        QCOMPARE(relayPass({}, {}, 4), 1);
        dossier = OutboxDossier::load(session(), 1);
        QCOMPARE(dossier.detail->summary.status, OutboxStatus::Published);
        QCOMPARE(dossier.detail->summary.attempts, 2);
        QCOMPARE(dossier.totalAttempts(), 6);
    }
};

QTEST_GUILESS_MAIN(TestRequeueOutcome)
#include "tst_requeueoutcome.moc"
