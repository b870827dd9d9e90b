// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "db/unitofwork.h"
#include "operations/auditrepository.h"
#include "operations/outboxoperator.h"
#include "operations/outboxoverview.h"
#include "operations/sessioninfo.h"
#include "support/databasetestcase.h"
#include "support/querytesting.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSet>
#include <QTest>
#include <algorithm>
#include <thread>

using namespace QueryTesting;

// What an operator does and sees: releasing expired leases (audited, operator role only), the overview's
// counts and the session's role.
class TestOperations final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestOperations()
        : DatabaseTestCase(QStringLiteral("operations"))
    { }

private:
    QString uniqueLogin(const QString& purpose, const QString& groupRole)
    {
        return QStringLiteral("tst_ops_%1_%2_%3").arg(purpose, groupRole).arg(QCoreApplication::applicationPid());
    }

private slots:
    void operatorReleasesExpiredLeasesWithAudit()
    {
        const QString expiredLease = QStringLiteral("lease_expires_at = now() - interval '1 minute'");
        const qint64 expired = addRow(db(), QStringLiteral("in_flight"), expiredLease);
        const qint64 live = addRow(db(), QStringLiteral("in_flight"));
        const qint64 pending = addRow(db(), QStringLiteral("pending"));
        const qint64 failed = addRow(db(), QStringLiteral("failed"));
        const qint64 dead = addRow(db(), QStringLiteral("dead"));
        const qint64 published = addRow(db(), QStringLiteral("published"), QStringLiteral("published_at = now()"));
        const qint64 longExpired = addRow(db(), QStringLiteral("in_flight"),
            QStringLiteral("lease_expires_at = now() - interval '1 hour', attempts = 2"));
        const QList<qint64> all { expired, live, pending, failed, dead, published, longExpired };
        OutboxOperator op(session());

        const OperatorActionReport report = op.releaseLeases(all, QStringLiteral(" relay host lost "));
        QCOMPARE(report.changed, (QList<qint64> { expired, longExpired }));
        QCOMPARE(report.leftAlone, (QList<qint64> { live, pending, failed, dead, published }));
        QVERIFY(!report.cancelled);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE id = ANY(?::bigint[]) "
                                            "AND status = 'pending' AND lease_owner IS NULL "
                                            "AND lease_expires_at IS NULL AND next_attempt_at <= now()"),
                         { QStringLiteral("{%1,%2}").arg(expired).arg(longExpired) })
                     .toLongLong(),
            2LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT status || ' ' || lease_owner || ' ' || (lease_expires_at > now()) "
                                            "FROM outbox WHERE id = ?::bigint"),
                         { live })
                     .toString(),
            QStringLiteral("in_flight relay-1/w0 true"));
        QCOMPARE(statusOf(db(), pending), QStringLiteral("pending"));
        QCOMPARE(statusOf(db(), failed), QStringLiteral("failed"));
        QCOMPARE(statusOf(db(), dead), QStringLiteral("dead"));
        QCOMPARE(statusOf(db(), published), QStringLiteral("published"));

        AuditRepository audit(session());
        const QList<AuditEntry> entries = audit.forEntity(QStringLiteral("outbox"), expired, 10);
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().action, QStringLiteral("release lease"));
        QCOMPARE(entries.first().reason, QStringLiteral("relay host lost"));
        QCOMPARE(entries.first().actor, session().currentUser());
        QCOMPARE(entries.first().entityIds, (QList<qint64> { expired, longExpired }));
        const auto states = [&](const QString& status) {
            return QJsonObject { { QString::number(expired), status }, { QString::number(longExpired), status } };
        };
        QCOMPARE(QJsonDocument::fromJson(entries.first().stateBefore).object(), states(QStringLiteral("in_flight")));
        QCOMPARE(QJsonDocument::fromJson(entries.first().stateAfter).object(), states(QStringLiteral("pending")));
        QVERIFY(audit.forEntity(QStringLiteral("outbox"), live, 10).isEmpty());

        // Releasing again changes nothing and so audits nothing.
        const OperatorActionReport again = op.releaseLeases(all, QStringLiteral("double click"));
        QVERIFY(again.changed.isEmpty());
        QCOMPARE(again.leftAlone, all);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 1LL);

        try {
            op.releaseLeases(all, QStringLiteral("  "));
            QFAIL("released leases without a reason");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
        }
    }

    void releasingLeasesNeedsTheOperatorRole_data()
    {
        QTest::addColumn<QString>("groupRole");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("viewer") << QStringLiteral("outbox_viewer") << false;
        QTest::newRow("operator") << QStringLiteral("outbox_operator") << true;
    }

    void releasingLeasesNeedsTheOperatorRole()
    {
        QFETCH(QString, groupRole);
        QFETCH(bool, allowed);
        const qint64 id = addRow(
            db(), QStringLiteral("in_flight"), QStringLiteral("lease_expires_at = now() - interval '1 minute'"));
        const QString login = uniqueLogin(QStringLiteral("release"), groupRole);
        DbSession asRole(db().createLoginRole(login, groupRole), QStringLiteral("role"));
        try {
            const OperatorActionReport report
                = OutboxOperator(asRole).releaseLeases({ id }, QStringLiteral("as ") + groupRole);
            QVERIFY2(allowed, "the viewer role could release a lease");
            QCOMPARE(report.changed, (QList<qint64> { id }));
            QCOMPARE(db().scalar(QStringLiteral("SELECT actor FROM audit_log")).toString(), login);
        } catch (const OutboxError& error) {
            QVERIFY2(!allowed, error.what());
            QCOMPARE(error.kind(), OutboxError::Kind::Permission);
            QVERIFY2(error.message().contains(login) && error.message().contains(QStringLiteral("outbox_operator")),
                error.what());
            QCOMPARE(statusOf(db(), id), QStringLiteral("in_flight"));
            QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0LL);
        }
    }

    void overviewCountsExactlyBelowTheCap()
    {
        addRows(db(), 2, QStringLiteral("pending"));
        addRow(db(), QStringLiteral("pending"), QStringLiteral("created_at = now() - interval '90 seconds'"));
        addRow(db(), QStringLiteral("in_flight"));
        addRow(db(), QStringLiteral("in_flight"), QStringLiteral("lease_expires_at = now() - interval '1 minute'"));
        addRows(db(), 4, QStringLiteral("failed"));
        // Older than the oldest waiting row, but neither waits: they must not count towards its age.
        addRows(db(), 5, QStringLiteral("dead"), QStringLiteral("created_at = now() - interval '2 days'"));
        addRows(db(), 6, QStringLiteral("published"),
            QStringLiteral("created_at = now() - interval '1 day', published_at = now() - interval '1 day'"));
        // One transaction, so one now() for the rollups and the read: the minute in progress is still in progress
        // when the Overview reads it, whenever the test runs.
        UnitOfWork sameMinute(session());
        session().exec(
            QStringLiteral(
                "INSERT INTO metric_rollups (bucket, shard, requests, replays, published) VALUES "
                "  (date_trunc('minute', now()) - interval '1 minute', 0, 40, 10, 120), "
                // The minute in progress counts towards the hour's totals, never towards the rates.
                "  (date_trunc('minute', now()), 0, 20, 20, 3), "
                "  (date_trunc('minute', now()) - interval '2 hours', 0, 1000, 1000, 6000)"), // not this hour
            {}, QStringLiteral("seeding rollups"));
        const OutboxOverview overview = OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs);
        sameMinute.commit();
        const auto exact = [](const CappedCount& count) { return count.capped ? -1 : count.value; };
        QCOMPARE(exact(overview.pending), 3LL);
        QCOMPARE(exact(overview.inFlight), 2LL);
        QCOMPARE(exact(overview.failed), 4LL);
        QCOMPARE(exact(overview.dead), 5LL);
        QCOMPARE(exact(overview.stuck), 1LL); // the expired lease; dead rows have a tile of their own
        QVERIFY(overview.oldestUnpublishedAgeMs);
        QVERIFY2(*overview.oldestUnpublishedAgeMs >= 90'000 && *overview.oldestUnpublishedAgeMs < 120'000,
            qPrintable(QString::number(*overview.oldestUnpublishedAgeMs)));
        // 120 in the one complete minute of the last five that has data: the four before it are not zeros.
        QCOMPARE(overview.rateMinutes, 1);
        QCOMPARE(overview.publishedPerMinute, 120.0);
        QVERIFY(overview.duplicateHitRate);
        QCOMPARE(*overview.duplicateHitRate, 0.25);
        QCOMPARE(overview.lastHourTotals.published, 123LL);
        QCOMPARE(overview.lastHourTotals.requests, 60LL);
        QVERIFY(overview.serverNow.isValid());
    }

    // The rates divide by the complete minutes from the first with data on (rollups or a backlog sample) among the
    // last five: a young system's minutes before it started are not zeros. Each row names the complete minutes back
    // (1: the last complete one, 0: the one in progress) that have rollups of `published` rows and backlog samples.
    void overviewRatesCountFromTheFirstMinuteWithData_data()
    {
        QTest::addColumn<QList<int>>("rollupMinutesAgo");
        QTest::addColumn<QList<int>>("sampleMinutesAgo");
        QTest::addColumn<int>("published");
        QTest::addColumn<int>("rateMinutes");
        QTest::addColumn<double>("perMinute");
        QTest::newRow("two of five") << QList<int> { 1, 2 } << QList<int> {} << 950 << 2 << 950.0;
        QTest::newRow("all five") << QList<int> { 1, 5 } << QList<int> {} << 300 << 5 << 120.0;
        QTest::newRow("an empty minute after the first counts")
            << QList<int> { 1, 3 } << QList<int> {} << 600 << 3 << 400.0;
        QTest::newRow("a backlog sample is data") << QList<int> { 1 } << QList<int> { 3 } << 900 << 3 << 300.0;
        QTest::newRow("data before the five minutes does not count")
            << QList<int> { 1, 7 } << QList<int> {} << 100 << 1 << 100.0;
        QTest::newRow("only the minute in progress") << QList<int> { 0 } << QList<int> { 0 } << 500 << 0 << 0.0;
    }

    void overviewRatesCountFromTheFirstMinuteWithData()
    {
        QFETCH(QList<int>, rollupMinutesAgo);
        QFETCH(QList<int>, sampleMinutesAgo);
        QFETCH(int, published);
        QFETCH(int, rateMinutes);
        QFETCH(double, perMinute);
        // The seeds and the read in one minute of the database's clock: the minutes stay where the row puts them.
        QTRY_VERIFY_WITH_TIMEOUT(db().secondOfMinute() < 50, 20'000);
        for (const int minutesAgo : rollupMinutesAgo) {
            session().exec(QStringLiteral("INSERT INTO metric_rollups (bucket, shard, requests, replays, published) "
                                          "VALUES (date_trunc('minute', now()) - ?::int * interval '1 minute', 0, "
                                          "  10, 1, ?::bigint)"),
                { minutesAgo, published }, QStringLiteral("seeding rollups"));
        }
        for (const int minutesAgo : sampleMinutesAgo) {
            session().exec(QStringLiteral("INSERT INTO backlog_samples (bucket, sampled_at, pending, pending_capped, "
                                          "  oldest_pending_ms, last_pending, last_pending_capped, "
                                          "  last_oldest_pending_ms) "
                                          "SELECT b, b, 0, false, 0, 0, false, 0 "
                                          "FROM (SELECT date_trunc('minute', now()) - ?::int * interval '1 minute') "
                                          "  AS m(b)"),
                { minutesAgo }, QStringLiteral("seeding backlog samples"));
        }
        const OutboxOverview overview = OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs);
        QCOMPARE(overview.publishedPerMinute, perMinute);
        QCOMPARE(overview.rateMinutes, rateMinutes);
        // Requests in a minute of the rates give a hit rate; none there, none.
        QCOMPARE(overview.duplicateHitRate.has_value(), rateMinutes > 0);
        if (overview.duplicateHitRate)
            QCOMPARE(*overview.duplicateHitRate, 0.1);
    }

    void overviewWithoutBacklogOrTraffic()
    {
        addRows(db(), 2, QStringLiteral("published"), QStringLiteral("published_at = now()"));
        addRow(db(), QStringLiteral("dead"), QStringLiteral("created_at = now() - interval '1 day'"));
        const OutboxOverview overview = OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs);
        QCOMPARE(overview.pending.value + overview.inFlight.value + overview.failed.value, 0LL);
        QCOMPARE(overview.dead.value, 1LL);
        QCOMPARE(overview.stuck.value, 0LL);
        QVERIFY(!overview.oldestUnpublishedAgeMs);
        QCOMPARE(overview.publishedPerMinute, 0.0);
        QVERIFY(!overview.duplicateHitRate); // no requests: a rate of 0 would be a lie
    }

    // Every figure of one overview is of one moment: a row committed while the overview is being read (held here at
    // the relays' registry, after its counts) is in none of its figures, not in the list of waiting rows beside counts
    // that say nothing waits.
    void overviewFiguresAreOfOneMoment()
    {
        const std::unique_ptr<DbSession> holder = db().openSession(QStringLiteral("registry holder"));
        UnitOfWork hold(*holder);
        holder->execScript(
            QStringLiteral("LOCK TABLE relay_nodes IN ACCESS EXCLUSIVE MODE"), QStringLiteral("holding the registry"));
        OutboxOverview overview;
        QString failure;
        std::thread reader([&overview, &failure, settings = db().settings()] {
            try {
                DbSession reading(settings, QStringLiteral("overview"));
                overview = OutboxOverview::load(reading, OutboxFilter::DefaultStuckThresholdMs);
            } catch (const OutboxError& error) {
                failure = error.message();
            }
        });
        auto joined = qScopeGuard([&] {
            hold.rollback();
            reader.join();
        });
        QTRY_COMPARE_WITH_TIMEOUT(
            db().scalar(QStringLiteral("SELECT count(*) FROM pg_locks "
                                       "WHERE relation = 'relay_nodes'::regclass AND NOT granted"))
                .toInt(),
            1, 10'000);
        addRow(db(), QStringLiteral("pending"));
        hold.commit();
        reader.join();
        joined.dismiss();
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(overview.pending.value, 0LL);
        QVERIFY(!overview.oldestUnpublishedAgeMs);
        QCOMPARE(overview.oldestUnpublished.size(), 0);

        const OutboxOverview next = OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs);
        QCOMPARE(next.pending.value, 1LL);
        QCOMPARE(next.oldestUnpublished.size(), 1);
    }

    void overviewCountsStopAtTheCap_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<bool>("capped");
        QTest::newRow("one below") << OutboxOverview::CountCap - 1 << qint64(OutboxOverview::CountCap - 1) << false;
        QTest::newRow("at the cap") << OutboxOverview::CountCap << qint64(OutboxOverview::CountCap) << false;
        QTest::newRow("one above") << OutboxOverview::CountCap + 1 << qint64(OutboxOverview::CountCap) << true;
        QTest::newRow("well above") << 12'000 << qint64(OutboxOverview::CountCap) << true;
    }

    void overviewCountsStopAtTheCap()
    {
        QFETCH(int, rows);
        QFETCH(qint64, value);
        QFETCH(bool, capped);
        // Overdue, so the same rows drive the stuck count to the cap too.
        addRows(db(), rows, QStringLiteral("pending"), QStringLiteral("next_attempt_at = now() - interval '1 hour'"));
        addRows(db(), 3, QStringLiteral("failed"));
        const OutboxOverview overview = OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs);
        QCOMPARE(overview.pending.value, value);
        QCOMPARE(overview.pending.capped, capped);
        QCOMPARE(overview.stuck.value, value);
        QCOMPARE(overview.stuck.capped, capped);
        QCOMPARE(overview.failed.value, 3LL);
        QVERIFY(!overview.failed.capped);
    }

    // Past the cap the planner's statistics give an order of magnitude; below it, and for a status the statistics
    // do not know, nothing is guessed.
    void overviewEstimatesPastTheCap()
    {
        addRows(db(), 30'000, QStringLiteral("dead"));
        addRows(db(), 20'000, QStringLiteral("published"), QStringLiteral("published_at = now()"));
        addRows(db(), 5, QStringLiteral("failed"));
        session().execScript(QStringLiteral("ANALYZE outbox"), QStringLiteral("analyzing"));
        const OutboxOverview overview = OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs);
        QVERIFY(overview.dead.capped);
        QVERIFY(overview.dead.estimate.has_value());
        // ANALYZE samples 30,000 rows of this small table: all of them, so the estimate is close.
        QVERIFY2(*overview.dead.estimate > 27'000 && *overview.dead.estimate < 33'000,
            qPrintable(QString::number(*overview.dead.estimate)));
        QVERIFY(!overview.failed.capped);
        QVERIFY(!overview.failed.estimate.has_value());
        QCOMPARE(overview.failed.value, 5LL);
        QVERIFY(!overview.pending.estimate.has_value());
    }

    // The audit log, browsed: newest first, keyset pages that never overlap, narrowed by actor, action and time.
    void auditPagesFilterByActorActionAndTime()
    {
        db().exec(QStringLiteral("INSERT INTO audit_log (at, actor, action, reason, entity, entity_ids, state_before, "
                                 "  state_after) "
                                 "SELECT now() - (30 - g) * interval '1 hour', CASE WHEN g % 3 = 0 THEN 'bob' ELSE "
                                 "'alice' END, CASE WHEN g % 2 = 0 THEN 'requeue' ELSE 'release_lease' END, "
                                 "'reason ' || g, 'outbox', ARRAY[g, g + 100]::bigint[], '{}', '{}' "
                                 "FROM generate_series(1, 30) g"));
        AuditRepository audit(session());
        QList<qint64> seen;
        qint64 cursor = 0;
        for (;;) {
            const QList<AuditEntry> page = audit.page({}, 7, cursor);
            for (const AuditEntry& entry : page)
                seen.append(entry.id);
            if (page.size() < 7)
                break;
            cursor = page.last().id;
        }
        QCOMPARE(seen.size(), 30);
        QVERIFY(std::is_sorted(seen.crbegin(), seen.crend())); // newest first, no repeats
        QCOMPARE(QSet<qint64>(seen.cbegin(), seen.cend()).size(), 30);

        AuditFilter bob;
        bob.actor = QStringLiteral("bob");
        QCOMPARE(audit.page(bob, 100, 0).size(), 10);
        AuditFilter bobRequeues = bob;
        bobRequeues.action = QStringLiteral("requeue");
        const QList<AuditEntry> requeues = audit.page(bobRequeues, 100, 0);
        QCOMPARE(requeues.size(), 5); // g = 6, 12, 18, 24, 30
        QCOMPARE(requeues.first().reason, QStringLiteral("reason 30"));
        QCOMPARE(requeues.first().entityIds, (QList<qint64> { 30, 130 }));
        AuditFilter lastDay;
        lastDay.from = session().serverNow().addSecs(-24 * 3600 + 60);
        QCOMPARE(audit.page(lastDay, 100, 0).size(), 24); // g = 7 .. 30
        AuditFilter nobody;
        nobody.actor = QStringLiteral("carol");
        QVERIFY(audit.page(nobody, 100, 0).isEmpty());
        QCOMPARE(audit.byIds({ seen.at(0), seen.at(5) }).size(), 2);
    }

    // A continuation (a later batch of an action) adds its rows to its action's entry, which then counts them in the
    // lists; the database takes one only of the same actor's same action, and only of the action's own entry, and
    // otherwise writes nothing.
    void aContinuationIsOfTheSameActorsSameAction_data()
    {
        QTest::addColumn<bool>("otherActor");
        QTest::addColumn<QString>("action");
        QTest::addColumn<bool>("ofContinuation");
        QTest::addColumn<bool>("taken");
        QTest::newRow("the same actor's same action") << false << QStringLiteral("requeue") << false << true;
        QTest::newRow("another actor's action") << true << QStringLiteral("requeue") << false << false;
        QTest::newRow("another action") << false << QStringLiteral("discard") << false << false;
        QTest::newRow("a continuation") << false << QStringLiteral("requeue") << true << false;
    }

    void aContinuationIsOfTheSameActorsSameAction()
    {
        QFETCH(bool, otherActor);
        QFETCH(QString, action);
        QFETCH(bool, ofContinuation);
        QFETCH(bool, taken);
        const auto requeued = [](const QList<qint64>& ids) {
            QList<AuditedChange> changes;
            for (const qint64 id : ids)
                changes.append({ id, QStringLiteral("dead"), QStringLiteral("pending") });
            return changes;
        };
        AuditRepository audit(session());
        const std::optional<qint64> entry = audit.record(
            QStringLiteral("requeue"), QStringLiteral("after the fix"), AuditEntity::Outbox, requeued({ 1, 2 }));
        QVERIFY(entry);
        const std::optional<qint64> continuation = audit.record(QStringLiteral("requeue"),
            QStringLiteral("after the fix"), AuditEntity::Outbox, requeued({ 3 }), {}, AuditCount { *entry, {} });
        QVERIFY(continuation);
        QCOMPARE(audit.byIds({ *entry }).first().rows, 3LL);

        std::optional<DbSession> other;
        if (otherActor) {
            other.emplace(
                db().createLoginRole(uniqueLogin(QStringLiteral("continue"), QStringLiteral("outbox_operator")),
                    QStringLiteral("outbox_operator")),
                QStringLiteral("other operator"));
        }
        try {
            AuditRepository(otherActor ? *other : session())
                .record(action, QStringLiteral("after the fix"), AuditEntity::Outbox, requeued({ 4, 5 }), {},
                    AuditCount { ofContinuation ? *continuation : *entry, {} });
            QVERIFY2(taken, "the continuation was taken");
        } catch (const OutboxError& error) {
            QVERIFY2(!taken, error.what());
            QCOMPARE(error.sqlState(), QStringLiteral("23514")); // check_violation
        }
        QCOMPARE(audit.byIds({ *entry }).first().rows, taken ? 5LL : 3LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), taken ? 3LL : 2LL);
        const QList<AuditEntry> listed = audit.page({}, 10, 0);
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.first().id, *entry);
    }

    void sessionInfoReflectsTheRole_data()
    {
        QTest::addColumn<QString>("groupRole"); // empty: the fixture's own (superuser) session
        QTest::addColumn<bool>("mayChange");
        QTest::newRow("fixture superuser") << QString() << true;
        QTest::newRow("viewer") << QStringLiteral("outbox_viewer") << false;
        QTest::newRow("operator") << QStringLiteral("outbox_operator") << true;
    }

    void sessionInfoReflectsTheRole()
    {
        QFETCH(QString, groupRole);
        QFETCH(bool, mayChange);
        std::unique_ptr<DbSession> roleSession;
        if (!groupRole.isEmpty()) {
            roleSession = std::make_unique<DbSession>(
                db().createLoginRole(uniqueLogin(QStringLiteral("session"), groupRole), groupRole),
                QStringLiteral("role"));
        }
        DbSession& checked = roleSession ? *roleSession : session();

        const SessionInfo info = SessionInfo::read(checked);
        QCOMPARE(info.user, checked.currentUser());
        QCOMPARE(info.database, db().name());
        QCOMPARE(info.schemaVersion, SchemaMigrator::latestVersion());
        QVERIFY(!info.server.isEmpty());
        QVERIFY(!info.serverVersion.isEmpty());
        QCOMPARE(info.mayChangeOutbox, mayChange);
        QCOMPARE(info.roleDescription(), mayChange ? QStringLiteral("operator") : QStringLiteral("read-only"));
        if (mayChange) {
            QVERIFY(info.readOnlyReason().isEmpty());
        } else {
            QVERIFY2(info.readOnlyReason().contains(info.user)
                    && info.readOnlyReason().contains(QStringLiteral("outbox_operator")),
                qPrintable(info.readOnlyReason()));
        }
    }
};

QTEST_GUILESS_MAIN(TestOperations)
#include "tst_operations.moc"
