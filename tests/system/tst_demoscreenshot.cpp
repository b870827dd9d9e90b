// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "demo/demosystem.h"
#include "mainwindow/mainwindow.h"
#include "metrics/metricspage.h"
#include "outbox/outboxtablemodel.h"
#include "outbox/outboxview.h"
#include "overview/overviewpage.h"
#include "support/guitesting.h"

#include <QDir>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTest>

// The demo as an operator first sees it: the whole system running, the console showing rows and charts.
// Saves console-demo-*.png as artifacts.
class TestDemoScreenshot final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { GuiTesting::useOwnSettings(QStringLiteral("tst_demoscreenshot")); }

    void consoleShowsTheRunningSystem()
    {
        DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
        QSignalSpy ready(&demo, &DemoSystem::ready);
        demo.start();
        QVERIFY(ready.wait(20'000));
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QSignalSpy connected(&window, &MainWindow::connected);
        window.connectTo(demo.settings(), QStringLiteral("demo"));
        QVERIFY(connected.wait(10'000));
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
    }
};

QTEST_MAIN(TestDemoScreenshot)
#include "tst_demoscreenshot.moc"
