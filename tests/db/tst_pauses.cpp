// SPDX-License-Identifier: GPL-3.0-or-later
// Pausing publication (migration 0019): a paused event type is claimed by no relay and its rows wait parked, out of
// the claim's index; a paused relay claims nothing and says so; a resume lets everything go, also when it was
// interrupted; each change is audited, guarded by the pause's state, and refused to a viewer.
#include "common/exitcode.h"
#include "db/dbsession.h"
#include "db/unitofwork.h"
#include "operations/auditrepository.h"
#include "operations/outboxoverview.h"
#include "operations/publishpauses.h"
#include "operations/relayfleet.h"
#include "relay/outboxleaserepository.h"
#include "relay/outboxrelay.h"
#include "support/databasetestcase.h"
#include "support/processtesting.h"
#include "support/recordingsink.h"
#include "support/runningrelay.h"

#include <QScopeGuard>
#include <QTest>
#include <atomic>
#include <mutex>
#include <thread>

namespace {

RelayOptions relayOptions(const QString& name, bool once)
{
    RelayOptions options;
    options.workerName = name;
    options.workers = 2;
    options.batchSize = 7; // small, so that a claim meets both types and parks in several rounds
    options.once = once;
    options.idlePollMs = 50;
    options.registryHeartbeatMs = 100;
    options.log = [](QtMsgType, const QString&) {};
    return options;
}

} // namespace

class TestPauses final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestPauses()
        : DatabaseTestCase(QStringLiteral("pauses"))
    { }

private:
    // `rows` events of `eventType`, keyed by `aggregates` orders (order:0 … order:N-1) when `aggregates` > 0.
    void enqueue(const QString& eventType, int rows, int aggregates = 0)
    {
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', (g % greatest(?::int, 1))::text, ?::text, "
                                 "  jsonb_build_object('n', g), ordered => ?::boolean) "
                                 "FROM generate_series(1, ?::int) AS g"),
            { aggregates, eventType, aggregates > 0, rows });
    }

    // Counts rows by their state as outbox_messages derives it: a row in the log (stored status NULL) is pending,
    // in flight or published by its lane's cursor (migration 0028).
    qint64 count(const QString& where)
    {
        return db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE ") + where).toLongLong();
    }

    RelayTotals drainOnce(const QString& name, const std::shared_ptr<RecordingSink::Deliveries>& deliveries)
    {
        OutboxRelay relay(
            db().settings(), [=] { return std::make_unique<RecordingSink>(deliveries); }, relayOptions(name, true));
        return relay.run();
    }

    QString relayState(const QString& name)
    {
        for (const RelayNode& node : RelayFleet(session()).recent()) {
            if (node.name == name)
                return RelayStateNames.name(node.state);
        }
        return {};
    }

private slots:
    // The acceptance test of issue 25: three relays at once, one type paused. None of its rows is published, each is
    // parked (so no later claim scans past it), the other type drains; the resume lets them go and they publish.
    void aPausedEventTypeIsClaimedByNoRelay()
    {
        enqueue(QStringLiteral("order.created"), 300);
        enqueue(QStringLiteral("order.shipped"), 200);
        PublishPauses pauses(session());
        QVERIFY(pauses.pause(PauseScope::EventType, QStringLiteral("order.shipped"), QStringLiteral("consumer down")));

        auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        qint64 published = 0;
        std::mutex totalsMutex;
        std::vector<std::thread> relays;
        for (const QString& name : { QStringLiteral("r1"), QStringLiteral("r2"), QStringLiteral("r3") }) {
            relays.emplace_back([&, name] {
                const RelayTotals totals = drainOnce(name, deliveries);
                std::lock_guard lock(totalsMutex);
                published += totals.published;
            });
        }
        for (std::thread& relay : relays)
            relay.join();

        QCOMPARE(published, 300LL);
        for (const OutboxMessage& message : deliveries->snapshot())
            QCOMPARE(message.eventType, QStringLiteral("order.created"));
        QCOMPARE(count(QStringLiteral("event_type = 'order.shipped' AND status = 'paused'")), 200LL);
        QCOMPARE(count(QStringLiteral("event_type = 'order.created' AND status <> 'published'")), 0LL);
        // Parked, never tried: no attempt was charged, and the claim's indexes no longer hold them: neither the due
        // rows' (pending, failed) nor the log's (stored status NULL, not yet published).
        QCOMPARE(count(QStringLiteral("status = 'paused' AND attempts > 0")), 0LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages "
                                            "WHERE stored_status IN ('pending', 'failed') "
                                            "  OR (stored_status IS NULL AND status <> 'published')"))
                     .toLongLong(),
            0LL);
        // The Overview says what is paused and how many rows it holds; they count in the backlog.
        const OutboxOverview overview = OutboxOverview::load(session(), 60'000);
        QCOMPARE(overview.paused.value, 200LL);
        QCOMPARE(overview.pauses.size(), 1);
        QCOMPARE(overview.pauses.first().target, QStringLiteral("order.shipped"));
        QCOMPARE(overview.pauses.first().parkedRows, 200LL);
        QCOMPARE(overview.pauses.first().pausedBy, db().scalar(QStringLiteral("SELECT session_user")).toString());
        QVERIFY(overview.oldestUnpublishedAgeMs.has_value());

        QCOMPARE(pauses.resume(PauseScope::EventType, QStringLiteral("order.shipped"), QStringLiteral("consumer back")),
            std::optional<qint64>(200));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_pauses")).toLongLong(), 0LL);
        QCOMPARE(drainOnce(QStringLiteral("r1"), deliveries).published, 200LL);
        QCOMPARE(count(QStringLiteral("status <> 'published'")), 0LL);
    }

    // The later rows of a key wait behind its paused row, whatever their own type, and follow it in order after the
    // resume.
    void aKeyWaitsBehindItsPausedRow()
    {
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', '1', 'order.created', '{}'), "
                                 "  outbox_enqueue('order', '1', 'order.shipped', '{}'), "
                                 "  outbox_enqueue('order', '1', 'order.delivered', '{}')"));
        PublishPauses pauses(session());
        pauses.pause(PauseScope::EventType, QStringLiteral("order.shipped"), QStringLiteral("hold shipments"));
        auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        QCOMPARE(drainOnce(QStringLiteral("r1"), deliveries).published, 1LL);
        QCOMPARE(count(QStringLiteral("event_type = 'order.shipped' AND status = 'paused'")), 1LL);
        QCOMPARE(count(QStringLiteral("event_type = 'order.delivered' AND status = 'waiting'")), 1LL);

        pauses.resume(PauseScope::EventType, QStringLiteral("order.shipped"), QStringLiteral("go"));
        QCOMPARE(drainOnce(QStringLiteral("r1"), deliveries).published, 2LL);
        QStringList order;
        for (const OutboxMessage& message : deliveries->snapshot())
            order.append(message.eventType);
        QCOMPARE(order,
            QStringList({ QStringLiteral("order.created"), QStringLiteral("order.shipped"),
                QStringLiteral("order.delivered") }));
    }

    // A claim that parked rows holds the pause's share lock: a resume waits for that claim's commit, so it lets go
    // of the rows the claim parked too, instead of leaving them parked under a pause that is gone.
    void aResumeWaitsForTheClaimThatParksRows()
    {
        enqueue(QStringLiteral("order.shipped"), 5);
        PublishPauses(session()).pause(PauseScope::EventType, QStringLiteral("order.shipped"), QStringLiteral("hold"));
        DbSession claimer(db().settings(), QStringLiteral("claimer"));
        std::optional<UnitOfWork> transaction(std::in_place, claimer);
        const OutboxLeaseRepository::Claim claim
            = OutboxLeaseRepository(claimer).claimDue(QStringLiteral("r1"), QStringLiteral("r1/w0"), 10, 30'000);
        QCOMPARE(claim.messages.size(), 0);
        // Parked in the claim's transaction, not yet committed.
        QSqlQuery& parked = claimer.exec(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'paused'"), {},
            QStringLiteral("counting the parked rows"));
        QVERIFY(parked.next());
        QCOMPARE(parked.value(0).toLongLong(), 5LL);

        std::optional<qint64> released;
        std::thread resume([&] {
            DbSession operatorSession(db().settings(), QStringLiteral("resumer"));
            released = PublishPauses(operatorSession)
                           .resume(PauseScope::EventType, QStringLiteral("order.shipped"), QStringLiteral("go"));
        });
        // The resume's statements are prepared (EXECUTE …): it is the one session of this database waiting for a lock.
        // On a failure the claim's transaction is rolled back first, or the resume would never return.
        auto join = qScopeGuard([&] {
            transaction.reset();
            resume.join();
        });
        QTRY_COMPARE_WITH_TIMEOUT(db().scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity "
                                                             "WHERE datname = current_database() "
                                                             "  AND wait_event_type = 'Lock'"))
                                      .toLongLong(),
            1LL, 10'000);
        transaction->commit();
        join.dismiss();
        resume.join();
        QCOMPARE(released, std::optional<qint64>(5));
        QCOMPARE(count(QStringLiteral("status = 'pending'")), 5LL);
    }

    // A resume cut off before it let every row go (its process killed) is completed by any relay's heartbeat.
    void anInterruptedResumeIsCompletedByTheRelays()
    {
        enqueue(QStringLiteral("order.shipped"), 30);
        PublishPauses(session()).pause(PauseScope::EventType, QStringLiteral("order.shipped"), QStringLiteral("hold"));
        auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        QCOMPARE(drainOnce(QStringLiteral("r1"), deliveries).published, 0LL);
        QCOMPARE(count(QStringLiteral("status = 'paused'")), 30LL);
        // What a resume leaves when it dies after its transaction and before the release.
        db().exec(QStringLiteral("UPDATE outbox_pauses SET resumed_at = now()"));

        OutboxRelay relay(
            db().settings(), [=] { return std::make_unique<RecordingSink>(deliveries); },
            relayOptions(QStringLiteral("r1"), false));
        RunningRelay running(relay);
        QTRY_COMPARE_WITH_TIMEOUT(count(QStringLiteral("status = 'published'")), 30LL, 20'000);
        QTRY_COMPARE_WITH_TIMEOUT(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox_pauses")).toLongLong(), 0LL, 10'000);
    }

    // A relay's pause and its claims take turns (migration 0030): the pause waits for the claim under way, and a
    // claim begun while the pause waits waits for it and sees it. Before, a claim that had read the pauses just
    // before the pause committed went on to claim rows written after the pause had returned.
    void aRelayPauseWaitsForTheClaimsUnderWay()
    {
        DbSession claimer(db().settings(), QStringLiteral("claimer"));
        std::optional<UnitOfWork> transaction(std::in_place, claimer);
        QCOMPARE(OutboxLeaseRepository(claimer)
                     .claimDue(QStringLiteral("eu-1"), QStringLiteral("eu-1/w0"), 10, 30'000)
                     .messages.size(),
            0);

        std::optional<PublishPause> paused;
        std::optional<OutboxLeaseRepository::Claim> later;
        std::thread pause([&] {
            DbSession operatorSession(db().settings(), QStringLiteral("pauser"));
            paused = PublishPauses(operatorSession)
                         .pause(PauseScope::Relay, QStringLiteral("eu-1"), QStringLiteral("host maintenance"));
        });
        std::thread laterClaim;
        // On a failure the claim's transaction is rolled back first, or the pause would never return.
        auto join = qScopeGuard([&] {
            transaction.reset();
            pause.join();
            if (laterClaim.joinable())
                laterClaim.join();
        });
        const auto waitingForAdvisoryLocks = [this] {
            return db()
                .scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity "
                                       "WHERE datname = current_database() AND wait_event = 'advisory'"))
                .toLongLong();
        };
        QTRY_COMPARE_WITH_TIMEOUT(waitingForAdvisoryLocks(), 1LL, 10'000);
        laterClaim = std::thread([&] {
            DbSession relaySession(db().settings(), QStringLiteral("later claim"));
            later = OutboxLeaseRepository(relaySession)
                        .claimDue(QStringLiteral("eu-1"), QStringLiteral("eu-1/w1"), 10, 30'000);
        });
        QTRY_COMPARE_WITH_TIMEOUT(waitingForAdvisoryLocks(), 2LL, 10'000);
        QVERIFY(!paused.has_value());

        transaction->commit();
        join.dismiss();
        pause.join();
        laterClaim.join();
        QVERIFY(paused.has_value());
        QVERIFY(later.has_value());
        QCOMPARE(later->messages.size(), 0);
        QVERIFY(later->relayPause.has_value());
        QCOMPARE(later->relayPause->reason, QStringLiteral("host maintenance"));

        // What is written after the pause returned waits for the resume.
        enqueue(QStringLiteral("order.created"), 3);
        QCOMPARE(OutboxLeaseRepository(session())
                     .claimDue(QStringLiteral("eu-1"), QStringLiteral("eu-1/w0"), 10, 30'000)
                     .messages.size(),
            0);
        QVERIFY(PublishPauses(session()).resume(PauseScope::Relay, QStringLiteral("eu-1"), QStringLiteral("done")));
        QVERIFY(!OutboxLeaseRepository(session())
                     .claimDue(QStringLiteral("eu-1"), QStringLiteral("eu-1/w0"), 10, 30'000)
                     .messages.isEmpty());
    }

    // A paused relay claims nothing from its next claim on, says so once in its log and in the registry ('paused'),
    // and publishes again after the resume; another relay is not affected.
    void aPausedRelayClaimsNothingUntilResumed()
    {
        std::mutex linesMutex;
        QStringList lines;
        RelayOptions options = relayOptions(QStringLiteral("eu-1"), false);
        options.log = [&](QtMsgType, const QString& line) {
            std::lock_guard lock(linesMutex);
            lines.append(line);
        };
        const auto logged = [&](const QString& text) {
            std::lock_guard lock(linesMutex);
            return int(lines.filter(text).size());
        };
        auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        OutboxRelay relay(
            db().settings(), [=] { return std::make_unique<RecordingSink>(deliveries); }, options);
        RunningRelay running(relay);
        QTRY_COMPARE_WITH_TIMEOUT(relayState(QStringLiteral("eu-1")), QStringLiteral("alive"), 10'000);

        PublishPauses pauses(session());
        QVERIFY(pauses.pause(PauseScope::Relay, QStringLiteral("eu-1"), QStringLiteral("host maintenance")));
        enqueue(QStringLiteral("order.created"), 10);
        QTRY_COMPARE_WITH_TIMEOUT(relayState(QStringLiteral("eu-1")), QStringLiteral("paused"), 10'000);
        QVERIFY(relay.status().pause.has_value());
        QCOMPARE(relay.status().pause->reason, QStringLiteral("host maintenance"));
        // Several heartbeats (each every 100 ms, its workers polling every 50 ms) while the rows are due: a relay
        // that claimed would have published them by now.
        const qint64 beats = db().scalar(QStringLiteral("SELECT epoch_ms(last_seen) FROM relay_nodes")).toLongLong();
        QTRY_VERIFY_WITH_TIMEOUT(
            db().scalar(QStringLiteral("SELECT epoch_ms(last_seen) FROM relay_nodes")).toLongLong() >= beats + 300,
            10'000);
        QCOMPARE(count(QStringLiteral("status = 'pending'")), 10LL);
        QCOMPARE(logged(QStringLiteral("paused by")), 1);

        QCOMPARE(
            pauses.resume(PauseScope::Relay, QStringLiteral("eu-1"), QStringLiteral("done")), std::optional<qint64>(0));
        QTRY_COMPARE_WITH_TIMEOUT(count(QStringLiteral("status = 'published'")), 10LL, 10'000);
        QTRY_COMPARE_WITH_TIMEOUT(relayState(QStringLiteral("eu-1")), QStringLiteral("alive"), 10'000);
        QCOMPARE(logged(QStringLiteral("resumed; claiming again")), 1);
    }

    // Pausing what is paused, or resuming what is not, changes nothing and writes no audit entry; each change
    // writes one, naming the pause, its scope and target.
    void eachChangeIsAuditedAndGuarded()
    {
        PublishPauses pauses(session());
        const std::optional<PublishPause> paused
            = pauses.pause(PauseScope::EventType, QStringLiteral("order.created"), QStringLiteral("  incident 12 "));
        QVERIFY(paused);
        QCOMPARE(paused->reason, QStringLiteral("incident 12"));
        QVERIFY(!pauses.pause(PauseScope::EventType, QStringLiteral("order.created"), QStringLiteral("again")));
        QVERIFY(!pauses.resume(PauseScope::Relay, QStringLiteral("order.created"), QStringLiteral("wrong scope")));
        QVERIFY(pauses.resume(PauseScope::EventType, QStringLiteral("order.created"), QStringLiteral("fixed")));
        QVERIFY(!pauses.resume(PauseScope::EventType, QStringLiteral("order.created"), QStringLiteral("twice")));

        const QList<AuditEntry> entries = AuditRepository(session()).page(AuditFilter {}, 10, 0);
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries.at(1).action, QStringLiteral("pause"));
        QCOMPARE(entries.at(1).entity, QStringLiteral("pause"));
        QCOMPARE(entries.at(1).entityIds, QList<qint64> { paused->id });
        QCOMPARE(entries.at(1).reason, QStringLiteral("incident 12"));
        QCOMPARE(entries.at(0).action, QStringLiteral("resume"));
        QCOMPARE(QString::fromUtf8(entries.at(0).stateAfter), QStringLiteral("{\"%1\": \"resumed\"}").arg(paused->id));
        QVERIFY2(entries.at(0).details.contains("\"target\": \"order.created\""), entries.at(0).details.constData());

        QVERIFY_THROWS_EXCEPTION(
            OutboxError, pauses.pause(PauseScope::Relay, QStringLiteral("eu-1"), QStringLiteral("   ")));
        QVERIFY_THROWS_EXCEPTION(
            OutboxError, pauses.pause(PauseScope::Relay, QStringLiteral(" "), QStringLiteral("x")));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_pauses")).toLongLong(), 0LL);
    }

    // A resume is one operator action and so one audit entry, counting every parked row it lets go however many
    // release batches move them (not the one pause it changed): the count the Overview's last actions, the Audit tab
    // and outboxctl audit show.
    void aResumeIsOneAuditEntryWithTheRowsItLetsGo_data()
    {
        QTest::addColumn<int>("parked");
        QTest::newRow("none parked") << 0;
        QTest::newRow("684 parked") << 684;
        QTest::newRow("more than one release batch") << PublishPauses::ReleaseBatch + 270;
    }

    void aResumeIsOneAuditEntryWithTheRowsItLetsGo()
    {
        QFETCH(int, parked);
        enqueue(QStringLiteral("order.shipped"), parked);
        PublishPauses pauses(session());
        QVERIFY(pauses.pause(PauseScope::EventType, QStringLiteral("order.shipped"), QStringLiteral("consumer down")));
        OutboxLeaseRepository(session()).claimDue(QStringLiteral("r1"), QStringLiteral("r1/w0"), parked + 1, 30'000);
        QCOMPARE(count(QStringLiteral("status = 'paused'")), qint64(parked));

        QCOMPARE(pauses.resume(PauseScope::EventType, QStringLiteral("order.shipped"), QStringLiteral("consumer back")),
            std::optional<qint64>(parked));
        QCOMPARE(count(QStringLiteral("status = 'pending'")), qint64(parked));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'resume'")).toLongLong(), 1LL);
        const QList<AuditEntry> recent = OutboxOverview::load(session(), 60'000).recentActions;
        QCOMPARE(recent.first().action, QStringLiteral("resume"));
        QCOMPARE(recent.first().rows, qint64(parked));
        // The Audit tab's refresh reads its entries by id.
        QCOMPARE(AuditRepository(session()).byIds({ recent.first().id }).first().rows, qint64(parked));

        const ProcessTesting::Run audit = ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("--dsn"), db().dsn(), QStringLiteral("audit"), QStringLiteral("--action=resume"),
                QStringLiteral("--format=json") });
        QCOMPARE(audit.exitCode, ExitCode::Success);
        const QJsonArray entries = audit.json().value(QStringLiteral("entries")).toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().toObject().value(QStringLiteral("rows")).toInteger(), qint64(parked));
    }

    void pausingNeedsTheOperatorRole_data()
    {
        QTest::addColumn<QString>("groupRole");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("viewer") << QStringLiteral("outbox_viewer") << false;
        QTest::newRow("operator") << QStringLiteral("outbox_operator") << true;
    }

    void pausingNeedsTheOperatorRole()
    {
        QFETCH(QString, groupRole);
        QFETCH(bool, allowed);
        enqueue(QStringLiteral("order.created"), 3);
        const QString login = QStringLiteral("tst_pause_%1_%2").arg(groupRole).arg(QCoreApplication::applicationPid());
        DbSession session(db().createLoginRole(login, groupRole), QStringLiteral("role"));
        PublishPauses pauses(session);
        try {
            QVERIFY(pauses.pause(PauseScope::EventType, QStringLiteral("order.created"), QStringLiteral("hold")));
            QVERIFY2(allowed, "the viewer role could pause");
            // The operator's resume lets the rows go too: its role may run the release.
            OutboxLeaseRepository(this->session()).claimDue(QStringLiteral("r1"), QStringLiteral("r1/w0"), 10, 30'000);
            QCOMPARE(count(QStringLiteral("status = 'paused'")), 3LL);
            QCOMPARE(pauses.resume(PauseScope::EventType, QStringLiteral("order.created"), QStringLiteral("go")),
                std::optional<qint64>(3));
        } catch (const OutboxError& error) {
            QVERIFY2(!allowed, qPrintable(error.message()));
            QCOMPARE(error.kind(), OutboxError::Kind::Permission);
            QVERIFY2(error.message().contains(QStringLiteral("may not pause event types"))
                    && error.message().contains(QStringLiteral("outbox_operator")),
                qPrintable(error.message()));
            QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_pauses")).toLongLong(), 0LL);
        }
    }

    // outboxctl pause|resume|pauses: the same actions, --dry-run changes nothing, the documented exit codes.
    void theCommandLine()
    {
        enqueue(QStringLiteral("order.created"), 2);
        const auto outboxctl = [&](const QStringList& arguments) {
            return ProcessTesting::run(
                QStringLiteral(OUTBOXCTL_PATH), QStringList { QStringLiteral("--dsn"), db().dsn() } + arguments);
        };
        const QStringList pauseType { QStringLiteral("pause"), QStringLiteral("--event-type"),
            QStringLiteral("order.created"), QStringLiteral("--reason"), QStringLiteral("consumer down") };

        ProcessTesting::Run run = outboxctl(pauseType + QStringList { QStringLiteral("--dry-run") });
        QCOMPARE(run.exitCode, ExitCode::Success);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_pauses")).toLongLong(), 0LL);
        run = outboxctl(pauseType);
        QCOMPARE(run.exitCode, ExitCode::Success);
        run = outboxctl(pauseType);
        QCOMPARE(run.exitCode, ExitCode::NotApplicable);
        QVERIFY2(run.err.contains("paused already"), run.err.constData());

        run = outboxctl({ QStringLiteral("pauses"), QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(run.exitCode, ExitCode::Success);
        const QJsonArray listed = run.json().value(QStringLiteral("pauses")).toArray();
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.first().toObject().value(QStringLiteral("target")).toString(), QStringLiteral("order.created"));

        run = outboxctl({ QStringLiteral("pause"), QStringLiteral("--relay"), QStringLiteral("nowhere"),
            QStringLiteral("--reason"), QStringLiteral("typo?") });
        QCOMPARE(run.exitCode, ExitCode::Success);
        QVERIFY2(run.err.contains("no relay named nowhere"), run.err.constData());
        run = outboxctl({ QStringLiteral("pause"), QStringLiteral("--relay"), QStringLiteral("x"),
            QStringLiteral("--event-type"), QStringLiteral("y"), QStringLiteral("--reason"), QStringLiteral("z") });
        QCOMPARE(run.exitCode, ExitCode::Usage);
        run = outboxctl({ QStringLiteral("resume"), QStringLiteral("--relay"), QStringLiteral("x"),
            QStringLiteral("--reason"), QStringLiteral("z") });
        QCOMPARE(run.exitCode, ExitCode::NotApplicable);

        run = outboxctl({ QStringLiteral("resume"), QStringLiteral("--event-type"), QStringLiteral("order.created"),
            QStringLiteral("--reason"), QStringLiteral("back") });
        QCOMPARE(run.exitCode, ExitCode::Success);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox_pauses WHERE scope = 'event_type'")).toLongLong(),
            0LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 3LL);
    }
};

QTEST_GUILESS_MAIN(TestPauses)
#include "tst_pauses.moc"
