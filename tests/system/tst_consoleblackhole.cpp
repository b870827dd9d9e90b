// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/connectionbanner.h"
#include "db/dbsession.h"
#include "db/peerliveness.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "support/consoletesting.h"
#include "support/namespacenetwork.h"

#include <QElapsedTimer>
#include <QScopeGuard>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTest>
#include <QTimer>
#include <functional>
#include <memory>

// The console against a database whose link drops every packet without a reset for a minute (tst_blackhole does
// the same to the programs). The console's database threads are born on a host of their own, a network
// namespace (NamespaceNetwork::startThreadsOn), while its GUI thread and the test's probe (over the cluster's Unix
// socket) stay on this side. A vanished server must not freeze the window, must be told as unreachable with the
// time of the next attempt, must leave nothing on the server (a session of the console the server keeps), and
// must be reconnected from on its own once the link is back. Needs root and `ip netns`: without them the test
// fails saying so rather than skipping.
class TestConsoleBlackhole final : public QObject {
    Q_OBJECT

    static constexpr int ConsoleHost = 1;
    static constexpr int Rows = 40;
    static constexpr qint64 CutMs = 60'000;
    static constexpr qint64 NoticeBoundMs = 15'000; // issue 24: a cut peer is noticed within 15 s
    // The server's side of a silent client: PeerLiveness' first probe after 5 s of silence, then its user timeout.
    static constexpr qint64 ServerLetsGoBoundMs
        = PeerLiveness::KeepaliveIdleSeconds * 1000 + PeerLiveness::UserTimeoutMs + 5'000;
    // The longest the GUI thread may go without turning its event loop. A GUI thread that waited on the cut link
    // would stall for the whole of the keepalive's probes and user timeout (10 s or more), while a loaded test
    // machine stalls a healthy one by over half a second now and then (580 ms failed a bound of 500): 3 s catches
    // the first with room both ways.
    static constexpr qint64 ResponsiveBoundMs = 3'000;

    // When `condition` was first seen true, by `clock`; -1 if not within `timeoutMs`.
    static qint64 firstSeen(const QElapsedTimer& clock, int timeoutMs, const std::function<bool()>& condition)
    {
        return QTest::qWaitFor(condition, timeoutMs) ? clock.elapsed() : -1;
    }

    qint64 scalar(const QString& sql, const QVariantList& binds = {})
    {
        QSqlQuery& q = m_session->exec(sql, binds, QStringLiteral("probing"));
        return q.next() ? q.value(0).toLongLong() : -1;
    }

    qint64 sessionsOfTheConsole()
    {
        return scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE client_addr = ?::inet"),
            { m_network->hostAddress(ConsoleHost) });
    }

    // What an operator does while waiting: refreshes and looks at every tab, each of which asks the database.
    static void clickAround(MainWindow& window)
    {
        auto* tabs = window.findChild<QTabWidget*>();
        for (int tab = 0; tab < tabs->count(); ++tab)
            tabs->setCurrentIndex(tab);
        ConsoleTesting::showOutboxTab(window);
        window.refresh();
    }

    std::unique_ptr<NamespaceNetwork> m_network;
    std::unique_ptr<PrivateCluster> m_cluster;
    std::unique_ptr<DbSession> m_session;

private slots:
    void initTestCase()
    {
        m_network = std::make_unique<NamespaceNetwork>(1);
        QVERIFY2(m_network->problem().isEmpty(),
            qPrintable(QStringLiteral("network namespaces are not available here: %1").arg(m_network->problem())));
        m_cluster = std::make_unique<PrivateCluster>();
        m_cluster->listenOnTcp(m_network->serverAddress(), 5432, m_network->clients());
        m_cluster->start();
        m_session = std::make_unique<DbSession>(m_cluster->settings(), QStringLiteral("console-blackhole"));
        SchemaMigrator(*m_session).migrate();
        m_session->execScript(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                             "dedupe_key) SELECT 'order', g::text, 'order.created', '{}', "
                                             "'console-blackhole:' || g FROM generate_series(1, %1) g")
                                  .arg(Rows),
            QStringLiteral("seeding the outbox"));
    }

    void cleanupTestCase()
    {
        m_session.reset();
        m_cluster.reset();
        m_network.reset();
    }

    void theConsoleCutOffFromPostgresStaysResponsiveSaysSoAndReconnects()
    {
        // Only the window's construction on the host: it starts the database threads.
        std::unique_ptr<MainWindow> window;
        QVERIFY2(m_network->startThreadsOn(ConsoleHost, [&] { window = std::make_unique<MainWindow>(); }),
            qPrintable(m_network->problem()));
        window->resize(1400, 800);
        window->show();
        QSignalSpy connected(window.get(), &MainWindow::connected);
        window->connectTo(ConnectionSettings::fromDsn(m_cluster->tcpDsn()), QStringLiteral("test"));
        QVERIFY(connected.wait(10'000));
        ConsoleTesting::showOutboxTab(*window);
        QVERIFY(ConsoleTesting::waitForRows(*window->outboxView(), Rows));
        // Reads, searches, operator actions: each its own connection, each opened over the link.
        QVERIFY(QTest::qWaitFor([&] { return sessionsOfTheConsole() == 3; }, 10'000));

        // The GUI thread's longest pause from the cut on, as a timer due every 20 ms sees it.
        qint64 longestStallMs = 0;
        QElapsedTimer sinceTick;
        QTimer ticker;
        ticker.setInterval(20);
        connect(&ticker, &QTimer::timeout, this, [&] { longestStallMs = qMax(longestStallMs, sinceTick.restart()); });
        // The test's own blocking calls on this thread (its probe's queries, `ip` to restore the link) are not pauses
        // of the console's: a CI run on a loaded machine failed on a 580 ms pause after the link came back, a span in
        // which the test made these calls.
        const auto unticked = [&](const auto& call) {
            ticker.stop();
            const auto result = call();
            sinceTick.restart();
            ticker.start();
            return result;
        };

        QVERIFY2(m_network->cut(ConsoleHost), qPrintable(m_network->problem()));
        QElapsedTimer sinceCut;
        sinceCut.start();
        sinceTick.start();
        ticker.start();
        auto restore = qScopeGuard([this] { m_network->restore(ConsoleHost); });
        clickAround(*window); // queries in flight when the link is gone: each read waits for the server

        ConnectionBanner& banner = *window->banner();
        const qint64 noticedMs = firstSeen(sinceCut, int(2 * NoticeBoundMs), [&] { return banner.isVisible(); });
        QVERIFY(noticedMs >= 0);
        QVERIFY2(banner.text().contains(QStringLiteral("Connection to the database lost")), qPrintable(banner.text()));
        clickAround(*window);

        // The first reconnect attempt runs into the connect timeout: the banner says so and when the next one is.
        const qint64 unreachableMs
            = firstSeen(sinceCut, int(CutMs), [&] { return banner.text().contains(QStringLiteral("unreachable")); });
        QVERIFY(unreachableMs >= 0);
        QVERIFY2(
            banner.isVisible() && banner.text().contains(QStringLiteral("Next attempt in")), qPrintable(banner.text()));
        clickAround(*window);
        // The lists keep what they showed, rather than an empty list that reads as an empty outbox.
        OutboxView& view = *window->outboxView();
        QVERIFY(QTest::qWaitFor([&] { return !view.model()->isLoading(); }, int(CutMs)));
        QCOMPARE(view.model()->rowCount(), Rows);
        QVERIFY2(!view.model()->failure().isEmpty(), "the outbox list does not say its last read failed");
        if (const QString dir = qEnvironmentVariable("OUTBOX_TEST_SCREENSHOTS"); !dir.isEmpty()) {
            // Encoding PNGs takes the GUI thread: not a pause of the console's.
            ticker.stop();
            QVERIFY(window->grab().save(dir + QStringLiteral("/console-blackholed-outbox.png")));
            window->findChild<QTabWidget*>()->setCurrentIndex(0);
            QVERIFY(window->grab().save(dir + QStringLiteral("/console-blackholed-overview.png")));
            sinceTick.restart();
            ticker.start();
        }

        // Nothing of the console stays on the server: it drops the sessions whose client fell silent on its own.
        const qint64 serverLetGoMs
            = firstSeen(sinceCut, int(CutMs), [&] { return unticked([&] { return sessionsOfTheConsole() == 0; }); });
        QVERIFY(serverLetGoMs >= 0);

        QVERIFY(QTest::qWaitFor([&] { return sinceCut.elapsed() >= CutMs; }, int(CutMs)));
        QVERIFY2(banner.isVisible() && banner.text().contains(QStringLiteral("unreachable")),
            qPrintable(banner.text())); // still true at the end of the cut, not only at its start
        const qint64 stallDuringCutMs = longestStallMs;
        restore.dismiss();
        QVERIFY2(unticked([&] { return m_network->restore(ConsoleHost); }), qPrintable(m_network->problem()));
        QElapsedTimer sinceRestore;
        sinceRestore.start();
        const qint64 reconnectedMs
            = firstSeen(sinceRestore, 60'000, [&] { return banner.text().contains(QStringLiteral("Reconnected")); });
        QVERIFY(reconnectedMs >= 0);
        // The lists are live again: a change made on the server shows. The seeded rows are in the log (migration
        // 0028), where attempts are their lane's (0 while pending): the row leaves the log as failed, with attempts
        // of its own.
        unticked([&] {
            m_session->exec(QStringLiteral("UPDATE outbox SET status = 'failed', attempts = 99 WHERE id = ?"), { Rows },
                QStringLiteral("changing a row"));
            return true;
        });
        ConsoleTesting::showOutboxTab(*window);
        window->refresh();
        QVERIFY(QTest::qWaitFor(
            [&] { return view.model()->rowCount() > 0 && view.model()->rowAt(0).attempts == 99; }, 10'000));
        ticker.stop();
        QCOMPARE(sessionsOfTheConsole(), 3LL);

        qInfo("console cut off from PostgreSQL: banner after %.1f s, 'unreachable' after %.1f s; the server dropped "
              "its sessions after %.1f s; reconnected %.1f s after the link came back; the GUI thread's longest "
              "pause %lld ms during the cut, %lld ms in all",
            noticedMs / 1000.0, unreachableMs / 1000.0, serverLetGoMs / 1000.0, reconnectedMs / 1000.0,
            stallDuringCutMs, longestStallMs);
        QVERIFY2(noticedMs <= NoticeBoundMs, "the console noticed the blackholed database after more than 15 s");
        QVERIFY2(serverLetGoMs <= ServerLetsGoBoundMs, "the server kept the console's sessions too long");
        QVERIFY2(longestStallMs <= ResponsiveBoundMs, "the GUI thread waited for the network");
        // The backoff's longest wait (10 s) and an attempt's connect timeout (10 s), and a retransmitted SYN.
        QVERIFY2(reconnectedMs <= 30'000, "the console took more than 30 s to reconnect after the link came back");
    }
};

QTEST_MAIN(TestConsoleBlackhole)
#include "tst_consoleblackhole.moc"
