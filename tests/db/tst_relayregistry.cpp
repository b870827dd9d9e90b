// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/sinkspec.h"
#include "db/outboxerror.h"
#include "operations/auditrepository.h"
#include "operations/outboxoverview.h"
#include "operations/publishpauses.h"
#include "operations/relayfleet.h"
#include "operations/retentionpurger.h"
#include "relay/outboxrelay.h"
#include "relay/relayregistry.h"
#include "support/databasetestcase.h"
#include "support/httptesting.h"
#include "support/processtesting.h"
#include "support/relayprocess.h"
#include "support/runningrelay.h"
#include "support/switchablesink.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QSqlQuery>
#include <QSysInfo>
#include <QTest>
#include <atomic>
#include <mutex>
#include <optional>

// The relay registry (relay_nodes): relays register, heartbeat and sign off; the database judges which are
// alive, stale or stopped; purging removes only the gone.
class TestRelayRegistry final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestRelayRegistry()
        : DatabaseTestCase(QStringLiteral("relayregistry"))
    { }

private:
    static RelayOptions options(const QString& name)
    {
        RelayOptions options;
        options.workerName = name;
        options.workers = 2;
        options.batchSize = 20;
        options.idlePollMs = 20;
        // Stale after three missed heartbeats: 6 s, which no stall of a loaded test machine reaches, while every
        // wait below for what a heartbeat writes allows 10 s, five heartbeats. (At 100 ms a 300 ms stall under
        // ctest -j2 made a running relay stale.)
        options.registryHeartbeatMs = 2'000;
        options.sinkDescription = QStringLiteral("null");
        options.log = [](QtMsgType, const QString&) {};
        return options;
    }

    std::optional<RelayNode> node(const QString& name)
    {
        for (const RelayNode& node : RelayFleet(session()).recent()) {
            if (node.name == name)
                return node;
        }
        return std::nullopt;
    }

    void seed(int rows)
    {
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                 "SELECT 'order', g::text, 'order.created', '{}', 'reg:' || g "
                                 "FROM generate_series(1, ?::int) AS g"),
            { rows });
    }

    // A registry row as a relay on another host would have left it, last seen `secondsAgo` ago.
    void insertNode(const QString& name, int secondsAgo, bool stopped)
    {
        db().exec(QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, "
                                 "lease_ms, heartbeat_ms, started_at, last_seen, stopped_at) "
                                 "VALUES (?, 'elsewhere', 1, '0', 'null', 1, 1, 30000, 5000, "
                                 "  now() - ?::int * interval '1 second' - interval '1 hour', "
                                 "  now() - ?::int * interval '1 second', "
                                 "  CASE WHEN ?::boolean THEN now() - ?::int * interval '1 second' END)"),
            { name, secondsAgo, secondsAgo, stopped, secondsAgo });
    }

    // The registry row of `name` as one read: its last heartbeat, its state and since when it is failing.
    struct Beat {
        QString lastSeen;
        QString state;
        QString failingSince;
    };
    Beat beatOf(const QString& name)
    {
        QSqlQuery& q = session().exec(QStringLiteral("SELECT last_seen::text, relay_node_state(n), "
                                                     "coalesce(failing_since::text, '') FROM relay_nodes n "
                                                     "WHERE name = ?"),
            { name }, QStringLiteral("reading the registry"));
        if (!q.next())
            return {};
        return { q.value(0).toString(), q.value(1).toString(), q.value(2).toString() };
    }

private slots:
    void initTestCase() { setUpDatabase(); }
    void init() { db().reset(); }
    void cleanupTestCase() { tearDownDatabase(); }

    void aRelayRegistersHeartbeatsAndSignsOff()
    {
        seed(60);
        OutboxRelay relay(db().settings(), SinkSpec::parse(QStringLiteral("null")), options(QStringLiteral("reg-a")));
        RunningRelay running(relay);
        // The heartbeat carries the totals: the row catches up with the publishing.
        QTRY_VERIFY_WITH_TIMEOUT(
            node(QStringLiteral("reg-a")) && node(QStringLiteral("reg-a"))->published == 60, 10'000);
        const RelayNode alive = *node(QStringLiteral("reg-a"));
        QCOMPARE(alive.state, RelayState::Alive);
        QCOMPARE(alive.host, QSysInfo::machineHostName());
        QCOMPARE(alive.pid, QCoreApplication::applicationPid());
        QCOMPARE(alive.sink, QStringLiteral("null"));
        QCOMPARE(alive.workers, 2);
        QCOMPARE(alive.batchSize, 20);
        QCOMPARE(alive.heartbeatMs, 2'000LL);
        QVERIFY(!alive.stoppedAt.isValid());
        QVERIFY(alive.lastSeenAgeMs < 5'000);
        QVERIFY(alive.lastError.isEmpty());

        running.stop();
        const RelayNode stopped = *node(QStringLiteral("reg-a"));
        QCOMPARE(stopped.state, RelayState::Stopped);
        QVERIFY(stopped.stoppedAt.isValid());
        QCOMPARE(stopped.published, 60LL);
        QCOMPARE(stopped.id, alive.id);
    }

    // Each worker's sink says where it publishes (a broker node): the heartbeat carries the nodes of all of them, each
    // once, for the fleet view and `outboxctl relays`; a stopped relay publishes nowhere.
    void aRelaySaysWhereItPublishes()
    {
        // Worker sinks on two nodes, each node twice.
        class NodeSink final : public MessageSink {
        public:
            explicit NodeSink(QString node)
                : m_node(std::move(node))
            { }
            QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override
            {
                QList<PublishResult> results;
                for (const OutboxMessage& message : batch)
                    results.append({ message.id, true, {} });
                return results;
            }
            QString destination() const final override { return m_node; }

        private:
            QString m_node;
        };
        auto made = std::make_shared<std::atomic<int>>(0);
        const MessageSinkFactory sinks = [made] {
            return std::make_unique<NodeSink>(
                made->fetch_add(1) % 2 == 0 ? QStringLiteral("mq2:5672") : QStringLiteral("mq1:5672"));
        };
        RelayOptions relayOptions = options(QStringLiteral("reg-nodes"));
        relayOptions.workers = 4;
        OutboxRelay relay(db().settings(), sinks, relayOptions);
        RunningRelay running(relay);
        QTRY_COMPARE_WITH_TIMEOUT(
            node(QStringLiteral("reg-nodes")) ? node(QStringLiteral("reg-nodes"))->publishingTo : QString(),
            QStringLiteral("mq1:5672, mq2:5672"), 10'000);
        running.stop();
        QCOMPARE(node(QStringLiteral("reg-nodes"))->publishingTo, QString());
    }

    // With its heartbeat a relay folds the failure-group sizes' delta rows (one per failure) into one row per group
    // and status, and the sizes stay what the rows are.
    void aRelayFoldsTheFailureCounts()
    {
        for (int i = 0; i < 12; ++i) {
            db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                     "dedupe_key, status, last_error) VALUES ('order', '1', 'order.created', '{}', "
                                     "'dead:' || ?::int, 'dead', 'message size ' || ?::int || ' larger than max 9')"),
                { i, i });
        }
        const QString deltas = QStringLiteral("SELECT count(*) FROM outbox_failure_counts");
        QCOMPARE(db().scalar(deltas).toLongLong(), 12LL);
        OutboxRelay relay(db().settings(), SinkSpec::parse(QStringLiteral("null")), options(QStringLiteral("fold")));
        RunningRelay running(relay);
        QTRY_COMPARE_WITH_TIMEOUT(db().scalar(deltas).toLongLong(), 1LL, 10'000);
        QCOMPARE(db().scalar(QStringLiteral("SELECT dead FROM outbox_failure_group_sizes()")).toLongLong(), 12LL);
    }

    // The one definition of a relay's state, in SQL: three missed heartbeats make it stale, a heartbeat naming
    // only sessions that are gone from this server makes it gone, a failing streak makes it failing.
    void stateIsJudgedByTheHeartbeat_data()
    {
        QTest::addColumn<QString>("lastSeen"); // an SQL expression
        QTest::addColumn<bool>("stopped");
        QTest::addColumn<bool>("failing");
        QTest::addColumn<QString>("sessions"); // the backend_pids expression
        QTest::addColumn<QString>("state");
        const QString now = QStringLiteral("now()");
        const QString own = QStringLiteral("ARRAY[pg_backend_pid()]");
        // Pids never handed out on Linux (pid_max is at most 2^22), so no session has them.
        const QString vanished = QStringLiteral("ARRAY[2147483646, 2147483645]");
        const QString unknown = QStringLiteral("'{}'::integer[]");
        QTest::newRow("just seen") << now << false << false << own << QStringLiteral("alive");
        QTest::newRow("two missed heartbeats")
            << QStringLiteral("now() - interval '2900 ms'") << false << false << own << QStringLiteral("alive");
        QTest::newRow("three missed heartbeats")
            << QStringLiteral("now() - interval '3100 ms'") << false << false << own << QStringLiteral("stale");
        // Gone takes precedence over stale: the sessions say why the heartbeats stopped.
        QTest::newRow("gone since this server started")
            << QStringLiteral("pg_postmaster_start_time() + interval '1 millisecond'") << false << false << vanished
            << QStringLiteral("gone");
        QTest::newRow("three missed heartbeats, its sessions still open: cut off")
            << QStringLiteral("now() - interval '1 hour'") << false << false << own << QStringLiteral("stale");
        QTest::newRow("stopped just now") << now << true << false << vanished << QStringLiteral("stopped");
        QTest::newRow("stopped long ago")
            << QStringLiteral("now() - interval '1 day'") << true << false << own << QStringLiteral("stopped");
        QTest::newRow("failing") << now << false << true << own << QStringLiteral("failing");
        QTest::newRow("its sessions are gone") << now << false << false << vanished << QStringLiteral("gone");
        QTest::newRow("its sessions are gone while it was failing")
            << now << false << true << vanished << QStringLiteral("gone");
        QTest::newRow("one of its sessions is left")
            << now << false << false << QStringLiteral("ARRAY[2147483646, pg_backend_pid()]")
            << QStringLiteral("alive");
        QTest::newRow("sessions not reported (an older relay)")
            << now << false << false << unknown << QStringLiteral("alive");
        // The server hands a dead relay's pid to a later session: a session that began after the relay's last
        // heartbeat is not one of its own, and the relay stays gone (it read stale two minutes after a kill).
        QTest::newRow("its pid reused by a later session")
            << QStringLiteral("(SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()) "
                              "- interval '1 microsecond'")
            << false << false << own << QStringLiteral("gone");
    }

    void stateIsJudgedByTheHeartbeat()
    {
        QFETCH(QString, lastSeen);
        QFETCH(bool, stopped);
        QFETCH(bool, failing);
        QFETCH(QString, sessions);
        QFETCH(QString, state);
        // Judged in the statement that writes the row, by the same now(): a second statement would be judged a
        // moment later, and "two missed heartbeats" (2.9 s of 3) could turn stale in between.
        const QString judged
            = db().scalar(
                      QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, "
                                     "  lease_ms, heartbeat_ms, last_seen, stopped_at, failing_since, backend_pids) "
                                     "VALUES ('judged', 'elsewhere', 1, '0', 'null', 1, 1, 30000, 1000, %1, "
                                     "  CASE WHEN ?::boolean THEN now() END, CASE WHEN ?::boolean THEN now() END, %2) "
                                     "RETURNING relay_node_state(relay_nodes)")
                          .arg(lastSeen, sessions),
                      { stopped, failing })
                  .toString();
        QCOMPARE(judged, state);
        QVERIFY(RelayStateNames.parse(judged).has_value());
    }

    // Forget: the relays that do not run leave the registry with an audit entry of the state each was in; a running
    // one is left alone and reported, whatever the operator selected.
    void forgettingLeavesRunningRelaysAlone()
    {
        insertNode(QStringLiteral("running"), 0, false);
        insertNode(QStringLiteral("stale"), 600, false);
        insertNode(QStringLiteral("stopped"), 60, true);
        const qint64 running = node(QStringLiteral("running"))->id;
        const qint64 stale = node(QStringLiteral("stale"))->id;
        const qint64 stopped = node(QStringLiteral("stopped"))->id;
        QCOMPARE(node(QStringLiteral("running"))->state, RelayState::Alive);
        QCOMPARE(node(QStringLiteral("stale"))->state, RelayState::Stale);
        RelayFleet fleet(session());
        QVERIFY_THROWS_EXCEPTION(OutboxError, fleet.forget({ stale }, QStringLiteral("  ")));

        const OperatorActionReport report = fleet.forget({ running, stale, stopped }, QStringLiteral("old hosts"));
        QCOMPARE(report.changed, (QList<qint64> { stale, stopped }));
        QCOMPARE(report.leftAlone, QList<qint64> { running });
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(name, ',') FROM relay_nodes")).toString(),
            QStringLiteral("running"));
        const QList<AuditEntry> audit = AuditRepository(session()).page(AuditFilter {}, 10, 0);
        QCOMPARE(audit.size(), 1);
        QCOMPARE(audit.first().action, AuditAction::ForgetRelay);
        QCOMPARE(audit.first().entity, AuditEntity::Relay);
        QCOMPARE(audit.first().entityIds, (QList<qint64> { stale, stopped }));
        QCOMPARE(QString::fromUtf8(audit.first().stateBefore),
            QStringLiteral("{\"%1\": \"stale\", \"%2\": \"stopped\"}").arg(stale).arg(stopped));
        QCOMPARE(QString::fromUtf8(audit.first().stateAfter),
            QStringLiteral("{\"%1\": \"forgotten\", \"%2\": \"forgotten\"}").arg(stale).arg(stopped));
        // Forgotten already: nothing to do, and no second entry.
        QCOMPARE(fleet.forget({ stale }, QStringLiteral("again")).leftAlone, QList<qint64> { stale });
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 1);
    }

    void forgettingNeedsTheOperatorRole_data()
    {
        QTest::addColumn<QString>("groupRole");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("viewer") << QStringLiteral("outbox_viewer") << false;
        QTest::newRow("operator") << QStringLiteral("outbox_operator") << true;
    }

    void forgettingNeedsTheOperatorRole()
    {
        QFETCH(QString, groupRole);
        QFETCH(bool, allowed);
        insertNode(QStringLiteral("stopped"), 60, true);
        const QString login = QStringLiteral("tst_forget_%1_%2").arg(groupRole).arg(QCoreApplication::applicationPid());
        DbSession session(db().createLoginRole(login, groupRole), QStringLiteral("role"));
        try {
            QCOMPARE(RelayFleet(session)
                         .forget({ node(QStringLiteral("stopped"))->id }, QStringLiteral("gone"))
                         .changed.size(),
                1);
            QVERIFY2(allowed, "the viewer role could forget a relay");
        } catch (const OutboxError& error) {
            QVERIFY2(!allowed, qPrintable(error.message()));
            QCOMPARE(error.kind(), OutboxError::Kind::Permission);
            QVERIFY2(error.message().contains(QStringLiteral("may not forget relays"))
                    && error.message().contains(QStringLiteral("outbox_operator")),
                qPrintable(error.message()));
            QVERIFY(node(QStringLiteral("stopped")).has_value());
        }
    }

    // The sessions a heartbeat names are judged against this server's lifetime: after a restart every pid is new,
    // and a relay that has not heartbeat since is not taken for gone (it reconnects and heartbeats again).
    void sessionsBeforeAServerRestartProveNothing()
    {
        db().exec(QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, "
                                 "  lease_ms, heartbeat_ms, last_seen, backend_pids) "
                                 "VALUES ('before-restart', 'elsewhere', 1, '0', 'null', 1, 1, 30000, 86400000, "
                                 "  pg_postmaster_start_time() - interval '1 second', ARRAY[2147483646])"));
        QCOMPARE(node(QStringLiteral("before-restart"))->state, RelayState::Alive);
    }

    // `outboxctl relays --format json`: the state word it prints for `name`; empty if not listed.
    QString listedState(const QString& name)
    {
        const ProcessTesting::Run listed = ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("--dsn"), db().dsn(), QStringLiteral("relays"), QStringLiteral("--format"),
                QStringLiteral("json") });
        for (const QJsonValue& relay : listed.json().value(QStringLiteral("relays")).toArray()) {
            if (relay.toObject().value(QStringLiteral("name")).toString() == name)
                return relay.toObject().value(QStringLiteral("state")).toString();
        }
        return {};
    }

    // A relay counts the backlog up to the cap of the console's Overview and of orders-service, so that every
    // process shows one figure of one database: with 10,050 rows held back by a pause of the relay, its sample and
    // the Overview both say 10,000, capped (the relay counted to 100,000 before).
    void aRelaysBacklogIsCountedAsTheOverviewCountsIt()
    {
        constexpr int Waiting = OutboxOverview::CountCap + 50;
        db().exec(
            QStringLiteral("SELECT outbox_enqueue('order', g::text, 'e', '{}') FROM generate_series(1, ?::int) g"),
            { Waiting });
        PublishPauses(session()).pause(
            PauseScope::Relay, QStringLiteral("counting"), QStringLiteral("the backlog is being counted"));
        RelayOptions options = this->options(QStringLiteral("counting"));
        options.metricsFlushMs = 50;
        options.backlogSampleMs = 50;
        OutboxRelay relay(db().settings(), SinkSpec::parse(QStringLiteral("null")), options);
        RunningRelay running(relay);
        QTRY_VERIFY_WITH_TIMEOUT(relay.status().backlog.has_value(), 10'000);
        const BacklogSample sample = *relay.status().backlog;
        const OutboxOverview overview = OutboxOverview::load(session(), 60'000);
        QCOMPARE(sample.unpublished, qint64(OutboxOverview::CountCap));
        QVERIFY(sample.capped);
        QCOMPARE(overview.pending.value, sample.unpublished);
        QVERIFY(overview.pending.capped);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'pending'")).toInt(),
            Waiting);
    }

    // A relay process killed with SIGKILL closes its sessions with it: `outboxctl relays` says gone within
    // seconds, while three missed heartbeats (here 3 × 30 s) would take a minute and a half to say stale.
    void aKilledRelayIsGoneAtOnce()
    {
        RelayProcess relay(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("--dsn"), db().dsn(), QStringLiteral("relay"), QStringLiteral("--name"),
                QStringLiteral("killed"), QStringLiteral("--heartbeat-seconds"), QStringLiteral("30") });
        QTRY_COMPARE_WITH_TIMEOUT(listedState(QStringLiteral("killed")), QStringLiteral("alive"), 15'000);
        relay.kill();
        QTRY_COMPARE_WITH_TIMEOUT(listedState(QStringLiteral("killed")), QStringLiteral("gone"), 5'000);
        QCOMPARE(node(QStringLiteral("killed"))->state, RelayState::Gone);
    }

    // A relay whose every publish is refused, with one row whose next attempt is ten minutes away: heartbeats in
    // which nothing is tried prove nothing, so the relay stays failing (the alert on it must not flap), with the same
    // failing_since, in the registry, `outboxctl relays`, /metrics and /healthz alike, and says so once in its log.
    // A pause of its name shows in outbox_relay_paused.
    void aRefusedRelayStaysFailingThroughItsBackoff()
    {
        seed(1);
        RelayProcess relay(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("--dsn"), db().dsn(), QStringLiteral("relay"), QStringLiteral("--name"),
                QStringLiteral("refused"), QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--sink"),
                QStringLiteral("fault:1.0"), QStringLiteral("--heartbeat-seconds"), QStringLiteral("1"),
                QStringLiteral("--backoff-base-ms"), QStringLiteral("600000"), QStringLiteral("--backoff-max-ms"),
                QStringLiteral("600000"), QStringLiteral("--max-attempts"), QStringLiteral("5"),
                QStringLiteral("--metrics-listen"), QStringLiteral("127.0.0.1:0") });
        const QUrl endpoint = relay.metricsUrl();
        QVERIFY2(endpoint.port() > 0, relay.story().constData());
        const QUrl metrics = endpoint.resolved(QUrl(QStringLiteral("/metrics")));
        const QUrl healthz = endpoint.resolved(QUrl(QStringLiteral("/healthz")));
        QNetworkAccessManager network;
        const auto gauge
            = [&](const char* name) { return HttpTesting::sample(HttpTesting::get(network, metrics).body, name); };
        QTRY_COMPARE_WITH_TIMEOUT(listedState(QStringLiteral("refused")), QStringLiteral("failing"), 15'000);
        Beat seen = beatOf(QStringLiteral("refused"));
        const QString since = seen.failingSince;
        QVERIFY(!since.isEmpty());
        for (int beat = 0; beat < 4; ++beat) {
            QTRY_VERIFY_WITH_TIMEOUT(beatOf(QStringLiteral("refused")).lastSeen != seen.lastSeen, 10'000);
            seen = beatOf(QStringLiteral("refused"));
            QCOMPARE(seen.state, QStringLiteral("failing"));
            QCOMPARE(seen.failingSince, since);
            QCOMPARE(gauge("outbox_relay_failing"), 1.0);
            const HttpTesting::HttpReply health = HttpTesting::get(network, healthz);
            QCOMPARE(health.status, 503);
            QVERIFY2(health.body.contains("\"publishing\":\"failing\""), health.body.constData());
        }
        // The heartbeats above were silent ones: the row was tried once, and waits.
        QCOMPARE(db().scalar(QStringLiteral("SELECT attempts FROM outbox")).toInt(), 1);
        QCOMPARE(relay.count("relay refused: failing ("), 1);
        QCOMPARE(listedState(QStringLiteral("refused")), QStringLiteral("failing"));
        QCOMPARE(gauge("outbox_relay_paused"), 0.0);

        const auto control = [this](const QString& verb) {
            return ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH),
                { QStringLiteral("--dsn"), db().dsn(), verb, QStringLiteral("--relay"), QStringLiteral("refused"),
                    QStringLiteral("--reason"), QStringLiteral("the broker is being repaired") });
        };
        const ProcessTesting::Run paused = control(QStringLiteral("pause"));
        QVERIFY2(paused.exitCode == 0, paused.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(gauge("outbox_relay_paused"), 1.0, 10'000);
        QTRY_COMPARE_WITH_TIMEOUT(listedState(QStringLiteral("refused")), QStringLiteral("paused"), 10'000);
        const ProcessTesting::Run resumed = control(QStringLiteral("resume"));
        QVERIFY2(resumed.exitCode == 0, resumed.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(gauge("outbox_relay_paused"), 0.0, 10'000);
        QTRY_COMPARE_WITH_TIMEOUT(listedState(QStringLiteral("refused")), QStringLiteral("failing"), 10'000);
        QVERIFY2(relay.terminate(), relay.story().constData());
    }

    // The broker repaired: the first publish that goes through ends the streak, and the relay heartbeats at once
    // instead of at its next interval (here 20 s away), so the registry and the console's wait causes follow the
    // recovery; the end is said once in its log.
    void aRecoveredRelayHeartbeatsAtOnce()
    {
        seed(1);
        const auto refusing = std::make_shared<std::atomic<bool>>(true);
        RelayOptions options = this->options(QStringLiteral("repaired"));
        options.workers = 1;
        options.registryHeartbeatMs = 20'000;
        options.backoffBaseMs = 200;
        options.backoffMaxMs = 200;
        options.maxAttempts = 1'000;
        QStringList lines;
        std::mutex linesMutex;
        options.log = [&](QtMsgType, const QString& line) {
            std::lock_guard lock(linesMutex);
            lines.append(line);
        };
        OutboxRelay relay(
            db().settings(), [refusing] { return std::make_unique<SwitchableSink>(refusing); }, options);
        RunningRelay running(relay);
        // The first heartbeat, 20 s after the start, judges the refusals.
        QTRY_COMPARE_WITH_TIMEOUT(beatOf(QStringLiteral("repaired")).state, QStringLiteral("failing"), 40'000);
        QVERIFY(relay.status().failing);
        refusing->store(false);
        QTRY_COMPARE_WITH_TIMEOUT(
            db().scalar(QStringLiteral("SELECT status FROM outbox")).toString(), QStringLiteral("published"), 10'000);
        // Well within the 20 s to the next scheduled heartbeat.
        QTRY_COMPARE_WITH_TIMEOUT(beatOf(QStringLiteral("repaired")).state, QStringLiteral("alive"), 10'000);
        QCOMPARE(beatOf(QStringLiteral("repaired")).failingSince, QString());
        QVERIFY(!relay.status().failing);
        std::lock_guard lock(linesMutex);
        QCOMPARE(lines.filter(QStringLiteral("relay repaired: failing (")).size(), 1);
        QCOMPARE(lines.filter(QStringLiteral("relay repaired: publishing again after failing for")).size(), 1);
    }

    // A relay found gone stays gone once nothing can prove it any more: a running relay's heartbeat records it
    // (gone_at), and then neither a later session given one of its pids nor a restart of the server (its last
    // heartbeat before the server's start) turns it stale or alive again; a heartbeat of its own does.
    void aRelayFoundGoneStaysGone()
    {
        db().exec(QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, "
                                 "  lease_ms, heartbeat_ms, last_seen, backend_pids) "
                                 "VALUES ('killed', 'elsewhere', 1, '0', 'null', 1, 1, 30000, 1000, now(), "
                                 "  ARRAY[2147483646])"));
        QCOMPARE(node(QStringLiteral("killed"))->state, RelayState::Gone);
        OutboxRelay relay(db().settings(), SinkSpec::parse(QStringLiteral("null")), options(QStringLiteral("marker")));
        RunningRelay running(relay);
        QTRY_VERIFY_WITH_TIMEOUT(
            !db().scalar(QStringLiteral("SELECT gone_at FROM relay_nodes WHERE name = 'killed'")).isNull(), 10'000);
        running.stop();
        QCOMPARE(RelayRegistry(session()).markGone(), 0);

        const qint64 id = node(QStringLiteral("killed"))->id;
        db().exec(QStringLiteral("UPDATE relay_nodes SET backend_pids = ARRAY[pg_backend_pid()] WHERE id = ?"), { id });
        QCOMPARE(node(QStringLiteral("killed"))->state, RelayState::Gone);
        db().exec(QStringLiteral("UPDATE relay_nodes SET last_seen = pg_postmaster_start_time() - interval '1 second' "
                                 "WHERE id = ?"),
            { id });
        QCOMPARE(node(QStringLiteral("killed"))->state, RelayState::Gone);
        QVERIFY(RelayRegistry(session()).heartbeat(id, RelayHeartbeat {}));
        QCOMPARE(node(QStringLiteral("killed"))->state, RelayState::Alive);
    }

    // A running relay names its sessions with each heartbeat: the supervisor's, every worker's and the due
    // watch's, and those are the server processes really serving it.
    void aRelayNamesItsSessions()
    {
        OutboxRelay relay(db().settings(), SinkSpec::parse(QStringLiteral("null")), options(QStringLiteral("pids")));
        RunningRelay running(relay);
        const QString named = QStringLiteral("SELECT count(*) FROM relay_nodes n, unnest(n.backend_pids) AS p(pid) "
                                             "JOIN pg_stat_activity a ON a.pid = p.pid WHERE n.name = 'pids'");
        // Two workers, the due watch and the supervisor.
        QTRY_COMPARE_WITH_TIMEOUT(db().scalar(named).toLongLong(), 4LL, 10'000);
        QCOMPARE(node(QStringLiteral("pids"))->state, RelayState::Alive);
    }

    void purgeRemovesOnlyTheGone()
    {
        insertNode(QStringLiteral("stopped-old"), 7200, true);
        insertNode(QStringLiteral("stale-old"), 7200, false);
        insertNode(QStringLiteral("stopped-recent"), 60, true);
        insertNode(QStringLiteral("stale-recent"), 60, false);
        insertNode(QStringLiteral("alive"), 0, false);
        QCOMPARE(RetentionPurger(session(), 1).purgeGoneRelays(3'600'000), 2LL);
        QStringList left;
        for (const RelayNode& node : RelayFleet(session()).recent())
            left.append(node.name);
        QCOMPARE(left,
            (QStringList {
                QStringLiteral("alive"), QStringLiteral("stale-recent"), QStringLiteral("stopped-recent") }));
        // The newest first, and what the fleet view reads of each.
        const QList<RelayNode> nodes = RelayFleet(session()).recent();
        QCOMPARE(nodes.at(0).state, RelayState::Alive);
        QCOMPARE(nodes.at(1).state, RelayState::Stale);
        QCOMPARE(nodes.at(2).state, RelayState::Stopped);
        QCOMPARE(RelayFleet(session()).recent(1).size(), 1);
    }

    // A relay whose row was purged while it was cut off from the database (it went stale) is alive after all:
    // it registers again instead of heartbeating into nothing.
    void aPurgedLiveRelayRegistersAgain()
    {
        OutboxRelay relay(db().settings(), SinkSpec::parse(QStringLiteral("null")), options(QStringLiteral("reg-b")));
        RunningRelay running(relay);
        QTRY_VERIFY_WITH_TIMEOUT(node(QStringLiteral("reg-b")).has_value(), 10'000);
        const qint64 first = node(QStringLiteral("reg-b"))->id;
        db().exec(QStringLiteral("DELETE FROM relay_nodes"));
        QTRY_VERIFY_WITH_TIMEOUT(node(QStringLiteral("reg-b")).has_value(), 10'000);
        QVERIFY(node(QStringLiteral("reg-b"))->id > first);
        QCOMPARE(node(QStringLiteral("reg-b"))->state, RelayState::Alive);
    }

    // The registry is not optional: a relay that cannot register (here: the schema lacks relay_nodes) does not
    // start, with the reason.
    void aRelayThatCannotRegisterDoesNotStart()
    {
        const auto rename = [this](const char* from, const char* to) {
            session().execScript(
                QStringLiteral("ALTER TABLE %1 RENAME TO %2").arg(QLatin1String(from), QLatin1String(to)),
                QStringLiteral("renaming the registry"));
        };
        rename("relay_nodes", "relay_nodes_away");
        const auto restore = qScopeGuard([&] { rename("relay_nodes_away", "relay_nodes"); });
        OutboxRelay relay(db().settings(), SinkSpec::parse(QStringLiteral("null")), options(QStringLiteral("reg-c")));
        try {
            relay.run();
            QFAIL("the relay ran without its registry");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::Schema);
            QVERIFY2(error.message().contains(QStringLiteral("registering the relay")), qPrintable(error.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestRelayRegistry)
#include "tst_relayregistry.moc"
