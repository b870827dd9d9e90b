// SPDX-License-Identifier: GPL-3.0-or-later
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
#include <QSet>
#include <QTest>
#include <algorithm>

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
        // 120 over the last five complete minutes.
        QCOMPARE(overview.publishedPerMinute, 24.0);
        QVERIFY(overview.duplicateHitRate);
        QCOMPARE(*overview.duplicateHitRate, 0.25);
        QCOMPARE(overview.lastHourTotals.published, 123LL);
        QCOMPARE(overview.lastHourTotals.requests, 60LL);
        QVERIFY(overview.serverNow.isValid());
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
