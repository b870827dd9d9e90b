// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/timeformatter.h"
#include "db/dbsession.h"
#include "demo/demosystem.h"
#include "demo/privatebroker.h"
#include "demowindow/democonsole.h"
#include "eventtypes/eventtypesview.h"
#include "eventtypes/secondspane.h"
#include "i18n/consolelanguage.h"
#include "mainwindow/mainwindow.h"
#include "messages/statusmessagelabel.h"
#include "metrics/metricspage.h"
#include "outbox/outboxtablemodel.h"
#include "outbox/outboxview.h"
#include "overview/overviewpage.h"
#include "overview/relayfleetmodel.h"
#include "overview/waitingrowsmodel.h"
#include "support/consoletesting.h"
#include "support/demotesting.h"
#include "support/guitesting.h"
#include "support/processtesting.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTest>
#include <algorithm>

// The demo as an operator first sees it: the whole system running, the console showing rows and charts.
// Saves console-demo-*.png as artifacts.
class TestDemoScreenshot final : public QObject {
    Q_OBJECT

    // Starts the whole demo; true once its traffic runs.
    static bool start(DemoSystem& demo)
    {
        QSignalSpy ready(&demo, &DemoSystem::ready);
        demo.start();
        return ready.wait(120'000);
    }

    // The name and state of the relay called `name`, or of the most recently seen running one if `name` is empty, as
    // the Overview shows them after a refresh.
    static std::pair<QString, QString> relayState(MainWindow& window, const QString& name)
    {
        window.refresh();
        const RelayFleetModel* relays = window.overview()->relays();
        for (int row = 0; row < relays->rowCount(); ++row) {
            const QString state
                = relays->index(row, RelayFleetModel::State).data(RelayFleetModel::StateRole).toString();
            const QString rowName = relays->index(row, RelayFleetModel::Name).data().toString();
            if (name.isEmpty() ? state == QLatin1String("alive") || state == QLatin1String("failing") : rowName == name)
                return std::pair(rowName, state);
        }
        return std::pair(QString(), QString());
    }

    // The tooltip of the State cell of the relay called `name`.
    static QString relayStateTip(const MainWindow& window, const QString& name)
    {
        const RelayFleetModel* relays = window.overview()->relays();
        for (int row = 0; row < relays->rowCount(); ++row) {
            if (relays->index(row, RelayFleetModel::Name).data().toString() == name)
                return relays->index(row, RelayFleetModel::State).data(Qt::ToolTipRole).toString();
        }
        return {};
    }

    // Every row the Overview lists as waiting waits behind the failing relays, or is in flight; at least one behind
    // them. None says "its turn" while nothing can publish.
    static bool waitsBehindTheFailingRelays(MainWindow& window)
    {
        window.refresh();
        const QList<WaitingRow>& rows = window.overview()->waitingRows()->rows();
        return !rows.isEmpty() && std::all_of(rows.cbegin(), rows.cend(), [](const WaitingRow& row) {
            return row.cause == WaitCause::RelaysFailing || row.cause == WaitCause::Publishing
                || row.cause == WaitCause::LeaseExpired;
        }) && std::any_of(rows.cbegin(), rows.cend(), [](const WaitingRow& row) {
            return row.cause == WaitCause::RelaysFailing;
        });
    }

private slots:
    void initTestCase()
    {
        GuiTesting::useOwnSettings(QStringLiteral("tst_demoscreenshot"));
        // No auto-refresh: what the window shows must come by the change notifications the demo's traffic sends, or
        // by a refresh a test asks for, not by a timer that would bring it within the waits anyway.
        QSettings().setValue(ConsoleTesting::AutoRefreshSecondsKey, 0);
    }

    void consoleShowsTheRunningSystem()
    {
        // As `outbox-console --demo` runs it: the window is shown, then the demo starts and the window follows it.
        // Declared in main()'s order, so that the window's connections go before the servers.
        DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        DemoConsole console(window, demo);
        QSignalSpy started(&demo, &DemoSystem::serversStarted);
        QSignalSpy connected(&window, &MainWindow::connected);
        QSignalSpy ready(&demo, &DemoSystem::ready);
        console.start();
        // The servers take seconds: the window says what is starting meanwhile, and its event loop runs.
        QCOMPARE(window.statusMessage()->fullText(), QStringLiteral("Starting PostgreSQL…"));
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        GuiTesting::saveScreenshot(window, QStringLiteral("console-demo-starting.png"));
        QVERIFY(started.wait(120'000));
        QVERIFY(connected.wait(10'000));
        QVERIFY(!ready.isEmpty() || ready.wait(30'000));

        // The Demo menu offers only what can be done: the consumer runs, so it can be stopped, not started.
        QAction* startConsumer = console.startConsumerAction();
        QAction* stopConsumer = console.stopConsumerAction();
        QVERIFY(startConsumer && stopConsumer);
        QVERIFY2(demo.broker(), qPrintable(demo.brokerAbsence()));
        QVERIFY(!startConsumer->isEnabled());
        QVERIFY(stopConsumer->isEnabled());
        stopConsumer->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(startConsumer->isEnabled(), 30'000);
        QVERIFY(!stopConsumer->isEnabled());
        startConsumer->trigger();
        QVERIFY(!startConsumer->isEnabled());
        QVERIFY(stopConsumer->isEnabled());

        auto* tabs = window.findChild<QTabWidget*>();
        // Rows: the list refreshes itself on the change notifications the traffic sends.
        tabs->setCurrentWidget(window.outboxView());
        QTRY_VERIFY_WITH_TIMEOUT(window.outboxView()->model()->rowCount() >= 50, 40'000);
        GuiTesting::saveScreenshot(window, QStringLiteral("console-demo-outbox.png"));

        // Charts: requests, replays and publications in the rollups the Metrics tab draws.
        auto* metrics = window.findChild<MetricsPage*>();
        tabs->setCurrentWidget(metrics);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                qint64 requests = 0;
                qint64 replays = 0;
                qint64 published = 0;
                for (const MetricPoint& point : metrics->points()) {
                    requests += point.counters.requests;
                    replays += point.counters.replays;
                    published += point.counters.published;
                }
                return requests > 0 && replays > 0 && published > 0;
            }(),
            40'000);
        GuiTesting::saveScreenshot(window, QStringLiteral("console-demo-metrics.png"));

        // The Overview once the broker itself has refused something: cancellations no queue is bound for come back
        // as 312 NO_ROUTE and go dead after four attempts.
        DbSession observer(demo.settings(), QStringLiteral("observer"));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QSqlQuery& q = observer.exec(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'dead' AND "
                                                            "last_error LIKE '%312 NO_ROUTE%'"),
                    {}, QStringLiteral("dead rows"));
                return q.next() && q.value(0).toLongLong() > 0;
            }(),
            60'000);
        tabs->setCurrentWidget(window.overview());
        window.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(window.overview()->figure(QStringLiteral("dead")).toInt() > 0, 20'000);
        GuiTesting::saveScreenshot(window, QStringLiteral("console-demo-overview.png"));

        // A repair is offered until it is made: raised once, the queue limit is not offered again.
        QAction* raiseQueueLimit = console.raiseQueueLimitAction();
        QVERIFY(raiseQueueLimit && raiseQueueLimit->isEnabled());
        raiseQueueLimit->trigger();
        QVERIFY(demo.isQueueLimitRaised());
        QVERIFY(!raiseQueueLimit->isEnabled());
        QVERIFY(console.fixRoutingAction()->isEnabled());

        // Quitting: with the main window gone, a notice says what is stopping (seen here as each next step begins).
        window.close();
        QStringList shown;
        connect(&demo, &DemoSystem::stage, this, [&shown] {
            for (QWidget* widget : QApplication::topLevelWidgets()) {
                auto* notice = qobject_cast<QLabel*>(widget);
                if (notice && notice->isVisible()) {
                    shown << notice->text();
                    QVERIFY(notice->grab().save(QStringLiteral("console-demo-stopping.png")));
                }
            }
        });
        console.stop();
        QCOMPARE(shown,
            QStringList({ QStringLiteral("Stopping the demo…"), QStringLiteral("Stopping the demo's processes…"),
                QStringLiteral("Stopping RabbitMQ…") }));
        QVERIFY(!demo.cluster().isRunning());
    }

    // The figures at the worst moments of the Demo menu's faults, as the operator sees them: a stopped broker makes
    // the relay failing and the waiting rows wait for it, not "their turn"; a killed relay is gone within seconds.
    void consoleTellsTheTruthDuringFaults()
    {
        DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        QVERIFY(start(demo));
        QVERIFY2(demo.broker(), qPrintable(demo.brokerAbsence()));
        const auto connected = ConsoleTesting::openWindow(demo.settings());
        QVERIFY(connected);
        MainWindow& window = *connected;
        window.findChild<QTabWidget*>()->setCurrentWidget(window.overview());
        OverviewPage* overview = window.overview();
        const auto stateOf = [&window](const QString& name) { return relayState(window, name); };
        QTRY_COMPARE_WITH_TIMEOUT(stateOf({}).second, QStringLiteral("alive"), 30'000);
        const QString relay = stateOf({}).first;

        demo.stopBrokerFor(30'000);
        const QDateTime brokerBack = QDateTime::currentDateTimeUtc().addSecs(28);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(relay).second, QStringLiteral("failing"), 20'000);
        // The live seconds while the broker is away: the relay still counts (its books go to the database, not the
        // broker), and the seconds it has counted since it was seen failing published nothing.
        window.findChild<QTabWidget*>()->setCurrentWidget(window.eventTypesView());
        SecondsPane* seconds = window.eventTypesView()->seconds();
        QSignalSpy secondsRead(seconds, &SecondsPane::refreshed);
        QVERIFY(secondsRead.wait(10'000));
        const QDateTime outageSeen = seconds->window().serverNow;
        QTRY_VERIFY_WITH_TIMEOUT(seconds->window().countedUntil >= outageSeen.addSecs(3), 20'000);
        int countedSinceOutage = 0;
        for (const MetricPoint& point : seconds->window().points) {
            // Before the broker comes back (this machine's clock is the demo database's).
            if (point.start >= outageSeen && point.start < brokerBack
                && ThroughputRepository::isComplete(seconds->window(), point)) {
                ++countedSinceOutage;
                QCOMPARE(point.counters.published, 0LL);
            }
        }
        QVERIFY(countedSinceOutage >= 2);
        QVERIFY2(seconds->caption()->text().startsWith(QLatin1String("Counted up to")),
            qPrintable(seconds->caption()->text()));
        GuiTesting::saveScreenshot(window, QStringLiteral("console-demo-broker-down-seconds.png"));
        window.findChild<QTabWidget*>()->setCurrentWidget(window.overview());
        const WaitingRowsModel* waiting = overview->waitingRows();
        QTRY_VERIFY_WITH_TIMEOUT(waitsBehindTheFailingRelays(window), 20'000);
        const auto behindTheBroker = std::find_if(waiting->rows().cbegin(), waiting->rows().cend(),
            [](const WaitingRow& row) { return row.cause == WaitCause::RelaysFailing; });
        const QString cause = waiting->causeText(*behindTheBroker);
        QVERIFY2(cause.contains(QStringLiteral("broker unreachable for")), qPrintable(cause));
        GuiTesting::saveScreenshot(window, QStringLiteral("console-demo-broker-down.png"));
        // After the outage: publishing again, alive, the outage's error kept as past.
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(relay).second, QStringLiteral("alive"), 90'000);

        demo.killRelay();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(relay).second, QStringLiteral("gone"), 5'000);
        GuiTesting::saveScreenshot(window, QStringLiteral("console-demo-relay-killed.png"));
        // The relay the demo restarts records it as gone with its first heartbeat, so it stays gone whatever later
        // sessions get its pids; one state per cause.
        DbSession registry(demo.settings(), QStringLiteral("registry"));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QSqlQuery& q
                    = registry.exec(QStringLiteral("SELECT gone_at IS NOT NULL FROM relay_nodes WHERE name = ?"),
                        { relay }, QStringLiteral("the killed relay"));
                return q.next() && q.value(0).toBool();
            }(),
            30'000);
        QCOMPARE(stateOf(relay).second, QStringLiteral("gone"));
    }

    // The walkthrough an operator makes with the Demo menu's faults and a database stopped by hand, quitting at each
    // fault's worst moment: the panes agree with each other then (the fleet's line, the relay's state and the waiting
    // rows' causes; stale figures marked, their ages still counting), the window is rendered in the row's language
    // (console-fault-*.png), and quitting ends every part of the demo, whatever the fault already took away.
    void quittingAtAFaultsWorstMoment_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("language");
        QTest::newRow("broker stopped") << QStringLiteral("broker") << QStringLiteral("ko");
        QTest::newRow("relay killed") << QStringLiteral("relay") << QStringLiteral("ko");
        QTest::newRow("database restarted") << QStringLiteral("restart") << QStringLiteral("ko");
        QTest::newRow("queue full") << QStringLiteral("queue") << QStringLiteral("en");
        QTest::newRow("database stopped by hand") << QStringLiteral("stopped") << QStringLiteral("en");
    }

    void quittingAtAFaultsWorstMoment()
    {
        QFETCH(QString, fault);
        QFETCH(QString, language);
        QCOMPARE(ConsoleLanguage::apply(language), language);
        const auto inEnglishAfter = qScopeGuard([] { ConsoleLanguage::apply(QStringLiteral("en")); });
        // Declared in main()'s order, so that the window's connections go before the servers.
        DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        // A queue that fills within seconds once its consumer stops.
        if (fault == QLatin1String("queue"))
            demo.setQueueLimit(40);
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        DemoConsole console(window, demo);
        QSignalSpy connected(&window, &MainWindow::connected);
        QSignalSpy ready(&demo, &DemoSystem::ready);
        console.start();
        QVERIFY(ready.wait(120'000));
        QVERIFY(!connected.isEmpty() || connected.wait(10'000));
        QVERIFY2(demo.broker(), qPrintable(demo.brokerAbsence()));
        const QString directory = demo.cluster().directory();
        const QString brokerDirectory = demo.broker()->directory();
        window.findChild<QTabWidget*>()->setCurrentWidget(window.overview());
        QTRY_COMPARE_WITH_TIMEOUT(relayState(window, {}).second, QStringLiteral("alive"), 30'000);
        const QString relay = relayState(window, {}).first;
        OverviewPage* overview = window.overview();
        const auto* fleet = overview->findChild<QLabel*>(QStringLiteral("fleet"));
        const auto* updated = overview->findChild<QLabel*>(QStringLiteral("updated"));
        QVERIFY(fleet && updated);

        if (fault == QLatin1String("broker") || fault == QLatin1String("queue")) {
            // Nothing can publish: the broker is gone, or it refuses every publish (basic.nack) with the queue full.
            if (fault == QLatin1String("broker"))
                demo.stopBrokerFor(10 * 60'000); // outlasts the test
            else
                demo.stopConsumer();
            QTRY_COMPARE_WITH_TIMEOUT(relayState(window, relay).second, QStringLiteral("failing"), 60'000);
            QTRY_VERIFY_WITH_TIMEOUT(waitsBehindTheFailingRelays(window), 20'000);
            // One read's panes: the fleet's line counts the failing relay, and a row waiting behind it says what the
            // relay's own state says, word for word.
            QVERIFY2(fleet->text().contains(OverviewPage::tr("%n failing", nullptr, 1)), qPrintable(fleet->text()));
            const WaitingRowsModel* waiting = overview->waitingRows();
            const auto behind = std::find_if(waiting->rows().cbegin(), waiting->rows().cend(),
                [](const WaitingRow& row) { return row.cause == WaitCause::RelaysFailing; });
            QVERIFY(behind != waiting->rows().cend());
            QCOMPARE(waiting->causeText(*behind),
                WaitingRowsModel::tr("Every relay is failing: %1").arg(relayStateTip(window, relay)));
        } else if (fault == QLatin1String("relay")) {
            demo.killRelay();
            QTRY_COMPARE_WITH_TIMEOUT(relayState(window, relay).second, QStringLiteral("gone"), 5'000);
            QVERIFY2(fleet->text().contains(OverviewPage::tr("%n gone (process died)", nullptr, 1)),
                qPrintable(fleet->text()));
        } else {
            // The database goes away under the window: an immediate stop (restarted at once), or a stop by hand.
            if (fault == QLatin1String("restart")) {
                demo.restartDatabase();
            } else {
                const QString problem = DemoTesting::stopDatabaseByHand(directory);
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
            }
            QTRY_VERIFY_WITH_TIMEOUT((window.refresh(), overview->showsStaleFigures()), 20'000);
            const QDateTime readAt = overview->readAt();
            QVERIFY(readAt.isValid());
            QVERIFY2(fleet->text().contains(TimeFormatter::display(readAt)), qPrintable(fleet->text()));
            if (fault == QLatin1String("stopped")) {
                // Still down: the figures stay as of the last read, and how long ago that was keeps counting, on the
                // stale line and in the relay's last heartbeat alike.
                const QModelIndex lastSeen = overview->relays()->index(0, RelayFleetModel::LastSeen);
                const QString seenAtFirst = lastSeen.data().toString();
                QTRY_VERIFY_WITH_TIMEOUT(updated->text().contains(TimeFormatter::duration(2'000)), 10'000);
                QVERIFY2(lastSeen.data().toString() != seenAtFirst, qPrintable(seenAtFirst));
                QVERIFY(overview->showsStaleFigures());
                QCOMPARE(overview->readAt(), readAt);
            }
        }
        GuiTesting::saveScreenshot(window, QStringLiteral("console-fault-%1-%2.png").arg(fault, language));

        // Quitting as main() does: the window closes, then the demo stops whatever the fault took away.
        window.close();
        try {
            console.stop();
        } catch (const std::exception& error) {
            QFAIL(qPrintable(QStringLiteral("stop() threw: %1").arg(QString::fromLocal8Bit(error.what()))));
        }
        QVERIFY(!demo.cluster().isRunning());
        for (const QString& made : { directory, brokerDirectory }) {
            QVERIFY2(!QDir(made).exists(), qPrintable(made));
            QCOMPARE(ProcessTesting::processesMentioning(made), 0);
        }
    }
};

QTEST_MAIN(TestDemoScreenshot)
#include "tst_demoscreenshot.moc"
