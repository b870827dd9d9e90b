// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "demo/demosystem.h"
#include "demowindow/democonsole.h"
#include "eventtypes/eventtypesview.h"
#include "eventtypes/secondspane.h"
#include "mainwindow/mainwindow.h"
#include "messages/statusmessagelabel.h"
#include "metrics/metricspage.h"
#include "outbox/outboxtablemodel.h"
#include "outbox/outboxview.h"
#include "overview/overviewpage.h"
#include "overview/relayfleetmodel.h"
#include "overview/waitingrowsmodel.h"
#include "support/consoletesting.h"
#include "support/guitesting.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
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
        const RelayFleetModel* relays = overview->relays();
        // The state of the relay called `name`, or of the most recently seen running one if `name` is empty.
        const auto stateOf = [&](const QString& name) {
            window.refresh();
            for (int row = 0; row < relays->rowCount(); ++row) {
                const QString state
                    = relays->index(row, RelayFleetModel::State).data(RelayFleetModel::StateRole).toString();
                const QString rowName = relays->index(row, RelayFleetModel::Name).data().toString();
                if (name.isEmpty() ? state == QLatin1String("alive") || state == QLatin1String("failing")
                                   : rowName == name)
                    return std::pair(rowName, state);
            }
            return std::pair(QString(), QString());
        };
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
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                window.refresh();
                const QList<WaitingRow>& rows = waiting->rows();
                return !rows.isEmpty() && std::all_of(rows.cbegin(), rows.cend(), [](const WaitingRow& row) {
                    return row.cause == WaitCause::RelaysFailing || row.cause == WaitCause::Publishing
                        || row.cause == WaitCause::LeaseExpired;
                }) && std::any_of(rows.cbegin(), rows.cend(), [](const WaitingRow& row) {
                    return row.cause == WaitCause::RelaysFailing;
                });
            }(),
            20'000);
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
};

QTEST_MAIN(TestDemoScreenshot)
#include "tst_demoscreenshot.moc"
