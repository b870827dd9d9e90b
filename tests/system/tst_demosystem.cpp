// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "demo/demosystem.h"
#include "demo/privatebroker.h"
#include "outbox/outboxrepository.h"
#include "support/demotesting.h"
#include "support/processtesting.h"

#include <QDir>
#include <QDirIterator>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <unistd.h>
#include <utility>

// The one-command demo: everything starts, traffic with duplicates flows, and nothing is left behind.
class TestDemoSystem final : public QObject {
    Q_OBJECT

    static qint64 count(DbSession& session, const QString& sql, const QVariantList& binds = {})
    {
        QSqlQuery& q = session.exec(sql, binds, QStringLiteral("count"));
        return q.next() ? q.value(0).toLongLong() : -1;
    }

    // Starts `demo` and waits until its servers are up (broker() and brokerAbsence() are known from then on).
    static bool startServers(DemoSystem& demo)
    {
        QSignalSpy started(&demo, &DemoSystem::serversStarted);
        QSignalSpy failed(&demo, &DemoSystem::startFailed);
        demo.start();
        if (!QTest::qWaitFor([&] { return !started.isEmpty() || !failed.isEmpty(); }, 120'000))
            qWarning("the demo's servers did not start within 120 s");
        if (!failed.isEmpty())
            qWarning("the demo did not start: %s", qPrintable(failed.first().first().toString()));
        return !started.isEmpty();
    }

    // order.created rows the relay has published, and what the consumer applied from them. The rows' state is read
    // from outbox_messages: a row in the log (stored status NULL) is pending, in flight or published by its lane's
    // cursor (migration 0028).
    static inline const QString Published = QStringLiteral(
        "SELECT count(*) FROM outbox_messages WHERE event_type = 'order.created' AND status = 'published'");
    static inline const QString Applied
        = QStringLiteral("SELECT coalesce(sum(orders), 0) FROM customer_order_counts WHERE consumer = 'order-counts'");
    static inline const QString FailedOrDead = QStringLiteral(
        "SELECT count(*) FROM outbox WHERE event_type = 'order.created' AND status IN ('failed', 'dead')");
    static inline const QString WaitingLong
        = QStringLiteral("SELECT count(*) FROM outbox_messages WHERE event_type = 'order.created' "
                         "AND status <> 'published' AND created_at < now() - interval '5 seconds'");

    // Every order.created published by now reaches the consumer, and what it applied is what its inbox holds, once
    // each. Judged against the rows published by a moment rather than by two counts that the traffic keeps moving:
    // under load the consumer trails the relay by a message or two at almost any moment.
    static void verifyAppliedOnce(DbSession& session)
    {
        const qint64 publishedBy = count(session,
            QStringLiteral("SELECT coalesce(max(id), 0) FROM outbox_messages WHERE event_type = 'order.created' "
                           "AND status = 'published'"));
        QTRY_COMPARE_WITH_TIMEOUT(count(session,
                                      QStringLiteral("SELECT count(*) FROM outbox_messages o WHERE o.event_type = "
                                                     "'order.created' AND o.status = 'published' AND o.id <= ?::bigint "
                                                     "AND NOT EXISTS (SELECT FROM inbox i WHERE i.consumer = "
                                                     "'order-counts' AND i.message_id = o.dedupe_key)"),
                                      { publishedBy }),
            0LL, 60'000);
        QCOMPARE(
            count(session,
                QStringLiteral("SELECT (%1) - (SELECT count(*) FROM inbox i JOIN outbox o ON o.dedupe_key = "
                               "i.message_id WHERE i.consumer = 'order-counts' AND o.event_type = 'order.created')")
                    .arg(Applied)),
            0LL);
    }

    // Drained: nothing older than a few seconds waits (the traffic goes on), and applied once. A row left waiting is
    // shown with its lane, so that a failure says where it stuck.
    static void verifyDrainedAndAppliedOnce(DbSession& session)
    {
        if (!QTest::qWaitFor([&] { return count(session, WaitingLong) == 0; }, 120'000)) {
            QSqlQuery& q = session.exec(
                QStringLiteral(
                    "SELECT string_agg(format('row %s %s (stored %s, attempts %s, lease %s until %s, created "
                    "%s, next attempt %s) lane %s', m.id, m.status, m.stored_status, m.attempts, "
                    "m.lease_owner, m.lease_expires_at, m.created_at, m.next_attempt_at, "
                    "(SELECT to_jsonb(l) FROM outbox_lanes l "
                    " WHERE l.lane = outbox_lane(m.ordering_key, m.id))), E'\n') "
                    "FROM outbox_messages m WHERE m.event_type = 'order.created' "
                    "AND m.status <> 'published' AND m.created_at < now() - interval '5 seconds'"),
                {}, QStringLiteral("describing the rows left waiting"));
            QFAIL(qPrintable(QStringLiteral("rows left waiting:\n") + (q.next() ? q.value(0).toString() : QString())));
        }
        verifyAppliedOnce(session);
    }

    // A process's state ('R', 'S', … 'Z' for a zombie) and parent, from its /proc/PID/stat: "PID (NAME) STATE PPID …",
    // where NAME may hold spaces and parentheses.
    static std::pair<char, pid_t> stateOf(const QByteArray& stat)
    {
        const QList<QByteArray> rest = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        return rest.size() > 1 ? std::pair(rest.at(0).at(0), pid_t(rest.at(1).toInt())) : std::pair('?', pid_t(0));
    }

    // Whether process `pid` has ended: gone, or a zombie that the machine's init may never reap.
    static bool hasEnded(pid_t pid)
    {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        return !stat.open(QIODevice::ReadOnly) || stateOf(stat.readAll()).first == 'Z';
    }

    // SIGKILL to the process whose id is the first line of `pidFile`, as an operator's kill -9 or the OOM killer;
    // true once it has ended.
    static bool killNamedIn(const QString& pidFile)
    {
        QFile file(pidFile);
        if (!file.open(QIODevice::ReadOnly))
            return false;
        const pid_t pid = file.readLine().trimmed().toInt();
        return pid > 0 && ::kill(pid, SIGKILL) == 0 && QTest::qWaitFor([pid] { return hasEnded(pid); }, 10'000);
    }

    // The running children of this process: the programs a DemoSystem started.
    static QList<pid_t> runningChildren()
    {
        QList<pid_t> children;
        QDirIterator processes(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
        while (processes.hasNext()) {
            QFile stat(processes.next() + QStringLiteral("/stat"));
            if (!stat.open(QIODevice::ReadOnly))
                continue;
            const QByteArray fields = stat.readAll();
            const auto [state, parent] = stateOf(fields);
            if (state != 'Z' && parent == ::getpid())
                children.append(pid_t(fields.left(fields.indexOf(' ')).toInt()));
        }
        return children;
    }

    // Starts `outbox-console --demo` offscreen with `tmp` as its temporary directory: one of its own, so that a demo
    // another test runs at the same time is not mistaken for this one; the server (run as another user when the
    // test runs as root) must be able to reach it.
    static bool startConsoleDemo(QProcess& console, const QTemporaryDir& tmp)
    {
        QFile::setPermissions(tmp.path(), QFile::permissions(tmp.path()) | QFile::ExeGroup | QFile::ExeOther);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("TMPDIR"), tmp.path());
        console.setProcessEnvironment(environment);
        console.start(QStringLiteral(OUTBOX_CONSOLE_PATH), { QStringLiteral("--demo") });
        return console.waitForStarted();
    }

private slots:
    void trafficFlowsAndEverythingIsRemoved()
    {
        QString directory;
        {
            DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
            demo.setUseRabbitMq(false); // the fallback: the fault-injecting sink
            QSignalSpy ready(&demo, &DemoSystem::ready);
            QSignalSpy failed(&demo, &DemoSystem::processFailed);
            QVERIFY(startServers(demo));
            directory = demo.cluster().directory();
            QVERIFY(!ready.isEmpty() || ready.wait(20'000));
            QVERIFY(!demo.broker());
            QVERIFY(demo.components().contains(QStringLiteral("demo: rabbitmq none (%1)").arg(demo.brokerAbsence())));
            QVERIFY(demo.serviceUrl().toString().startsWith(QStringLiteral("http://127.0.0.1:")));
            DbSession session(demo.settings(), QStringLiteral("observer"));
            // Orders are created, duplicates replayed, events published, and the failing broker leaves retries.
            QTRY_VERIFY_WITH_TIMEOUT(count(session, QStringLiteral("SELECT count(*) FROM orders")) >= 20, 30'000);
            QTRY_VERIFY_WITH_TIMEOUT(
                count(session, QStringLiteral("SELECT coalesce(sum(replay_count), 0) FROM idempotency_keys")) > 0,
                30'000);
            QTRY_VERIFY_WITH_TIMEOUT(
                count(session, QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")) > 0,
                30'000);
            QTRY_VERIFY_WITH_TIMEOUT(
                count(session, QStringLiteral("SELECT count(*) FROM outbox_attempts")) > 0, 30'000);
            QCOMPARE(failed.size(), 0);
            QVERIFY(ProcessTesting::processesMentioning(directory) > 0);
        }
        QVERIFY(!QDir(directory).exists());
        QCOMPARE(ProcessTesting::processesMentioning(directory), 0);
    }

    // start() returns before the servers are up (the console's window paints meanwhile), and start and stop say each
    // step as it begins.
    void startAndStopSayEachStep()
    {
        DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        QSignalSpy stage(&demo, &DemoSystem::stage);
        QSignalSpy started(&demo, &DemoSystem::serversStarted);
        demo.start();
        // The later steps are told through the caller's event loop, which has not run yet.
        QCOMPARE(started.size(), 0);
        QCOMPARE(stage.size(), 1);
        QCOMPARE(stage.first().first().toString(), QStringLiteral("Starting PostgreSQL…"));
        QVERIFY(started.wait(120'000));
        QStringList steps;
        for (const QList<QVariant>& signal : stage)
            steps << signal.first().toString();
        QCOMPARE(steps,
            QStringList({ QStringLiteral("Starting PostgreSQL…"), QStringLiteral("Creating the schema…"),
                QStringLiteral("Starting RabbitMQ…"),
                QStringLiteral("Starting the orders service, the consumer, the relay and the traffic…") }));
        QVERIFY2(demo.broker(), qPrintable(demo.brokerAbsence()));
        QVERIFY(demo.cluster().isRunning());

        stage.clear();
        demo.stop();
        steps.clear();
        for (const QList<QVariant>& signal : stage)
            steps << signal.first().toString();
        QCOMPARE(steps,
            QStringList({ QStringLiteral("Stopping the demo's processes…"), QStringLiteral("Stopping RabbitMQ…"),
                QStringLiteral("Stopping PostgreSQL…") }));
        QVERIFY(!demo.cluster().isRunning());
        QVERIFY(!QDir(demo.cluster().directory()).exists());
    }

    // With the private RabbitMQ: order.created events reach the consumer through the broker and its inbox, the
    // cancellations no queue is bound for come back from the broker (312 NO_ROUTE) and go dead, and the operator's
    // repair is real: fixRouting() binds a queue, Retry publishes the dead rows. Nothing is left afterwards.
    void theChainRunsThroughTheBroker()
    {
        QString directories[2];
        {
            DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
            QSignalSpy ready(&demo, &DemoSystem::ready);
            QSignalSpy failed(&demo, &DemoSystem::processFailed);
            QVERIFY(startServers(demo));
            QVERIFY2(demo.broker(), qPrintable(demo.brokerAbsence()));
            directories[0] = demo.cluster().directory();
            directories[1] = demo.broker()->directory();
            QVERIFY(!ready.isEmpty() || ready.wait(30'000));
            const QStringList components = demo.components();
            QCOMPARE(components.size(), 3);
            QVERIFY2(components.at(1).startsWith(
                         QStringLiteral("demo: rabbitmq amqp://guest:guest@127.0.0.1:%1/").arg(demo.broker()->port())),
                qPrintable(components.at(1)));
            QCOMPARE(components.at(2), QStringLiteral("demo: orders-service ") + demo.serviceUrl().toString());

            DbSession session(demo.settings(), QStringLiteral("observer"));
            QTRY_VERIFY_WITH_TIMEOUT(count(session, Published) >= 10, 60'000);
            // Every published order.created was applied once by the consumer, through the inbox.
            verifyAppliedOnce(session);

            // A duplicate delivery, as a relay that died between the broker's confirm and marking the row published
            // leaves it: the row is due again, published a second time, and the consumer's inbox drops the copy. The
            // row may be in the log, published by its lane's cursor (migration 0028): it leaves the log as pending.
            QCOMPARE(count(session,
                         QStringLiteral("WITH again AS (UPDATE outbox SET status = 'pending', next_attempt_at = now(), "
                                        "  published_at = NULL WHERE id = (SELECT min(id) FROM outbox_messages "
                                        "  WHERE event_type = 'order.created' AND status = 'published') RETURNING id) "
                                        "SELECT count(*) FROM again")),
                1LL);
            QTRY_VERIFY_WITH_TIMEOUT(
                count(session, QStringLiteral("SELECT coalesce(sum(consumer_duplicates), 0) FROM metric_rollups")) >= 1,
                30'000);
            verifyAppliedOnce(session);

            const QString deadByTheBroker
                = QStringLiteral("SELECT count(*) FROM outbox WHERE event_type = 'order.cancelled' AND status = 'dead' "
                                 "AND last_error LIKE '%312 NO_ROUTE%'");
            QTRY_VERIFY_WITH_TIMEOUT(count(session, deadByTheBroker) >= 1, 60'000);

            demo.fixRouting();
            QSqlQuery& dead = session.exec(
                QStringLiteral("SELECT id FROM outbox WHERE event_type = 'order.cancelled' AND status = 'dead'"), {},
                QStringLiteral("dead rows"));
            QList<qint64> ids;
            QStringList idTexts;
            while (dead.next()) {
                ids.append(dead.value(0).toLongLong());
                idTexts.append(QString::number(ids.last()));
            }
            // The new queue must exist before the retry, or the rows would be returned again.
            QTRY_VERIFY_WITH_TIMEOUT(count(session,
                                         QStringLiteral("SELECT count(*) FROM inbox WHERE consumer = "
                                                        "'order-cancellations'"))
                    > 0,
                60'000);
            QCOMPARE(OutboxRepository(session).requeue(ids).size(), ids.size());
            QTRY_COMPARE_WITH_TIMEOUT(
                count(session,
                    QStringLiteral("SELECT count(*) FROM outbox WHERE id = ANY('{%1}'::bigint[]) AND status = "
                                   "'published'")
                        .arg(idTexts.join(QLatin1Char(',')))),
                qint64(ids.size()), 60'000);
            QCOMPARE(failed.size(), 0);
        }
        for (const QString& directory : directories) {
            QVERIFY2(!QDir(directory).exists(), qPrintable(directory));
            QCOMPARE(ProcessTesting::processesMentioning(directory), 0);
        }
    }

    // The Demo menu's broker outage: order.created rows wait (handed back, never failed) while the broker is away,
    // drain once it is back, and the consumer applies every one of them exactly once.
    void aBrokerOutageLosesNothing()
    {
        DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        QSignalSpy ready(&demo, &DemoSystem::ready);
        QSignalSpy injected(&demo, &DemoSystem::injected);
        QVERIFY(startServers(demo));
        QVERIFY2(demo.broker(), qPrintable(demo.brokerAbsence()));
        QVERIFY(!ready.isEmpty() || ready.wait(30'000));
        DbSession session(demo.settings(), QStringLiteral("observer"));
        const QString waiting = QStringLiteral(
            "SELECT count(*) FROM outbox_messages WHERE event_type = 'order.created' AND status <> 'published'");
        QTRY_VERIFY_WITH_TIMEOUT(count(session, Published) >= 5, 60'000);

        demo.stopBrokerFor(10'000);
        QTRY_VERIFY_WITH_TIMEOUT(!injected.isEmpty(), 30'000);
        QVERIFY2(injected.first().first().toString().startsWith(QStringLiteral("Broker stopped")),
            qPrintable(injected.first().first().toString()));
        QTRY_VERIFY_WITH_TIMEOUT(count(session, waiting) >= 20, 30'000); // the traffic goes on, nothing publishes
        QCOMPARE(count(session, FailedOrDead), 0LL);

        QTRY_VERIFY_WITH_TIMEOUT(injected.size() >= 2, 30'000);
        QCOMPARE(injected.at(1).first().toString(), QStringLiteral("Broker back after the outage"));
        verifyDrainedAndAppliedOnce(session);
        QCOMPARE(count(session, FailedOrDead), 0LL);
    }

    // With the consumer stopped its queue fills to the limit, and the broker refuses further publishes
    // (reject-publish: basic.nack); raising the limit, starting the consumer and retrying what went dead publishes
    // everything, each applied once.
    void aFullQueueNacksUntilTheLimitIsRaised()
    {
        DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        demo.setQueueLimit(50); // full within seconds
        QSignalSpy ready(&demo, &DemoSystem::ready);
        QVERIFY(startServers(demo));
        QVERIFY2(demo.broker(), qPrintable(demo.brokerAbsence()));
        QVERIFY(!ready.isEmpty() || ready.wait(30'000));
        DbSession session(demo.settings(), QStringLiteral("observer"));
        QTRY_VERIFY_WITH_TIMEOUT(count(session, Published) >= 5, 60'000);

        // The consumer's state is told as it changes, so the Demo menu offers only what can be done.
        QVERIFY(demo.isConsumerRunning());
        QSignalSpy consumer(&demo, &DemoSystem::consumerRunningChanged);
        demo.stopConsumer();
        QVERIFY(consumer.wait(30'000));
        QCOMPARE(consumer.first().first().toBool(), false);
        QVERIFY(!demo.isConsumerRunning());
        QTRY_VERIFY_WITH_TIMEOUT(count(session,
                                     QStringLiteral("SELECT count(*) FROM outbox WHERE event_type = 'order.created' "
                                                    "AND last_error LIKE '%basic.nack%'"))
                > 0,
            60'000);

        demo.raiseQueueLimit();
        demo.startConsumer();
        QCOMPARE(consumer.size(), 2);
        QCOMPARE(consumer.last().first().toBool(), true);
        QVERIFY(demo.isConsumerRunning());
        // Rows refused four times are dead by now: the operator retries them.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QList<qint64> dead;
                QSqlQuery& q = session.exec(QStringLiteral("SELECT id FROM outbox WHERE event_type = 'order.created' "
                                                           "AND status = 'dead'"),
                    {}, QStringLiteral("dead rows"));
                while (q.next())
                    dead.append(q.value(0).toLongLong());
                OutboxRepository(session).requeue(dead);
                return count(session, WaitingLong) == 0;
            }(),
            90'000);
        verifyDrainedAndAppliedOnce(session);
    }

    // The Demo menu's crashes: the relay killed with SIGKILL (restarted after 5 s; it takes the leases over when they
    // expire) and PostgreSQL stopped with -m immediate and started again. Every order.created is published and
    // applied once afterwards; none failed.
    void aKilledRelayAndARestartedDatabaseLoseNothing()
    {
        DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        QSignalSpy ready(&demo, &DemoSystem::ready);
        QSignalSpy injected(&demo, &DemoSystem::injected);
        QSignalSpy failed(&demo, &DemoSystem::processFailed);
        demo.start();
        QVERIFY(!ready.isEmpty() || ready.wait(90'000));
        {
            DbSession session(demo.settings(), QStringLiteral("observer"));
            QTRY_VERIFY_WITH_TIMEOUT(count(session, Published) >= 5, 60'000);
        }
        const auto said = [&](const QString& start) {
            for (const QList<QVariant>& signal : injected) {
                if (signal.first().toString().startsWith(start))
                    return true;
            }
            return false;
        };
        demo.killRelay();
        // Said as what it was, not with whatever the relay printed last, minutes before.
        QTRY_VERIFY_WITH_TIMEOUT(
            said(QStringLiteral("The relay ended (killed with SIGKILL from the Demo menu)")), 10'000);
        QTRY_VERIFY_WITH_TIMEOUT(said(QStringLiteral("Relay restarted")), 30'000);
        demo.restartDatabase();
        QTRY_VERIFY_WITH_TIMEOUT(said(QStringLiteral("PostgreSQL is back")), 60'000);

        DbSession session(demo.settings(), QStringLiteral("observer"));
        verifyDrainedAndAppliedOnce(session);
        QSqlQuery& errors
            = session.exec(QStringLiteral("SELECT string_agg(DISTINCT last_error, ' | ') FROM outbox "
                                          "WHERE event_type = 'order.created' AND status IN ('failed', 'dead')"),
                {}, QStringLiteral("errors"));
        QVERIFY(errors.next());
        QVERIFY2(errors.value(0).isNull(), qPrintable(errors.value(0).toString())); // nothing failed
        // The relay is supervised (restarted when it ends, also if the database was away while it registered);
        // nothing else may have ended.
        const QString ended = failed.isEmpty()
            ? QString()
            : failed.first().at(0).toString() + QStringLiteral(": ") + failed.first().at(1).toString();
        QVERIFY2(failed.isEmpty(), qPrintable(ended));
    }

    // Stopped at once, while the service may still be announcing its address: no client is started on the way
    // out, and nothing is left behind.
    void stoppingRightAfterStartLeavesNothing()
    {
        QString directory;
        {
            DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
            demo.start();
            directory = demo.cluster().directory();
        }
        QVERIFY(!QDir(directory).exists());
        QCOMPARE(ProcessTesting::processesMentioning(directory), 0);
    }

    // SIGTERM to `outbox-console --demo` quits it and removes the demo's processes and database.
    void consoleDemoCleansUpOnSigterm()
    {
        QTemporaryDir tmp;
        QProcess console;
        console.setProcessChannelMode(QProcess::ForwardedChannels); // a crash's last words reach the test log
        QVERIFY(startConsoleDemo(console, tmp));
        QString directory;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QStringList demos = QDir(tmp.path()).entryList({ QStringLiteral("outbox-demo-*") }, QDir::Dirs);
                directory = demos.isEmpty() ? QString() : QDir(tmp.path()).filePath(demos.first());
                return !directory.isEmpty() && ProcessTesting::processesMentioning(directory) >= 2;
            }(),
            30'000);
        ::kill(pid_t(console.processId()), SIGTERM);
        QVERIFY(console.waitForFinished(30'000));
        QCOMPARE(console.exitStatus(), QProcess::NormalExit);
        QCOMPARE(console.exitCode(), 0);
        QVERIFY(!QDir(directory).exists());
        QCOMPARE(ProcessTesting::processesMentioning(directory), 0);
        // The private RabbitMQ's directory went with it, and no process runs from it.
        QCOMPARE(QDir(tmp.path()).entryList({ QStringLiteral("outbox-broker-*") }, QDir::Dirs), QStringList());
        QCOMPARE(ProcessTesting::processesMentioning(tmp.path()), 0);
    }

    // What the operator took away first: a server stopped or killed by hand, or every process of the demo killed.
    // Whatever is already gone counts as stopped: nothing escapes stop(), nothing is warned about, and nothing the
    // demo made is left behind.
    void whatIsGoneByHandIsStopped_data()
    {
        QTest::addColumn<bool>("rabbitMq");
        QTest::addColumn<QString>("database"); // "stop": pg_ctl stop -m fast; "kill": SIGKILL to the postmaster
        QTest::addColumn<QString>("broker"); // "stop": rabbitmqctl stop; "kill": SIGKILL to the node, epmd -kill
        QTest::addColumn<bool>("children"); // SIGKILL to every program the demo started
        QTest::newRow("postgresql stopped") << false << QStringLiteral("stop") << QString() << false;
        QTest::newRow("postgresql killed") << false << QStringLiteral("kill") << QString() << false;
        QTest::newRow("rabbitmq stopped") << true << QString() << QStringLiteral("stop") << false;
        QTest::newRow("everything killed") << true << QStringLiteral("kill") << QStringLiteral("kill") << true;
    }

    void whatIsGoneByHandIsStopped()
    {
        QFETCH(bool, rabbitMq);
        QFETCH(QString, database);
        QFETCH(QString, broker);
        QFETCH(bool, children);
        QTest::failOnWarning(QRegularExpression(QStringLiteral("private (PostgreSQL|RabbitMQ)")));
        DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        demo.setUseRabbitMq(rabbitMq);
        QSignalSpy ready(&demo, &DemoSystem::ready);
        QVERIFY(startServers(demo));
        QVERIFY(!ready.isEmpty() || ready.wait(30'000)); // every program started
        const QString directory = demo.cluster().directory();
        QString brokerDirectory;
        if (rabbitMq) {
            QVERIFY2(demo.broker(), qPrintable(demo.brokerAbsence()));
            brokerDirectory = demo.broker()->directory();
        }

        if (database == QLatin1String("stop")) {
            const QString problem = DemoTesting::stopDatabaseByHand(directory);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        } else if (database == QLatin1String("kill")) {
            QVERIFY(killNamedIn(directory + QStringLiteral("/data/postmaster.pid")));
        }
        if (broker == QLatin1String("stop")) {
            // The command line the demo prints for the operator; with the pid file it returns once the node exited.
            const ProcessTesting::Run stopped = ProcessTesting::run(QStringLiteral("/bin/sh"),
                { QStringLiteral("-c"),
                    demo.broker()->controlCommand() + QStringLiteral(" stop ") + brokerDirectory
                        + QStringLiteral("/node.pid") });
            QVERIFY2(stopped.exitCode == 0, (stopped.out + stopped.err).constData());
        } else if (broker == QLatin1String("kill")) {
            QVERIFY(killNamedIn(brokerDirectory + QStringLiteral("/node.pid")));
            // The port mapper refuses while it still counts the node ("living nodes in database"): until it has seen
            // the node's connection close.
            QVERIFY(QTest::qWaitFor(
                [port = QString::number(demo.broker()->portMapperPort())] {
                    return ProcessTesting::run(QStringLiteral("/usr/bin/epmd"),
                               { QStringLiteral("-port"), port, QStringLiteral("-kill") })
                               .exitCode
                        == 0;
                },
                10'000));
        }
        if (children) {
            const QList<pid_t> programs = runningChildren();
            QVERIFY(!programs.isEmpty());
            for (const pid_t pid : programs)
                ::kill(pid, SIGKILL);
            QTRY_VERIFY_WITH_TIMEOUT(runningChildren().isEmpty(), 10'000);
        }

        try {
            demo.stop();
        } catch (const OutboxError& error) {
            QFAIL(qPrintable(QStringLiteral("stop() threw: ") + error.message()));
        }
        QVERIFY(!demo.cluster().isRunning());
        for (const QString& made : { directory, brokerDirectory }) {
            if (made.isEmpty())
                continue;
            QVERIFY2(!QDir(made).exists(), qPrintable(made));
            QCOMPARE(ProcessTesting::processesMentioning(made), 0);
        }
    }

    // The operator stopped the demo's PostgreSQL by hand, then quits `outbox-console --demo` with SIGTERM: it still
    // ends with 0, says nothing of the server it found down, and removes what the demo made.
    void consoleDemoQuitsWithItsDatabaseStoppedByHand()
    {
        QTemporaryDir tmp;
        QProcess console;
        QVERIFY(startConsoleDemo(console, tmp));
        // "demo: postgresql host='DIRECTORY' …", printed once the servers are up and the service listens.
        QString directory;
        const bool waited = QTest::qWaitFor(
            [&] {
                while (directory.isEmpty() && console.canReadLine()) {
                    const QString line = QString::fromLocal8Bit(console.readLine());
                    if (line.startsWith(QLatin1String("demo: postgresql ")))
                        directory = line.section(QLatin1Char('\''), 1, 1);
                }
                return !directory.isEmpty() || console.state() == QProcess::NotRunning;
            },
            120'000);
        QByteArray err = console.readAllStandardError();
        QVERIFY2(waited && !directory.isEmpty(), err.constData());
        QVERIFY2(directory.startsWith(tmp.path()), qPrintable(directory));

        const QString problem = DemoTesting::stopDatabaseByHand(directory);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        ::kill(pid_t(console.processId()), SIGTERM);
        QVERIFY(console.waitForFinished(60'000));
        err += console.readAllStandardError();
        QVERIFY2(console.exitStatus() == QProcess::NormalExit && console.exitCode() == 0, err.constData());
        QVERIFY2(!err.contains("private PostgreSQL"), err.constData());
        QVERIFY(!QDir(directory).exists());
        QCOMPARE(QDir(tmp.path()).entryList({ QStringLiteral("outbox-broker-*") }, QDir::Dirs), QStringList());
        QCOMPARE(ProcessTesting::processesMentioning(tmp.path()), 0);
    }

    // Two demos on one machine do not collide: each has its own servers, ports and directories, and both publish.
    void twoDemosRunSideBySide()
    {
        DemoSystem first(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        DemoSystem second(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        QSignalSpy firstReady(&first, &DemoSystem::ready);
        QSignalSpy secondReady(&second, &DemoSystem::ready);
        first.start();
        second.start();
        QVERIFY(firstReady.size() == 1 || firstReady.wait(90'000));
        QVERIFY(secondReady.size() == 1 || secondReady.wait(90'000));
        QVERIFY(first.broker()->port() != second.broker()->port());
        QVERIFY(first.broker()->nodeName() != second.broker()->nodeName());
        QVERIFY(first.cluster().directory() != second.cluster().directory());
        QVERIFY(first.serviceUrl() != second.serviceUrl());
        for (DemoSystem* demo : { &first, &second }) {
            DbSession session(demo->settings(), QStringLiteral("observer"));
            QTRY_VERIFY_WITH_TIMEOUT(
                count(session, QStringLiteral("SELECT count(*) FROM customer_order_counts")) > 0, 60'000);
        }
    }
};

QTEST_GUILESS_MAIN(TestDemoSystem)
#include "tst_demosystem.moc"
