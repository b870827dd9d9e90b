// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/connectionbanner.h"
#include "db/dbsession.h"
#include "i18n/consolelanguage.h"
#include "messages/messagelog.h"
#include "overview/overviewpage.h"
#include "overview/relayfleetmodel.h"
#include "support/consoletesting.h"
#include "support/guitesting.h"
#include "support/namespacenetwork.h"
#include "support/patronicluster.h"
#include "support/relayprocess.h"

#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QScopeGuard>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <memory>

// The service, the relay and the console on a real HA cluster (support/patronicluster.h: etcd and three Patroni
// members, synchronous mode, each member on a host of its own network namespace), through the multi-host DSN with
// target_session_attrs=read-write, under a steady load of orders with duplicates. Three ways a leader goes, in turn:
// SIGKILL (the machine died), a planned `patronictl switchover`, and its link cut without a reset (packets vanish;
// neither the clients nor the server learn it from the network). Each time: every order the service acknowledged
// is on the new leader, the service and the relay serve again within the bound docs/pooling-and-ha.md gives,
// without a restart, and say so once in their logs (or, where the docs say so, not at all); the console says it
// lost the database, then that it is on another server now. At the end every outbox row was published, and the rows
// published twice are bounded by the batches in flight at the faults. The former leader rejoins as a standby after each
// (Patroni rewinds it).
class TestHaCluster final : public QObject {
    Q_OBJECT

    static constexpr int Members = 3;
    static constexpr int Workers = 2;
    static constexpr int BatchSize = 20;
    static constexpr int Faults = 4; // three above, and the Korean console's switchover
    // The documented bounds (docs/pooling-and-ha.md), from the fault to the first order the service acknowledges
    // again and the first row the relay publishes from the new leader. A lost leader (killed or cut off) is
    // replaced once its leader key expires (Patroni's TTL, 10 s here) and a standby's next loop takes it; the
    // clients' sessions to a cut leader end by their TCP user timeout (db/peerliveness.h); a new session pays
    // connect_timeout (2 s) for each member it cannot reach before it finds the new leader.
    static constexpr qint64 LostLeaderBoundMs = 30'000;
    static constexpr qint64 SwitchoverBoundMs = 15'000;

    enum class Fault { Kill, Switchover, Cut };

    struct Answer {
        qint64 atMs = 0;
        QString key;
        int status = 0;
        bool replayed = false;
    };

    // A file another process appends lines to, read as it grows: each call reads only what is new (the test
    // polls it every few milliseconds while it measures a failover, on two cores).
    class GrowingFile final {
    public:
        explicit GrowingFile(QString path)
            : m_file(std::move(path))
        { }
        // The whole lines added since the last call.
        QList<QByteArray> newLines()
        {
            if (!m_file.isOpen() && !m_file.open(QIODevice::ReadOnly))
                return {};
            m_partial += m_file.readAll();
            const qsizetype end = m_partial.lastIndexOf('\n');
            if (end < 0)
                return {};
            QList<QByteArray> lines = m_partial.left(end).split('\n');
            m_partial.remove(0, end + 1);
            return lines;
        }

    private:
        QFile m_file;
        QByteArray m_partial; // a line being written
    };

    // What the load generator has been answered so far.
    const QList<Answer>& answers()
    {
        for (const QByteArray& text : m_answerFile->newLines()) {
            const QJsonObject line = QJsonDocument::fromJson(text).object();
            m_answerList.append(
                { line.value(QStringLiteral("at_ms")).toInteger(), line.value(QStringLiteral("key")).toString(),
                    line.value(QStringLiteral("status")).toInt(), line.value(QStringLiteral("replayed")).toBool() });
        }
        return m_answerList;
    }
    // The earliest order created (not replayed) from `sinceMs` on; -1 if none yet.
    qint64 firstCreatedSince(qint64 sinceMs)
    {
        for (const Answer& answer : answers()) {
            if (answer.atMs >= sinceMs && answer.status == 201 && !answer.replayed)
                return answer.atMs;
        }
        return -1;
    }
    // Rows the relay has published so far, repeats included.
    qint64 sinkLines()
    {
        m_sinkLines += m_sinkFile->newLines().size();
        return m_sinkLines;
    }

    // A session on whichever member takes writes now.
    std::unique_ptr<DbSession> leaderSession() const
    {
        return std::make_unique<DbSession>(ConnectionSettings::fromDsn(m_cluster->dsn()), QStringLiteral("ha-probe"));
    }
    static qint64 scalar(DbSession& session, const QString& sql, const QVariantList& binds = {})
    {
        QSqlQuery& q = session.exec(sql, binds, QStringLiteral("probing"));
        return q.next() ? q.value(0).toLongLong() : -1;
    }

    // Every order the service acknowledged (201, first or replayed) before `untilMs`, missing from the leader.
    QStringList acknowledgedButMissing(qint64 untilMs)
    {
        QStringList keys;
        for (const Answer& answer : answers()) {
            if (answer.status == 201 && answer.atMs < untilMs)
                keys.append(answer.key);
        }
        keys.removeDuplicates();
        const auto session = leaderSession();
        QSqlQuery& q
            = session->exec(QStringLiteral("SELECT k FROM unnest(?::text[]) k WHERE NOT EXISTS ("
                                           "  SELECT FROM idempotency_keys i JOIN orders o ON o.id = i.order_id "
                                           "  WHERE i.idem_key = k AND i.status = 'completed')"),
                { QStringLiteral("{%1}").arg(keys.join(QLatin1Char(','))) }, QStringLiteral("looking for the orders"));
        QStringList missing;
        while (q.next())
            missing.append(q.value(0).toString());
        if (keys.isEmpty())
            missing.append(QStringLiteral("(no order was acknowledged at all)"));
        return missing;
    }

    // The Overview shows what it read after `since`, rather than figures it marks as old.
    static bool showsFiguresReadSince(const OverviewPage& overview, const QDateTime& since)
    {
        return !overview.showsStaleFigures() && overview.readAt() > since;
    }

    // What a process said of the database (its whole story is longer than a failure message may be).
    static QByteArray databaseLines(RelayProcess& process)
    {
        QByteArrayList lines;
        for (const QByteArray& line : process.log().split('\n')) {
            if (line.contains("database"))
                lines.append(line);
        }
        return lines.join('\n');
    }

    // Whether `banner` comes to say, in `words`, that the console is on `server` now.
    static bool waitForServerChange(
        const ConnectionBanner& banner, const QString& words, const QString& server, qint64 timeoutMs)
    {
        return QTest::qWaitFor(
            [&] { return banner.isVisible() && banner.text().contains(words) && banner.text().contains(server); },
            int(timeoutMs));
    }

    void survive(Fault fault, const char* what, qint64 boundMs)
    {
        // Whole again after the fault before (even one whose test failed half way).
        QCOMPARE(m_cluster->waitUntilHealthy(180'000), QString());
        const int former = m_cluster->leader();
        QVERIFY(former != 0);
        const int standby = m_cluster->synchronousStandby();
        QVERIFY(standby != 0 && standby != former);
        QVERIFY2(firstCreatedSince(QDateTime::currentMSecsSinceEpoch() - 5'000) >= 0,
            "the service acknowledged no order in the last 5 s before the fault");
        const int relayOutages = m_relay->count("database unavailable: ");
        const int serviceOutages = m_service->count("database unavailable: ");
        ConnectionBanner& banner = *m_console->banner();

        const qint64 faultAt = QDateTime::currentMSecsSinceEpoch();
        switch (fault) {
        case Fault::Kill:
            m_cluster->kill(former);
            break;
        case Fault::Switchover: {
            const ProcessTesting::Run switched = m_cluster->switchover(former, standby);
            QVERIFY2(switched.exitCode == 0, switched.out + switched.err);
            break;
        }
        case Fault::Cut:
            QVERIFY2(m_network->cut(former), qPrintable(m_network->problem()));
            break;
        }
        // The former leader back, even if a check below fails, so that the next fault finds three members.
        auto restore = qScopeGuard([&] {
            if (fault == Fault::Kill)
                m_cluster->startMember(former);
            if (fault == Fault::Cut)
                m_network->restore(former);
        });

        // The console notices: its banner says the connection is lost (or the server unreachable), in place of what
        // it said after the last fault, and its Overview marks its figures as of the last read, rather than showing
        // them as current. Not for a switchover: over in two seconds, the console's loss and its reconnect may come
        // in one turn of its event loop (while patronictl ran, here), and only the Messages panel keeps the loss.
        OverviewPage& overview = *m_console->overview();
        if (fault != Fault::Switchover) {
            QVERIFY2(QTest::qWaitFor(
                         [&] {
                             return banner.isVisible()
                                 && (banner.text().contains(QLatin1String("Connection to the database lost"))
                                     || banner.text().contains(QLatin1String("unreachable")));
                         },
                         int(boundMs)),
                qPrintable(banner.text()));
            QVERIFY2(QTest::qWaitFor([&] { return overview.showsStaleFigures(); }, int(boundMs)),
                "the Overview showed its figures as current while the database was gone");
        }

        const int leader = m_cluster->waitForNewLeader(former, 60'000);
        QVERIFY2(leader != 0, qPrintable(m_cluster->logs()));
        QCOMPARE(leader, standby); // synchronous mode: only the synchronous standby may take over
        const qint64 leaderAt = QDateTime::currentMSecsSinceEpoch();
        const qint64 linesAtLeader = sinkLines();

        // The service acknowledges orders again, on the new leader.
        qint64 serviceBackAt = -1;
        QVERIFY2(QTest::qWaitFor([&] { return (serviceBackAt = firstCreatedSince(leaderAt)) >= 0; }, 60'000),
            m_service->story().right(4'000).constData());
        // The relay publishes from it: more rows than the batches it may have had in hand at the fault.
        const qint64 batchesInHand = qint64(Workers) * BatchSize;
        QVERIFY2(QTest::qWaitFor([&] { return sinkLines() > linesAtLeader + batchesInHand; }, 60'000),
            m_relay->story().right(4'000).constData());
        const qint64 relayBackAt = QDateTime::currentMSecsSinceEpoch();

        // The console is on the new leader, and says it is another server.
        const QString newServer = m_cluster->address(leader) + QStringLiteral(":5432");
        QVERIFY2(QTest::qWaitFor([&] { return m_console->session().server == newServer; }, 60'000),
            qPrintable(m_console->session().server));
        // Once each of its connections is back, which the first one back hurries (no backoff left to wait out); an
        // idle one on the cut link notices its loss only at its TCP user timeout, and says Reconnected after that.
        QVERIFY2(waitForServerChange(banner, QStringLiteral("Reconnected to another server"), newServer, boundMs),
            qPrintable(banner.text()));
        const auto* serverLabel = m_console->findChild<QLabel*>(QStringLiteral("server"));
        QVERIFY(serverLabel && serverLabel->text().startsWith(newServer));
        // The Messages panel keeps the story: lost, then on another server.
        const QDateTime faultTime = QDateTime::fromMSecsSinceEpoch(faultAt - 1'000);
        bool saidLost = false;
        bool saidServer = false;
        for (const auto& entry : m_console->messages()->entries()) {
            if (entry.at < faultTime)
                continue;
            saidLost = saidLost || entry.text.startsWith(QLatin1String("Connection to the database lost"));
            saidServer = saidServer
                || (entry.text.contains(QLatin1String("another server")) && entry.text.contains(newServer));
        }
        QVERIFY(saidLost && saidServer);
        // Its figures are current again, read from the new leader: the relay alive, heartbeating there.
        const QDateTime leaderTime = QDateTime::fromMSecsSinceEpoch(leaderAt, Qt::UTC);
        const auto relayAliveOnTheNewLeader = [&] {
            const RelayFleetModel& relays = *overview.relays();
            return showsFiguresReadSince(overview, leaderTime) && relays.rowCount() == 1
                && relays.rows().first().state == RelayState::Alive && relays.rows().first().lastSeen > leaderTime;
        };
        QVERIFY2(QTest::qWaitFor(relayAliveOnTheNewLeader, 60'000), "the Overview did not show the relay alive again");
        GuiTesting::saveScreenshot(*m_console,
            QStringLiteral("console-failover-%1.png")
                .arg(QString::fromLatin1(what).replace(QLatin1Char(' '), QLatin1Char('-'))));

        // Every order acknowledged before the new leader took over is there.
        const QStringList missing = acknowledgedButMissing(leaderAt);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.mid(0, 10).join(QLatin1Char(' '))));

        // Each long-running process is running still, and said it once each way: the database unavailable and
        // available again. Sessions left on the old leader that fail later are no second outage. Neither may say
        // it for a switchover, if a new connection works by then; nor the relay for a cut, whose sessions may
        // learn of their loss (at their TCP user timeout) after the new leader took over, when a new connection
        // works: the relay calls that a leftover (docs/pooling-and-ha.md).
        QVERIFY(m_relay->isRunning() && m_service->isRunning());
        for (RelayProcess* process : { m_relay.get(), m_service.get() }) {
            const bool relay = process == m_relay.get();
            const int said = process->count("database unavailable: ") - (relay ? relayOutages : serviceOutages);
            const bool maySayNothing = fault == Fault::Switchover || (relay && fault == Fault::Cut);
            QVERIFY2(maySayNothing ? said <= 1 : said == 1, databaseLines(*process).constData());
            QVERIFY2(QTest::qWaitFor(
                         [&] {
                             return process->count("database available again after ")
                                 == process->count("database unavailable: ");
                         },
                         10'000),
                databaseLines(*process).constData());
        }

        // The former leader comes back as a standby: restarted, or its link back.
        restore.dismiss();
        if (fault == Fault::Kill)
            QCOMPARE(m_cluster->startMember(former), QString());
        if (fault == Fault::Cut)
            QVERIFY2(m_network->restore(former), qPrintable(m_network->problem()));
        QCOMPARE(m_cluster->waitUntilHealthy(180'000), QString());

        qInfo("%s of %s: %s leads after %.1f s; the service acknowledged again after %.1f s, the relay published "
              "again after %.1f s",
            what, qPrintable(m_cluster->name(former)), qPrintable(m_cluster->name(leader)),
            (leaderAt - faultAt) / 1000.0, (serviceBackAt - faultAt) / 1000.0, (relayBackAt - faultAt) / 1000.0);
        QVERIFY2(serviceBackAt - faultAt <= boundMs, "the service took longer than documented");
        QVERIFY2(relayBackAt - faultAt <= boundMs, "the relay took longer than documented");
    }

    std::unique_ptr<NamespaceNetwork> m_network;
    std::unique_ptr<PatroniCluster> m_cluster;
    QTemporaryDir m_directory;
    QString m_answers;
    QString m_events;
    std::unique_ptr<GrowingFile> m_answerFile;
    QList<Answer> m_answerList;
    std::unique_ptr<GrowingFile> m_sinkFile;
    qint64 m_sinkLines = 0;
    std::unique_ptr<RelayProcess> m_service;
    std::unique_ptr<RelayProcess> m_relay;
    std::unique_ptr<QProcess> m_load;
    std::unique_ptr<MainWindow> m_console;

private slots:
    void initTestCase()
    {
        m_network = std::make_unique<NamespaceNetwork>(Members);
        QVERIFY2(m_network->problem().isEmpty(),
            qPrintable(QStringLiteral("network namespaces are not available here: %1").arg(m_network->problem())));
        m_cluster = std::make_unique<PatroniCluster>(*m_network, Members);
        QCOMPARE(m_cluster->start(), QString());
        const QString dsn = m_cluster->dsn();
        const ProcessTesting::Run migrated = ProcessTesting::run(
            QStringLiteral(OUTBOXCTL_PATH), { QStringLiteral("migrate"), QStringLiteral("--dsn"), dsn });
        QVERIFY2(migrated.exitCode == 0, migrated.err.constData());

        m_answers = m_directory.filePath(QStringLiteral("answers.jsonl"));
        m_events = m_directory.filePath(QStringLiteral("events.jsonl"));
        m_answerFile = std::make_unique<GrowingFile>(m_answers);
        m_sinkFile = std::make_unique<GrowingFile>(m_events);
        // Each dies with the test, however it ends (setpriv execs the program: the pid stays its own).
        const QStringList diesWithTheTest { QStringLiteral("setpriv"), QStringLiteral("--pdeathsig"),
            QStringLiteral("KILL") };
        m_service = std::make_unique<RelayProcess>(QStringLiteral(ORDERS_SERVICE_PATH),
            QStringList { QStringLiteral("--dsn"), dsn, QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0") },
            diesWithTheTest);
        const QUrl service = m_service->announcedUrl("listening on");
        QVERIFY2(service.isValid(), m_service->story().constData());
        m_relay = std::make_unique<RelayProcess>(QStringLiteral(OUTBOXCTL_PATH),
            QStringList { QStringLiteral("relay"), QStringLiteral("--dsn"), dsn, QStringLiteral("--name"),
                QStringLiteral("ha"), QStringLiteral("--workers"), QString::number(Workers), QStringLiteral("--batch"),
                QString::number(BatchSize), QStringLiteral("--sink"), QStringLiteral("file:") + m_events },
            diesWithTheTest);
        // Until stopped: 20 orders a second, a quarter of them sent twice at once; a timed-out request is retried
        // with its key.
        m_load = std::make_unique<QProcess>();
        m_load->start(diesWithTheTest.first(),
            diesWithTheTest.mid(1)
                + QStringList { QStringLiteral(OUTBOXCTL_PATH), QStringLiteral("loadgen"), QStringLiteral("--url"),
                    service.toString(), QStringLiteral("--rate"), QStringLiteral("20"), QStringLiteral("--duplicates"),
                    QStringLiteral("0.25"), QStringLiteral("--mismatches"), QStringLiteral("0"),
                    QStringLiteral("--timeout-ms"), QStringLiteral("5000"), QStringLiteral("--answers"), m_answers });
        QVERIFY(m_load->waitForStarted());
        m_console = ConsoleTesting::openWindow(ConnectionSettings::fromDsn(dsn));
        QVERIFY(m_console);
        QVERIFY(QTest::qWaitFor([&] { return sinkLines() > 50; }, 60'000));
    }

    void cleanupTestCase()
    {
        m_console.reset();
        if (m_load) {
            m_load->kill();
            m_load->waitForFinished();
        }
        m_relay.reset();
        m_service.reset();
        m_cluster.reset();
        m_network.reset();
    }

    void theLeaderKilled() { survive(Fault::Kill, "SIGKILL", LostLeaderBoundMs); }
    void aPlannedSwitchover() { survive(Fault::Switchover, "switchover", SwitchoverBoundMs); }
    void theLeadersLinkCut() { survive(Fault::Cut, "link cut", LostLeaderBoundMs); }

    // A console in Korean through a switchover says the same in Korean (rendered for a look at the layout).
    void theConsoleSaysItInKorean()
    {
        const QLocale testLocale;
        QTranslator korean;
        const auto restoreLanguage = qScopeGuard([&] {
            QCoreApplication::removeTranslator(&korean);
            QLocale::setDefault(testLocale);
        });
        QVERIFY(korean.load(
            QLocale(QLocale::Korean), QStringLiteral("outbox-console"), QStringLiteral("_"), QStringLiteral(":/i18n")));
        QCoreApplication::installTranslator(&korean);
        QLocale::setDefault(ConsoleLanguage::localeFor(QStringLiteral("ko")));
        const std::unique_ptr<MainWindow> window
            = ConsoleTesting::openWindow(ConnectionSettings::fromDsn(m_cluster->dsn()));
        QVERIFY(window);
        const int former = m_cluster->leader();
        const int standby = m_cluster->synchronousStandby();
        QVERIFY(former != 0 && standby != 0);
        const ProcessTesting::Run switched = m_cluster->switchover(former, standby);
        QVERIFY2(switched.exitCode == 0, switched.out + switched.err);
        const QDateTime switchedAt = QDateTime::currentDateTimeUtc();
        const QString newServer = m_cluster->address(standby) + QStringLiteral(":5432");
        ConnectionBanner& banner = *window->banner();
        QVERIFY2(waitForServerChange(
                     banner, QStringLiteral("다른 서버에 다시 연결되었습니다"), newServer, SwitchoverBoundMs),
            qPrintable(banner.text()));
        QVERIFY(QTest::qWaitFor([&] { return showsFiguresReadSince(*window->overview(), switchedAt); }, 30'000));
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-failover-ko.png"));
        QCOMPARE(m_cluster->waitUntilHealthy(180'000), QString());
    }

    // The load stops; every outbox row is published, each once but for the batches in hand at the faults; the
    // service and the relay stop cleanly.
    void everyRowPublishedAndTheDuplicatesBounded()
    {
        m_load->terminate();
        QVERIFY(m_load->waitForFinished(30'000));
        const QJsonObject summary = QJsonDocument::fromJson(m_load->readAllStandardOutput()).object();
        const auto session = leaderSession();
        QTRY_COMPARE_WITH_TIMEOUT(
            scalar(*session, QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status <> 'published'")), 0LL,
            60'000);
        const qint64 rows = scalar(*session, QStringLiteral("SELECT count(*) FROM outbox"));
        const qint64 orders = scalar(*session, QStringLiteral("SELECT count(*) FROM orders"));
        QCOMPARE(rows, orders);
        QHash<QString, int> perKey;
        QFile file(m_events);
        QVERIFY(file.open(QIODevice::ReadOnly));
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().trimmed();
            if (!line.isEmpty())
                ++perKey[QJsonDocument::fromJson(line).object().value(QStringLiteral("dedupe_key")).toString()];
        }
        QCOMPARE(qint64(perKey.size()), rows);
        const qint64 lines = sinkLines();
        qInfo("%lld orders (%s); %lld rows published, %lld of them twice (bound: %d faults x %d workers x %d rows)",
            orders, QJsonDocument(summary).toJson(QJsonDocument::Compact).constData(), rows, lines - rows, Faults,
            Workers, BatchSize);
        QVERIFY2(lines - rows <= qint64(Faults) * Workers * BatchSize, "more rows published twice than were in hand");
        QVERIFY2(summary.value(QStringLiteral("created")).toInteger() > 0, QJsonDocument(summary).toJson().constData());
        QVERIFY2(m_relay->terminate(), m_relay->story().constData());
        QVERIFY2(m_service->terminate(), m_service->story().constData());
    }
};

QTEST_MAIN(TestHaCluster)
#include "tst_hacluster.moc"
