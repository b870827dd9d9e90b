// SPDX-License-Identifier: GPL-3.0-or-later
#include "audit/audittablemodel.h"
#include "audit/auditview.h"
#include "common/listviewsetup.h"
#include "common/operatoractiondialog.h"
#include "connect/connectdialog.h"
#include "connect/connectionbanner.h"
#include "core/bulkactionrunner.h"
#include "core/databaseclient.h"
#include "core/exportrunner.h"
#include "core/timeformatter.h"
#include "db/changenotifier.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "eventtypes/eventtypesmodel.h"
#include "eventtypes/eventtypesview.h"
#include "eventtypes/secondspane.h"
#include "failures/failuregroupsmodel.h"
#include "failures/failuresview.h"
#include "i18n/consolelanguage.h"
#include "keys/keydetailpane.h"
#include "keys/keystablemodel.h"
#include "keys/keysview.h"
#include "mainwindow/mainwindow.h"
#include "messages/messagelog.h"
#include "metrics/metricschart.h"
#include "metrics/metricsrecorder.h"
#include "metrics/metricthresholds.h"
#include "operations/outboxoperator.h"
#include "orders/createorderhandler.h"
#include "outbox/editcontentdialog.h"
#include "outbox/outboxdetailpane.h"
#include "outbox/outboxtablemodel.h"
#include "outbox/outboxview.h"
#include "overview/overviewpage.h"
#include "overview/pausedialog.h"
#include "overview/pausesmodel.h"
#include "overview/relayfleetmodel.h"
#include "overview/waitingrowsmodel.h"
#include "relay/outboxleaserepository.h"
#include "support/consoletesting.h"
#include "support/databasetestcase.h"
#include "support/guitesting.h"
#include "support/listmodeltesting.h"
#include "support/manpagetesting.h"
#include "support/processtesting.h"
#include "support/relayprocess.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QBrush>
#include <QChart>
#include <QCoreApplication>
#include <QDateTimeEdit>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMutex>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTranslator>
#include <QTreeWidget>
#include <algorithm>

// The console as a whole, on the offscreen platform against a real database.
class TestConsole final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestConsole()
        : DatabaseTestCase(QStringLiteral("console"))
    { }

private:
    // outbox-console's environment with a display (offscreen) or none at all; a runtime directory of its own, as a
    // desktop session gives it (without one Qt warns on stderr, which the tests read).
    QProcessEnvironment consoleEnvironment(bool display) const
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const QString& variable :
            { QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("DISPLAY"), QStringLiteral("WAYLAND_DISPLAY") })
            environment.remove(variable);
        if (display)
            environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_runtimeDir.path());
        return environment;
    }

    QTemporaryDir m_runtimeDir; // 0700, as XDG_RUNTIME_DIR must be

    // Fills the pause dialog as the operator does (what to pause, unless it is a resume, and why) and accepts it.
    static void fillPauseDialog(
        PauseDialog& dialog, std::optional<PauseScope> scope, const QString& target, const QString& reason)
    {
        if (scope) {
            // The scope's radio buttons in the order the dialog offers them: relay, event type.
            dialog.findChildren<QRadioButton*>().at(*scope == PauseScope::Relay ? 0 : 1)->setChecked(true);
            dialog.findChild<QLineEdit*>(QStringLiteral("target"))->setText(target);
        }
        dialog.findChild<QLineEdit*>(QStringLiteral("reason"))->setText(reason);
        dialog.accept();
    }

    void seed()
    {
        db().reset();
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, attempts, "
            "  last_error, lease_owner, lease_expires_at, published_at) "
            "SELECT 'order', g::text, 'order.created', jsonb_build_object('id', g), 'k' || g, s.status, "
            "  CASE WHEN s.status IN ('failed', 'dead') THEN 3 ELSE 1 END, "
            "  CASE WHEN s.status IN ('failed', 'dead') THEN 'broker unavailable: connection refused' END, "
            "  CASE WHEN s.status = 'in_flight' THEN 'relay-1/w0' END, "
            "  CASE WHEN s.status = 'in_flight' THEN now() - interval '2 minutes' END, "
            "  CASE WHEN s.status = 'published' THEN now() END "
            "FROM generate_series(1, 40) g, LATERAL (SELECT CASE "
            "  WHEN g <= 5 THEN 'dead' WHEN g <= 10 THEN 'failed' WHEN g <= 12 THEN 'in_flight' "
            "  WHEN g <= 20 THEN 'pending' ELSE 'published' END AS status) s"));
    }

private slots:
    void initTestCase()
    {
        GuiTesting::useOwnSettings(QStringLiteral("tst_console"));
        setUpDatabase();
    }
    void init() { seed(); }

    void overviewCountsAndLinks()
    {
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OverviewPage* overview = window->overview();
        QTRY_COMPARE_WITH_TIMEOUT(overview->figure(QStringLiteral("dead")), QStringLiteral("5"), 10'000);
        QCOMPARE(overview->figure(QStringLiteral("failed")), QStringLiteral("5"));
        QCOMPARE(overview->figure(QStringLiteral("in_flight")), QStringLiteral("2"));
        QCOMPARE(overview->figure(QStringLiteral("pending")), QStringLiteral("8"));
        QCOMPARE(overview->figure(QStringLiteral("stuck")), QStringLiteral("2")); // the expired leases, not the dead
        OutboxFilter dead;
        dead.statuses = { OutboxStatus::Dead };
        emit overview->showOutbox(dead);
        QVERIFY(ConsoleTesting::waitForRows(*window->outboxView(), 5));
        QCOMPARE(window->outboxView()->filter().statuses, QList<OutboxStatus> { OutboxStatus::Dead });
    }

    // The Metrics tab's warning levels colour the overview's figures too.
    void overviewShowsWarningLevels()
    {
        db().exec(
            QStringLiteral("UPDATE outbox SET created_at = now() - interval '3 minutes' WHERE status = 'pending'"));
        {
            QSettings settings;
            MetricThresholds thresholds;
            thresholds.oldestPendingAgeSeconds = 120;
            thresholds.save(settings);
        }
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        const QLabel* oldest = window->overview()->findChild<QLabel*>();
        QTRY_VERIFY_WITH_TIMEOUT(oldest->text().contains(QStringLiteral("⚠")), 10'000);
        {
            QSettings settings;
            MetricThresholds relaxed;
            relaxed.oldestPendingAgeSeconds = 600;
            relaxed.save(settings);
        }
        window->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!oldest->text().contains(QStringLiteral("⚠")), 10'000);
        QVERIFY(oldest->text().contains(QStringLiteral("3 min")));
    }

    // On a young system the rates cover the complete minutes that have data, and say so: two minutes of 950 published
    // each are 950 a minute, not 380 (1,900 over five); before any complete minute has data they say that instead of
    // a rate of 0 and "no requests".
    void overviewRatesSayHowManyMinutesTheyCover()
    {
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        // The rollups and the reads within one minute of the database's clock.
        QTRY_VERIFY_WITH_TIMEOUT(db().secondOfMinute() < 45, 20'000);
        db().exec(QStringLiteral("INSERT INTO metric_rollups (bucket, shard, requests, replays, published) "
                                 "SELECT date_trunc('minute', now()) - m * interval '1 minute', 0, 20, 1, 950 "
                                 "FROM generate_series(1, 2) m"));
        const auto window = ConsoleTesting::openWindow(db().settings());
        QVERIFY(window);
        OverviewPage* overview = window->overview();
        const auto* rates = overview->findChild<QLabel*>(QStringLiteral("rates"));
        QVERIFY(rates);
        QTRY_VERIFY_WITH_TIMEOUT(overview->readAt().isValid(), 10'000);
        QVERIFY2(
            rates->text().contains(QStringLiteral("<b>950.0</b> published per minute")), qPrintable(rates->text()));
        QVERIFY2(rates->text().contains(QStringLiteral("Last 2 minute")), qPrintable(rates->text()));
        QVERIFY2(rates->text().contains(QStringLiteral("no data before")), qPrintable(rates->text()));
        QVERIFY2(rates->text().contains(QStringLiteral("<b>5.0 %</b>")), qPrintable(rates->text()));

        db().exec(QStringLiteral("DELETE FROM metric_rollups"));
        const QDateTime before = overview->readAt();
        window->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(overview->readAt() > before, 10'000);
        QVERIFY2(rates->text().contains(QStringLiteral("no complete minute with data yet")), qPrintable(rates->text()));
        QVERIFY2(!rates->text().contains(QStringLiteral("no requests")), qPrintable(rates->text()));
    }

    // The database stopped under the console (its own cluster, crashed): the Overview keeps what it last read and
    // says so with the time of that read and how long ago it was, greys the relays and the waiting rows instead of
    // showing them as current, and goes on ageing each relay's heartbeat from that read by this computer's clock.
    // Once the database is back, its figures follow it again. Rendered in English and Korean with a failing relay,
    // before and during the outage.
    void overviewSaysItsFiguresAreOldDuringAnOutage_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("ko") << QStringLiteral("ko");
    }

    void overviewSaysItsFiguresAreOldDuringAnOutage()
    {
        QFETCH(QString, language);
        // Korean for this test only, as the console installs it (ConsoleLanguage::apply), then the test's own texts and
        // locale again: the tests after it compare English source texts.
        const QLocale testLocale;
        QTranslator korean;
        const auto restoreLanguage = qScopeGuard([&] {
            QCoreApplication::removeTranslator(&korean);
            QLocale::setDefault(testLocale);
        });
        if (language == QLatin1String("ko")) {
            QVERIFY(korean.load(QLocale(QLocale::Korean), QStringLiteral("outbox-console"), QStringLiteral("_"),
                QStringLiteral(":/i18n")));
            QCoreApplication::installTranslator(&korean);
            QLocale::setDefault(ConsoleLanguage::localeFor(language));
        }
        // The rows have waited past the warning level, with nothing published: the warning is up.
        QSettings().setValue(QStringLiteral("thresholds/oldestPendingAgeSeconds"), 60);
        const auto restoreLevel
            = qScopeGuard([] { QSettings().remove(QStringLiteral("thresholds/oldestPendingAgeSeconds")); });
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        PrivateCluster cluster;
        cluster.start();
        {
            DbSession setup(cluster.settings(), QStringLiteral("setup"));
            SchemaMigrator(setup).migrate();
            setup.execScript(
                QStringLiteral(
                    "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, created_at) "
                    "SELECT 'order', g::text, 'order.created', '{}', 'outage-' || g, "
                    "  now() - interval '2 minutes' + g * interval '1 second' FROM generate_series(1, 3) g; "
                    "INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, lease_ms, "
                    "  heartbeat_ms, sink_up, last_error, last_error_at, failing_since) "
                    "VALUES ('relay-1', 'host-a', 4242, 'test', 'amqp://broker', 2, 50, 30000, 60000, false, "
                    "  'connection refused', now() - interval '40 seconds', now() - interval '40 seconds')"),
                QStringLiteral("seeding"));
        }
        QElapsedTimer sinceOpen; // started before the read, so never behind the page's clock
        sinceOpen.start();
        const auto window = ConsoleTesting::openWindow(cluster.settings());
        QVERIFY(window);
        OverviewPage* overview = window->overview();
        RelayFleetModel* relays = overview->relays();
        QAbstractItemModelTester tester(relays, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE_WITH_TIMEOUT(relays->rowCount(), 1, 10'000);
        QCOMPARE(overview->waitingRows()->rowCount(), 3);
        QCOMPARE(relays->index(0, RelayFleetModel::State).data(RelayFleetModel::StateRole).toString(),
            QStringLiteral("failing"));
        QVERIFY(!overview->showsStaleFigures());
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-relay-failing-%1.png").arg(language));
        const QDateTime readAt = overview->readAt();
        const QModelIndex lastSeen = relays->index(0, RelayFleetModel::LastSeen);
        const qint64 ageAtRead = lastSeen.data(RelayFleetModel::HeartbeatAgeRole).toLongLong();

        cluster.crash();
        window->refresh();
        // The heartbeat goes on ageing from the read by this computer's clock, never ahead of it.
        const auto heartbeatAge = [&] { return lastSeen.data(RelayFleetModel::HeartbeatAgeRole).toLongLong(); };
        QTRY_VERIFY_WITH_TIMEOUT(heartbeatAge() >= ageAtRead + 3'000, 10'000);
        QVERIFY(heartbeatAge() <= ageAtRead + sinceOpen.elapsed());
        QCOMPARE(
            lastSeen.data().toString(), RelayFleetModel::tr("%1 ago").arg(TimeFormatter::duration(heartbeatAge())));
        QVERIFY(overview->showsStaleFigures());
        QCOMPARE(overview->readAt(), readAt);
        const auto* updated = overview->findChild<QLabel*>(QStringLiteral("updated"));
        const auto* fleet = overview->findChild<QLabel*>(QStringLiteral("fleet"));
        QVERIFY2(updated->text().contains(TimeFormatter::display(readAt)), qPrintable(updated->text()));
        QVERIFY2(fleet->text().contains(TimeFormatter::display(readAt)), qPrintable(fleet->text()));
        if (language == QLatin1String("en")) {
            QVERIFY2(updated->text().startsWith(QStringLiteral("⚠ Not updated since")), qPrintable(updated->text()));
            QVERIFY2(fleet->text().startsWith(QStringLiteral("As of ")), qPrintable(fleet->text()));
        }
        // Nothing is shown as current any more: the failing relay and the rows it fails are no longer red, the figures
        // and the warning that nothing is publishing are faded.
        const auto* warning = overview->findChild<QLabel*>(QStringLiteral("nothingPublishing"));
        QVERIFY(warning->isVisible() && warning->graphicsEffect());
        QVERIFY(overview->findChild<QLabel*>(QStringLiteral("rates"))->graphicsEffect());
        const QColor grey = QGuiApplication::palette().color(QPalette::PlaceholderText);
        QCOMPARE(relays->index(0, RelayFleetModel::State).data(Qt::ForegroundRole).value<QBrush>().color(), grey);
        QCOMPARE(
            overview->waitingRows()->index(0, WaitingRowsModel::Cause).data(Qt::ForegroundRole).value<QBrush>().color(),
            grey);
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-outage-%1.png").arg(language));

        cluster.start();
        QTRY_VERIFY_WITH_TIMEOUT(!overview->showsStaleFigures(), 30'000);
        QVERIFY(overview->readAt() > readAt);
        QVERIFY(!relays->isStale());
        QVERIFY(!overview->waitingRows()->isStale());
        QVERIFY(!warning->graphicsEffect());
        QVERIFY2(!updated->text().contains(QStringLiteral("⚠")), qPrintable(updated->text()));
    }

    // From the Keys tab, Show its outbox rows (the context menu's action, the detail pane's button) opens the Outbox
    // tab on exactly the rows the key's request wrote: its order's order.created, not the order's later
    // order.cancelled from another producer, nor the seeded rows that merely share the aggregate id; a key that
    // created no order has none to show.
    void aKeysOutboxRowsOpenFromTheKeysTab()
    {
        auto orders = db().openSession(QStringLiteral("orders"));
        MetricsRecorder metrics;
        CreateOrderHandler handler(*orders, metrics);
        QList<qint64> orderIds;
        for (const QString& key : { QStringLiteral("checkout-a"), QStringLiteral("checkout-b") }) {
            CreateOrderRequest request;
            request.key = key;
            request.customer = QStringLiteral("alice");
            request.amount = QStringLiteral("12.50");
            const CreateOrderResult created = handler.handle(request);
            QCOMPARE(created.outcome, CreateOrderResult::Outcome::Created);
            orderIds.append(*created.orderId);
        }
        const QString orderA = QString::number(orderIds.first());
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', ?::text, 'order.cancelled', '{}', '{}', "
                                 "  'order.cancelled:' || ?::text)"),
            { orderA, orderA });
        const qint64 created = db().scalar(QStringLiteral("SELECT id FROM outbox WHERE dedupe_key = 'order.created:' "
                                                          "|| ?::text"),
                                       { orderA })
                                   .toLongLong();
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE aggregate_type = 'order' "
                                            "AND aggregate_id = ?::text"),
                         { orderA })
                     .toInt(),
            3); // the seeded row, order.created and order.cancelled
        db().exec(QStringLiteral("INSERT INTO idempotency_keys (scope, idem_key, fingerprint, status, "
                                 "  failure_retryable, response_status, response_body, expires_at) "
                                 "VALUES ('orders', 'refused', repeat('a', 64), 'failed', false, 422, '{}', "
                                 "  now() + interval '1 day')"));

        const auto window = ConsoleTesting::openWindow(db().settings());
        QVERIFY(window);
        auto* tabs = window->findChild<QTabWidget*>();
        KeysView* keys = window->keysView();
        tabs->setCurrentWidget(keys);
        QTRY_COMPARE_WITH_TIMEOUT(keys->model()->rowCount(), 3, 10'000);
        const auto select = [&](const QString& key) {
            for (int row = 0; row < keys->model()->rowCount(); ++row) {
                if (keys->model()->rowAt(row).key == key)
                    keys->table()->selectRow(row);
            }
        };
        QAction* showRows = keys->showOutboxRowsAction();
        auto* paneButton = keys->findChild<QPushButton*>(QStringLiteral("showOutboxRows"));
        QVERIFY(paneButton);

        select(QStringLiteral("refused"));
        QVERIFY(!showRows->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(
            keys->findChild<QLabel*>(QStringLiteral("summary"))->text().contains(QStringLiteral("refused")), 10'000);
        QVERIFY(!paneButton->isEnabled());

        OutboxView& outbox = *window->outboxView();
        select(QStringLiteral("checkout-a"));
        QVERIFY(showRows->isEnabled());
        showRows->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(tabs->currentWidget(), &outbox, 10'000);
        QCOMPARE(outbox.filter().ids, QList<qint64> { created });
        QVERIFY(ConsoleTesting::waitForRows(outbox, 1));
        QCOMPARE(outbox.model()->rowAt(0).id, created);

        // The same from the detail pane, once it shows the key.
        outbox.showFilter(OutboxFilter {});
        tabs->setCurrentWidget(keys);
        QTRY_VERIFY_WITH_TIMEOUT(paneButton->isEnabled(), 10'000);
        QTest::mouseClick(paneButton, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tabs->currentWidget(), &outbox, 10'000);
        QCOMPARE(outbox.filter().ids, QList<qint64> { created });
        QVERIFY(ConsoleTesting::waitForRows(outbox, 1));
    }

    // File → Export list… exports the filter of the tab in front: here every key, not just the loaded page.
    void exportListFollowsTheCurrentTab()
    {
        db().exec(QStringLiteral("INSERT INTO idempotency_keys (scope, idem_key, fingerprint, status, response_status, "
                                 "  expires_at) SELECT 's', 'key-' || g, repeat('a', 64), 'completed', 201, "
                                 "  now() + interval '1 day' FROM generate_series(1, 1500) g"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        window->findChild<QTabWidget*>()->setCurrentWidget(window->keysView());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keys.jsonl"));
        ExportRunner* runner = window->exportListTo(path);
        QSignalSpy finished(runner, &ExportRunner::finished);
        QVERIFY(finished.wait(10'000));
        QCOMPARE(finished.first().at(0).toLongLong(), 1500LL);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count('\n'), 1500);
    }

    // Select failed rows, press Retry, confirm: they are pending and audited. A row that another operator
    // requeued and the relay published while the dialog was open is left alone and reported.
    void retrySelectedRowsFromTheUi()
    {
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        OutboxFilter failed;
        failed.statuses = { OutboxStatus::Failed };
        view.showFilter(failed);
        QVERIFY(ConsoleTesting::waitForRows(view, 5));
        ConsoleTesting::selectIds(view, { 6, 7, 8 });
        QVERIFY(view.requeueSelectedAction()->isEnabled());

        QSignalSpy finished(&view, &OutboxView::actionFinished);
        ConsoleTesting::answerNextDialog(this, QStringLiteral("broker fixed"), [this](OperatorActionDialog&) {
            db().exec(QStringLiteral("UPDATE outbox SET status = 'published', published_at = now() WHERE id = 7"));
        });
        view.requeueSelectedAction()->trigger();
        QVERIFY(finished.wait(10'000));
        QVERIFY2(finished.first().first().toString().contains(QStringLiteral("2 row(s) changed"))
                && finished.first().first().toString().contains(QStringLiteral("1 left alone")),
            qPrintable(finished.first().first().toString()));
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(id || ':' || status, ',' ORDER BY id) FROM outbox "
                                            "WHERE id IN (6, 7, 8)"))
                     .toString(),
            QStringLiteral("6:pending,7:published,8:pending"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT reason || ' ' || entity_ids::text FROM audit_log")).toString(),
            QStringLiteral("broker fixed {6,8}"));
    }

    // "Retry all matching" acts on the frozen set shown in the dialog: a row that fails after the dialog
    // opened is not touched.
    void retryAllMatchingActsOnTheFrozenSet()
    {
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        // The Outbox tab's actions act on its list: on another tab they are off, in the Actions menu too.
        window->findChild<QTabWidget*>()->setCurrentWidget(window->auditView());
        QVERIFY(!view.requeueMatchingAction()->isEnabled());
        ConsoleTesting::showOutboxTab(*window);
        OutboxFilter dead;
        dead.statuses = { OutboxStatus::Dead };
        view.showFilter(dead);
        QVERIFY(ConsoleTesting::waitForRows(view, 5));
        QVERIFY(view.requeueMatchingAction()->isEnabled());
        QSignalSpy finished(&view, &OutboxView::actionFinished);
        ConsoleTesting::answerNextDialog(this, QStringLiteral("incident 4711"), [this](OperatorActionDialog&) {
            db().exec(QStringLiteral("UPDATE outbox SET status = 'dead' WHERE id = 40"));
        });
        view.requeueMatchingAction()->trigger();
        QVERIFY(finished.wait(10'000));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE id <= 5 AND status = 'pending'"))
                     .toLongLong(),
            5LL);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT status FROM outbox WHERE id = 40")).toString(), QStringLiteral("dead"));
    }

    void viewerCannotAct()
    {
        const QString login = QStringLiteral("tst_console_viewer_%1").arg(QCoreApplication::applicationPid());
        const ConnectionSettings viewer = db().createLoginRole(login, QStringLiteral("outbox_viewer"));
        const auto window = ConsoleTesting::openWindow(viewer, QSize(1400, 800));
        QVERIFY(window);
        QVERIFY(!window->session().mayChangeOutbox);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window); // where the actions would be on for an operator
        OutboxFilter failed;
        failed.statuses = { OutboxStatus::Failed };
        view.showFilter(failed);
        QVERIFY(ConsoleTesting::waitForRows(view, 5));
        ConsoleTesting::selectIds(view, { 6 });
        QVERIFY(!view.requeueSelectedAction()->isEnabled());
        QVERIFY(!view.requeueMatchingAction()->isEnabled());
        QVERIFY(view.requeueSelectedAction()->toolTip().contains(QStringLiteral("outbox_operator")));

        // The server is the real guard: the same action attempted anyway fails cleanly and changes nothing.
        DatabaseClient worker(QStringLiteral("viewer-actions"));
        QVERIFY(ListModelTesting::openWorker(worker, viewer));
        BulkActionRunner* runner
            = BulkActionRunner::start(worker, window.get(), QStringLiteral("Requeue"), { 6 }, QStringLiteral("sneaky"),
                [](OutboxOperator& op, const QList<qint64>& ids, const QString& reason,
                    const OutboxOperator::Progress& progress) {
                    return op.requeue(ids, reason, {}, OutboxOperator::DefaultBatchSize, progress);
                });
        QSignalSpy failedSpy(runner, &BulkActionRunner::failed);
        QVERIFY(failedSpy.wait(10'000));
        QVERIFY(failedSpy.first().first().toString().contains(QStringLiteral("outbox_operator")));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT status FROM outbox WHERE id = 6")).toString(), QStringLiteral("failed"));
    }

    // Qt would decode "host=\xfe" and "host=\xff" both as "host=\ufffd": another server than the one asked for.
    void anOptionWhoseBytesAreNotUtf8IsRefused_data()
    {
        QTest::addColumn<QByteArray>("option");
        QTest::addColumn<QByteArray>("diagnostic");
        QTest::newRow("--dsn") << QByteArray("--dsn")
                               << QByteArray("--dsn: the value is not valid UTF-8 (byte 0xff at character 6)");
        QTest::newRow("--demo-keep") << QByteArray(
            "--demo-keep") << QByteArray("--demo-keep: the value is not valid UTF-8 (byte 0xff at character 6)");
    }

    void anOptionWhoseBytesAreNotUtf8IsRefused()
    {
        QFETCH(QByteArray, option);
        QFETCH(QByteArray, diagnostic);
        const ProcessTesting::Run run = ProcessTesting::runWithBytes(
            QStringLiteral(OUTBOX_CONSOLE_PATH), { option, "host=\xff" }, consoleEnvironment(true));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith("outbox-console: ") && run.err.count('\n') == 1, run.err.constData());
        QVERIFY2(run.err.contains(diagnostic), run.err.constData());
    }

    // The manual page describes every option --help lists, and needs no display: the build writes it.
    void manPageListsWhatHelpLists()
    {
        const ProcessTesting::Run man = ProcessTesting::run(
            QStringLiteral(OUTBOX_CONSOLE_PATH), { QStringLiteral("--man-page") }, consoleEnvironment(false));
        QCOMPARE(man.exitCode, 0);
        const QString page = QString::fromUtf8(man.out);
        QVERIFY(page.startsWith(QStringLiteral(".TH \"OUTBOX-CONSOLE\" \"1\"")));
        const ProcessTesting::Run help = ProcessTesting::run(
            QStringLiteral(OUTBOX_CONSOLE_PATH), { QStringLiteral("--help") }, consoleEnvironment(false));
        QCOMPARE(help.exitCode, 0);
        const QStringList options = ManPageTesting::optionsOf(QString::fromUtf8(help.out));
        QVERIFY2(options.size() >= 7, qPrintable(options.join(QLatin1Char(' '))));
        for (const QString& option : options)
            QVERIFY2(page.contains(ManPageTesting::entryOf(option)), qPrintable(option));
    }

    // Answered whether or not there is a display: without one, QApplication would abort (exit 134, a core dump).
    void theCommandLineIsAnsweredWithoutADisplay_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<bool>("display");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("out");
        QTest::addColumn<QByteArray>("err");
        const QStringList help { QStringLiteral("--help") };
        const QStringList unknown { QStringLiteral("--bogus") };
        const QStringList missingValue { QStringLiteral("--dsn") };
        const QStringList argument { QStringLiteral("extra") };
        QTest::newRow("help, no display") << help << false << 0 << QByteArray("--demo-keep <DIR>") << QByteArray();
        QTest::newRow("help, offscreen") << help << true << 0 << QByteArray("--demo-keep <DIR>") << QByteArray();
        QTest::newRow("unknown option, no display")
            << unknown << false << 2 << QByteArray() << QByteArray("outbox-console: Unknown option 'bogus'.");
        QTest::newRow("unknown option, offscreen")
            << unknown << true << 2 << QByteArray() << QByteArray("outbox-console: Unknown option 'bogus'.");
        QTest::newRow("value missing, no display")
            << missingValue << false << 2 << QByteArray() << QByteArray("Missing value after '--dsn'.");
        QTest::newRow("an argument, no display")
            << argument << false << 2 << QByteArray() << QByteArray("unexpected argument 'extra'");
        QTest::newRow("nothing to answer, no display")
            << QStringList() << false << 1 << QByteArray()
            << QByteArray("outbox-console: no display to open the window on");
    }

    void theCommandLineIsAnsweredWithoutADisplay()
    {
        QFETCH(QStringList, arguments);
        QFETCH(bool, display);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, out);
        QFETCH(QByteArray, err);
        const ProcessTesting::Run run
            = ProcessTesting::run(QStringLiteral(OUTBOX_CONSOLE_PATH), arguments, consoleEnvironment(display));
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.out.contains(out), run.out.constData());
        if (err.isEmpty()) {
            QVERIFY2(run.err.isEmpty(), run.err.constData());
        } else {
            QVERIFY2(run.err.contains(err) && run.err.count('\n') == 1, run.err.constData());
        }
    }

    // QT_QPA_PLATFORM set but empty chooses no platform: Qt would try its default one, find no display and abort (exit
    // 134, a core dump). --help, --version and --man-page load no platform at all, and without them the lack of a
    // display is said.
    void anEmptyPlatformIsNoDisplay_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("out");
        QTest::addColumn<QByteArray>("err");
        QTest::newRow("--help") << QStringList { QStringLiteral("--help") } << 0 << QByteArray("--demo-keep <DIR>")
                                << QByteArray();
        QTest::newRow("--version") << QStringList { QStringLiteral("--version") } << 0
                                   << QByteArray("outbox-console " OUTBOX_PROJECT_VERSION " (schema version ")
                                   << QByteArray();
        QTest::newRow("--man-page") << QStringList { QStringLiteral("--man-page") } << 0
                                    << QByteArray(".TH \"OUTBOX-CONSOLE\" \"1\"") << QByteArray();
        QTest::newRow("nothing to answer")
            << QStringList() << 1 << QByteArray() << QByteArray("outbox-console: no display to open the window on");
    }

    void anEmptyPlatformIsNoDisplay()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, out);
        QFETCH(QByteArray, err);
        QProcessEnvironment environment = consoleEnvironment(false);
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QString());
        const ProcessTesting::Run run
            = ProcessTesting::run(QStringLiteral(OUTBOX_CONSOLE_PATH), arguments, environment);
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        QVERIFY2(run.out.contains(out), run.out.constData());
        if (err.isEmpty()) {
            QVERIFY2(run.err.isEmpty(), run.err.constData());
        } else {
            QVERIFY2(run.err.contains(err) && run.err.count('\n') == 1, run.err.constData());
        }
    }

    // The help is for the person about to open the window: it speaks the console's language, display or not.
    void theHelpSpeaksTheConsolesLanguage_data()
    {
        QTest::addColumn<bool>("display");
        QTest::newRow("no display") << false;
        QTest::newRow("offscreen") << true;
    }

    void theHelpSpeaksTheConsolesLanguage()
    {
        QFETCH(bool, display);
        QProcessEnvironment environment = consoleEnvironment(display);
        for (const QString& variable : { QStringLiteral("LC_ALL"), QStringLiteral("LC_MESSAGES") })
            environment.remove(variable);
        environment.insert(QStringLiteral("LANG"), QStringLiteral("ko_KR.UTF-8"));
        environment.insert(QStringLiteral("LANGUAGE"), QStringLiteral("ko"));
        const ProcessTesting::Run run
            = ProcessTesting::run(QStringLiteral(OUTBOX_CONSOLE_PATH), { QStringLiteral("--help") }, environment);
        QCOMPARE(run.exitCode, 0);
        const QString help = QString::fromUtf8(run.out);
        // The options keep their names; what they do is said in Korean.
        QVERIFY2(help.contains(QLatin1String("--demo-keep")), run.out.constData());
        const QString demoLine = help.section(QLatin1String("--demo "), 1).section(QLatin1Char('\n'), 0, 0);
        QVERIFY2(std::any_of(demoLine.cbegin(), demoLine.cend(),
                     [](QChar c) { return c.unicode() >= 0xAC00 && c.unicode() <= 0xD7A3; }),
            run.out.constData());
    }

    // A --dsn that fails (libpq cannot parse it, or the server refuses) opens the dialog holding it, to be
    // corrected rather than retyped, with the error; the status bar no longer says it is connecting.
    void aDsnThatFailsOpensTheDialogHoldingIt_data()
    {
        QTest::addColumn<QString>("dsn");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("status");
        QTest::newRow("unparseable") << QStringLiteral("host='db.internal dbname=orders")
                                     << QStringLiteral("unterminated quoted string") << QString();
        QTest::newRow("refused") << QStringLiteral("host=127.0.0.1 port=1 connect_timeout=5")
                                 << QStringLiteral("Connection refused. Is the server running")
                                 << QStringLiteral("Not connected — File → Connect…");
    }

    void aDsnThatFailsOpensTheDialogHoldingIt()
    {
        QFETCH(QString, dsn);
        QFETCH(QString, error);
        QFETCH(QString, status);
        MainWindow window;
        window.show();
        QString shownDsn;
        QString shownError;
        QString shownStatus;
        QTimer poll;
        poll.setInterval(10);
        connect(&poll, &QTimer::timeout, this, [&] {
            auto* dialog = qobject_cast<ConnectDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            poll.stop();
            shownDsn = dialog->findChild<QLineEdit*>(QStringLiteral("dsn"))->text();
            shownError = dialog->findChild<QLabel*>(QStringLiteral("error"))->text();
            shownStatus = window.findChild<QLabel*>(QStringLiteral("server"))->text();
            dialog->reject();
        });
        poll.start();
        window.connectToDsn(dsn);
        QVERIFY(QTest::qWaitFor([&] { return !poll.isActive(); }, 15'000));
        QCOMPARE(shownDsn, dsn);
        QVERIFY2(shownError.contains(error), qPrintable(shownError));
        if (!status.isEmpty())
            QCOMPARE(shownStatus, status);
    }

    void lostConnectionShowsTheBannerAndRecovers()
    {
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        QVERIFY(ConsoleTesting::waitForRows(view, 40));
        // The console's connections: reads (which LISTENs), searches and operator actions.
        const auto consoleBackends = [this](const QString& condition, const QVariantList& binds = {}) {
            return db()
                .scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                       "'outbox-console' AND datname = current_database() AND ")
                        + condition,
                    binds)
                .toInt();
        };
        QCOMPARE(consoleBackends(QStringLiteral("true")), 3);
        // What Qt says meanwhile, for the console's message filter (ConnectionLossEchoes) to judge.
        // The workers' threads say it too: under a lock.
        static QMutex qtSaidMutex;
        static QStringList qtSaid;
        static QtMessageHandler passOn = nullptr;
        qtSaid.clear();
        passOn = qInstallMessageHandler([](QtMsgType type, const QMessageLogContext& context, const QString& text) {
            {
                const QMutexLocker locker(&qtSaidMutex);
                qtSaid << text;
            }
            passOn(type, context, text);
        });
        const auto restoreHandler = qScopeGuard([] { qInstallMessageHandler(passOn); });
        // As a server restart cuts them: all at once, though only the one in use notices at once.
        db().exec(QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                 "WHERE application_name = 'outbox-console' AND datname = current_database()"));
        const QString cutAt = db().scalar(QStringLiteral("SELECT now()::text")).toString();
        // Noticed by the next query or the heartbeat, whichever comes first.
        window->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(window->banner()->isVisible(), 3 * DatabaseClient::HeartbeatMs);
        QVERIFY(window->banner()->text().contains(QStringLiteral("Reconnecting")));
        QTRY_VERIFY_WITH_TIMEOUT(window->banner()->text().contains(QStringLiteral("Reconnected")), 15'000);
        // Reconnected means all of them: an idle one that noticed only at its next heartbeat would make the banner
        // say lost again after this.
        QCOMPARE(consoleBackends(QStringLiteral("backend_start > ?::timestamptz"), { cutAt }), 3);
        QCOMPARE(consoleBackends(QStringLiteral("true")), 3);
        // When libpq closed the LISTEN socket on the loss, Qt's event loop warns of it (if it polls the socket before
        // the number is reused): an echo of the loss the banner told, which the console drops from its stderr like the
        // driver's own echoes (tst_outboxqueries tests the classification itself).
        const QStringList qtMessages = [] {
            const QMutexLocker locker(&qtSaidMutex);
            return qtSaid;
        }();
        for (const QString& text : qtMessages) {
            if (text.startsWith(QLatin1String("QSocketNotifier:")))
                QVERIFY2(DbSession::echoesALostConnection(text), qPrintable(text));
        }
        const QList<MessageLog::Entry>& said = window->messages()->entries();
        QCOMPARE(std::count_if(said.cbegin(), said.cend(),
                     [](const MessageLog::Entry& entry) { return entry.text.startsWith(QLatin1String("Connection")); }),
            2);
        db().exec(QStringLiteral("UPDATE outbox SET attempts = 99 WHERE id = 40"));
        window->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount() > 0 ? view.model()->rowAt(0).attempts : -1, 99, 10'000);
    }

    // New rows arriving while the operator works on the list (a row selected) go above the rows they see, which
    // stay where they are on screen, selection included: nothing moves under the pointer.
    void aLiveReloadKeepsTheRowsInPlace()
    {
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        QVERIFY(ConsoleTesting::waitForRows(view, 40));
        QTableView* table = view.table();
        QCOMPARE(table->verticalScrollBar()->value(), 0);
        ConsoleTesting::selectIds(view, { 37 });
        const int y = table->visualRect(view.model()->index(view.model()->rowOfId(37), 0)).y();
        db().exec(
            QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                           "SELECT 'order', g::text, 'order.created', '{}', 'k' || g FROM generate_series(41, 45) g"));
        db().exec(QStringLiteral("SELECT pg_notify(?, '')"), { ChangeNotifier::Channel });
        QVERIFY(ConsoleTesting::waitForRows(view, 45));
        const int row = view.model()->rowOfId(37);
        QCOMPARE(row, 8);
        QCOMPARE(table->visualRect(view.model()->index(row, 0)).y(), y);
        QCOMPARE(ListViewSetup::selectedIds(table, OutboxTableModel::IdRole), QList<qint64>({ 37 }));
        // The new rows are above: scrolling up shows them.
        QCOMPARE(table->verticalScrollBar()->value(), 5);
        QCOMPARE(view.model()->rowAt(0).id, 45LL);

        // Nothing selected (and no pointer over it), the top of the list follows the new rows.
        table->clearSelection();
        table->verticalScrollBar()->setValue(0);
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                 "VALUES ('order', '46', 'order.created', '{}', 'k46')"));
        window->refreshLive();
        QVERIFY(ConsoleTesting::waitForRows(view, 46));
        QCOMPARE(table->verticalScrollBar()->value(), 0);
    }

    // View → Pause live updates holds the lists still: notifications and the auto-refresh read nothing, the status
    // bar says so, F5 still re-reads, and unpausing reads what was held back.
    void pausedLiveUpdatesHoldTheLists()
    {
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        QVERIFY(ConsoleTesting::waitForRows(view, 40));
        QAction* pause = window->pauseLiveUpdatesAction();
        pause->trigger();
        QVERIFY(pause->isChecked());
        const auto pausedLabel = [&] {
            for (const QLabel* label : window->statusBar()->findChildren<QLabel*>()) {
                if (label->text().startsWith(QLatin1String("Live updates paused")))
                    return label->isVisible();
            }
            return false;
        };
        QVERIFY(pausedLabel());
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                 "VALUES ('order', '41', 'order.created', '{}', 'k41')"));
        window->refreshLive();
        QVERIFY(!view.model()->isLoading()); // a reload would be on its way now
        QCOMPARE(view.model()->rowCount(), 40);
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-live-updates-paused.png"));
        window->refresh(); // F5
        QVERIFY(ConsoleTesting::waitForRows(view, 41));

        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                 "VALUES ('order', '42', 'order.created', '{}', 'k42')"));
        pause->trigger();
        QVERIFY(!pausedLabel());
        QVERIFY(ConsoleTesting::waitForRows(view, 42));
        window->refreshLive();
        QVERIFY(view.model()->isLoading());
    }

    // A change made through the product (an order created with outboxctl, which notifies after its commit)
    // reaches an open console by the notification alone: the auto-refresh is off, so no timer can bring the row.
    void liveRefreshOnNotification()
    {
        const auto autoRefreshOff = ConsoleTesting::withoutAutoRefresh();
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        QVERIFY(ConsoleTesting::waitForRows(view, 40));
        const ProcessTesting::Run created = ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("create-order"), QStringLiteral("--dsn"), db().dsn(), QStringLiteral("--key"),
                QStringLiteral("live-1"), QStringLiteral("--customer"), QStringLiteral("alice"),
                QStringLiteral("--amount"), QStringLiteral("5.00") });
        QVERIFY2(created.exitCode == 0, created.err.constData());
        QVERIFY(ConsoleTesting::waitForRows(view, 41));
        QCOMPARE(view.model()->rowAt(0).id, db().scalar(QStringLiteral("SELECT max(id) FROM outbox")).toLongLong());
    }

    // "Export…" writes every row matching the filter, not just the loaded page, and a cancelled export leaves
    // no file behind.
    void exportWritesEveryMatchingRow()
    {
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                 "  status) SELECT 'order', g::text, 'order.created', '{}', 'x' || g, 'dead' "
                                 "FROM generate_series(41, 3040) g"));
        DatabaseClient worker(QStringLiteral("export"));
        QVERIFY(ListModelTesting::openWorker(worker, db().settings()));
        QTemporaryDir dir;
        OutboxFilter dead;
        dead.statuses = { OutboxStatus::Dead };
        const QString csv = dir.filePath(QStringLiteral("dead.csv"));
        QCOMPARE(ExportRunner::formatForPath(csv), RecordTable::Format::Csv);
        ExportRunner* runner = ExportRunner::exportOutbox(worker, nullptr, dead, RecordTable::Format::Csv, csv);
        QSignalSpy finished(runner, &ExportRunner::finished);
        QVERIFY(finished.wait(10'000));
        QCOMPARE(finished.first().at(0).toLongLong(), 3005LL);
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count("\r\n"), 3006); // header + every dead row

        const QString unwritable = dir.filePath(QStringLiteral("no/such/dir/keys.jsonl"));
        ExportRunner* failing
            = ExportRunner::exportKeys(worker, nullptr, KeyFilter {}, RecordTable::Format::JsonLines, unwritable);
        QSignalSpy failed(failing, &ExportRunner::failed);
        QVERIFY(failed.wait(10'000));
        QVERIFY(failed.first().first().toString().contains(unwritable));
        QVERIFY(!QFile::exists(unwritable));
    }

    // Renders the main window's tabs with seeded data, saves the PNGs as test artifacts for a person to look
    // at (the screenshots of README.md and docs/ come from here), and checks they are not blank.
    void screenshot()
    {
        db().exec(QStringLiteral(
            "INSERT INTO outbox_attempts (outbox_id, attempt, worker, error, created_at) "
            "SELECT id, a, 'relay-1/w' || (a % 2), (ARRAY['broker unavailable: connection refused', "
            "  'publish not confirmed within 5000 ms', 'channel closed by broker: 406 PRECONDITION_FAILED'])[a], "
            "  now() - (4 - a) * interval '1 minute' "
            "FROM outbox, generate_series(1, 3) a WHERE status = 'dead'"));
        MetricsRecorder metrics;
        auto session = db().openSession();
        CreateOrderHandler handler(*session, metrics);
        for (int i = 1; i <= 12; ++i) {
            CreateOrderRequest request;
            request.key = QStringLiteral("checkout-%1").arg(i, 4, 10, QLatin1Char('0'));
            request.customer = QStringLiteral("customer-%1").arg(i);
            request.amount = QStringLiteral("%1.90").arg(i * 7);
            handler.handle(request);
            if (i % 3 == 0)
                handler.handle(request); // a client retry: replayed
        }
        metrics.flush(*session);

        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        OutboxFilter needsAttention;
        needsAttention.statuses = { OutboxStatus::Failed, OutboxStatus::Dead };
        view.showFilter(needsAttention);
        QVERIFY(ConsoleTesting::waitForRows(view, 10));
        ConsoleTesting::selectIds(view, { 5 });
        auto* detail = view.findChild<OutboxDetailPane*>();
        detail->findChild<QTabWidget*>()->setCurrentIndex(3);
        QTRY_VERIFY_WITH_TIMEOUT(detail->findChild<QLabel*>()->text().contains(QStringLiteral("#5 ")), 10'000);
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-outbox.png"));

        auto* tabs = window->findChild<QTabWidget*>();
        tabs->setCurrentWidget(window->keysView());
        QTRY_COMPARE_WITH_TIMEOUT(window->keysView()->model()->rowCount(), 12, 10'000);
        window->keysView()->table()->selectRow(2);
        const QLabel* keySummary = window->keysView()->findChild<KeyDetailPane*>()->findChild<QLabel*>();
        QTRY_VERIFY_WITH_TIMEOUT(keySummary->text().contains(QStringLiteral("checkout-")), 10'000);
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-keys.png"));
    }

    // The fleet on the Overview, with a real relay process: running, it is listed alive; killed with SIGKILL it is
    // gone (its sessions closed) within seconds, long before three missed heartbeats would make it stale, in red;
    // with rows waiting past the warning level and nothing published, the red "Nothing is publishing" warning
    // shows and says why.
    void overviewShowsTheFleet()
    {
        QSettings().setValue(QStringLiteral("thresholds/oldestPendingAgeSeconds"), 3);
        const auto restoreLevel
            = qScopeGuard([] { QSettings().remove(QStringLiteral("thresholds/oldestPendingAgeSeconds")); });
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        window->findChild<QTabWidget*>()->setCurrentWidget(window->overview());
        OverviewPage* overview = window->overview();
        QAbstractItemModelTester tester(overview->relays(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto stateOf = [&](const QString& name) {
            window->refresh();
            const RelayFleetModel* relays = overview->relays();
            for (int row = 0; row < relays->rowCount(); ++row) {
                if (relays->index(row, RelayFleetModel::Name).data().toString() == name)
                    return relays->index(row, RelayFleetModel::State).data(RelayFleetModel::StateRole).toString();
            }
            return QString();
        };

        RelayProcess relay(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("relay"), QStringLiteral("--dsn"), db().dsn(), QStringLiteral("--name"),
                QStringLiteral("console-relay"), QStringLiteral("--heartbeat-seconds"), QStringLiteral("5") });
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("console-relay")), QStringLiteral("alive"), 15'000);
        QTRY_COMPARE_WITH_TIMEOUT(overview->figure(QStringLiteral("pending")), QStringLiteral("0"), 15'000);
        // The same read saw the relay publish: failed rows wait, but something is being published.
        QVERIFY(!overview->warnsNothingPublishing());

        relay.kill();
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                 "SELECT 'order', g::text, 'order.created', '{}', 'after-kill-' || g "
                                 "FROM generate_series(1, 25) g"));
        // Stale would take three heartbeats, 15 s.
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("console-relay")), QStringLiteral("gone"), 5'000);
        // Once the new rows have waited past the level (3 s), with nothing published since.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                window->refresh();
                return overview->warnsNothingPublishing();
            }(),
            10'000);
        const auto* warning = overview->findChild<QLabel*>(QStringLiteral("nothingPublishing"));
        QVERIFY(warning);
        QVERIFY2(warning->text().contains(QStringLiteral("No relay is running")), qPrintable(warning->text()));
        QTRY_COMPARE_WITH_TIMEOUT(overview->figure(QStringLiteral("pending")), QStringLiteral("25"), 10'000);
        const QModelIndex state = overview->relays()->index(0, RelayFleetModel::State);
        QCOMPARE(state.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(0xdc, 0x32, 0x2f));
        // One word in the cell, so that the columns after it stay where they are; the tooltip explains it.
        QCOMPARE(state.data().toString(), QStringLiteral("gone"));
        QVERIFY2(state.data(Qt::ToolTipRole).toString().contains(QStringLiteral("process died")),
            qPrintable(state.data(Qt::ToolTipRole).toString()));
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-fleet.png"));
    }

    // The Failures tab: the failed and dead rows by cause, largest first; Show rows opens a group in the outbox
    // list, Retry group requeues exactly the group's rows through the audited requeue (dialog, reason).
    void failuresTabGroupsAndRetriesAGroup()
    {
        db().exec(QStringLiteral("UPDATE outbox SET last_error = CASE WHEN id % 5 = 0 "
                                 "  THEN 'message size ' || (id * 977) || ' larger than max 16384' "
                                 "  ELSE 'connect to 10.0.0.' || id || ':5672 failed: Connection refused' END "
                                 "WHERE status IN ('failed', 'dead')"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        auto* tabs = window->findChild<QTabWidget*>();
        FailuresView* failures = window->failuresView();
        QAbstractItemModelTester tester(failures->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        tabs->setCurrentWidget(failures);
        QTRY_COMPARE_WITH_TIMEOUT(failures->model()->rowCount(), 2, 10'000);
        const FailureGroup largest = failures->model()->rows().at(0);
        QCOMPARE(largest.signature, QStringLiteral("connect to <host> failed: Connection refused"));
        QCOMPARE(largest.rows(), 8LL); // ids 1..10 fail or are dead; 5 and 10 have the other cause
        QCOMPARE(failures->model()->rows().at(1).rows(), 2LL);
        failures->table()->selectRow(0);
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-failures.png"));

        emit failures->showOutbox(failures->selectedGroupFilter());
        QCOMPARE(tabs->currentWidget(), window->outboxView());
        QVERIFY(ConsoleTesting::waitForRows(*window->outboxView(), 8));

        tabs->setCurrentWidget(failures);
        ConsoleTesting::answerNextDialog(this, QStringLiteral("broker back after the network fix"));
        emit failures->retryGroup(failures->selectedGroupFilter());
        QTRY_COMPARE_WITH_TIMEOUT(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status IN ('failed', "
                                                             "'dead')"))
                                      .toLongLong(),
            2LL, 10'000);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT reason || ' ' || cardinality(entity_ids) FROM audit_log")).toString(),
            QStringLiteral("broker back after the network fix 8"));
        // The entry says it was a group retry, and which group; the Audit tab says so too.
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT details->>'signature' FROM audit_log")).toString(), largest.signature);
        tabs->setCurrentWidget(window->auditView());
        window->auditView()->showFilter(AuditFilter {});
        QTRY_COMPARE_WITH_TIMEOUT(window->auditView()->model()->rowCount(), 1, 10'000);
        window->auditView()->table()->selectRow(0);
        QVERIFY2(window->auditView()->detail()->toPlainText().contains(
                     QStringLiteral("From the failure group: %1").arg(largest.signature)),
            qPrintable(window->auditView()->detail()->toPlainText()));
        tabs->setCurrentWidget(failures);
        QTRY_COMPARE_WITH_TIMEOUT(failures->model()->rowCount(), 1, 10'000);
    }

    // What tells why a row is stuck comes first: the list's first columns, the detail pane's first tab for a failed
    // row, no next attempt for a row that has none, and times that are never cut off.
    void outboxListPutsTheCauseFirst()
    {
        db().exec(QStringLiteral("INSERT INTO outbox_attempts (outbox_id, attempt, worker, error) "
                                 "VALUES (6, 3, 'relay-1/w0', 'broker unavailable: connection refused')"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        view.showFilter(OutboxFilter {});
        QVERIFY(ConsoleTesting::waitForRows(view, 40));
        OutboxTableModel& model = *view.model();
        const QStringList first { QStringLiteral("Status"), QStringLiteral("Event"), QStringLiteral("Aggregate"),
            QStringLiteral("Attempts"), QStringLiteral("Last error") };
        for (int column = 0; column < first.size(); ++column)
            QCOMPARE(model.headerData(column, Qt::Horizontal).toString(), first.at(column));
        const QRect lastError = view.table()->visualRect(model.index(0, OutboxTableModel::LastError));
        QVERIFY2(lastError.right() < 1400, "Last error is off-screen at 1400 pixels");

        const int dead = model.rowOfId(3);
        const int failed = model.rowOfId(6);
        QVERIFY(model.index(dead, OutboxTableModel::NextAttempt).data().toString().isEmpty());
        QVERIFY(!model.index(failed, OutboxTableModel::NextAttempt).data().toString().isEmpty());

        auto* detail = view.findChild<OutboxDetailPane*>();
        auto* tabs = detail->findChild<QTabWidget*>();
        tabs->setCurrentIndex(0);
        ConsoleTesting::selectIds(view, { 6 });
        QTRY_COMPARE_WITH_TIMEOUT(tabs->tabText(tabs->currentIndex()), QStringLiteral("Last error"), 10'000);
        ConsoleTesting::selectIds(view, { 15 }); // pending: back to the payload
        QTRY_VERIFY_WITH_TIMEOUT(tabs->currentIndex() == 0, 10'000);
        // With the payload's size, as the locale writes it.
        QCOMPARE(tabs->tabText(0),
            QStringLiteral("Payload (%1)")
                .arg(QLocale().formattedDataSize(QStringLiteral(R"({"id": 15})").toUtf8().size())));
        ConsoleTesting::selectIds(view, { 6 });
        QTRY_VERIFY_WITH_TIMEOUT(tabs->tabText(3) == QStringLiteral("Attempts (1)"), 10'000);
        tabs->setCurrentIndex(3);
        auto* attempts = qobject_cast<QTreeWidget*>(tabs->currentWidget());
        QVERIFY(attempts);
        const QString time = attempts->topLevelItem(0)->text(0);
        QVERIFY2(attempts->columnWidth(0) >= attempts->fontMetrics().horizontalAdvance(time),
            qPrintable(QStringLiteral("'%1' in %2 pixels").arg(time).arg(attempts->columnWidth(0))));
    }

    // The Audit tab: who did what and why, newest first; the detail names the rows, Show rows opens exactly them.
    void auditTabShowsWhoDidWhatAndWhy()
    {
        {
            OutboxOperator outboxOperator(session());
            outboxOperator.requeue({ 1, 2, 3 }, QStringLiteral("first batch after the fix"));
            outboxOperator.requeue({ 6, 7 }, QStringLiteral("the two that were left"));
        }
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        AuditView* audit = window->auditView();
        QAbstractItemModelTester tester(audit->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window->findChild<QTabWidget*>()->setCurrentWidget(audit);
        QTRY_COMPARE_WITH_TIMEOUT(audit->model()->rowCount(), 2, 10'000);
        QCOMPARE(audit->model()->index(0, AuditTableModel::Reason).data().toString(),
            QStringLiteral("the two that were left"));
        QCOMPARE(audit->model()->index(0, AuditTableModel::Rows).data().toInt(), 2);
        audit->table()->selectRow(1);
        QVERIFY2(audit->detail()->toPlainText().contains(QStringLiteral("Reason: first batch after the fix")),
            qPrintable(audit->detail()->toPlainText()));
        // The states as a table, a line per row.
        for (const char* id : { "1", "2", "3" }) {
            QVERIFY2(QRegularExpression(QStringLiteral("^%1 +dead +pending$").arg(QLatin1String(id)),
                         QRegularExpression::MultilineOption)
                         .match(audit->detail()->toPlainText())
                         .hasMatch(),
                qPrintable(audit->detail()->toPlainText()));
        }
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-audit.png"));

        const auto buttons = audit->findChildren<QPushButton*>();
        const auto showRows = std::find_if(buttons.cbegin(), buttons.cend(),
            [](const QPushButton* button) { return button->text() == QStringLiteral("&Show rows"); });
        QVERIFY(showRows != buttons.cend());
        (*showRows)->click();
        QCOMPARE(window->findChild<QTabWidget*>()->currentWidget(), window->outboxView());
        QVERIFY(ConsoleTesting::waitForRows(*window->outboxView(), 3));
        QCOMPARE(window->outboxView()->filter().ids, (QList<qint64> { 1, 2, 3 }));

        AuditFilter nobody;
        nobody.actor = QStringLiteral("nobody");
        audit->showFilter(nobody);
        QTRY_VERIFY_WITH_TIMEOUT(!audit->model()->isLoading() && audit->model()->rowCount() == 0, 10'000);
    }

    // The Overview explains the counts: the largest failure groups with Retry group, the oldest unpublished rows
    // with why each waits, the last hour's chart and the last operator actions.
    void overviewExplainsWhatIsStuck()
    {
        db().exec(QStringLiteral("UPDATE outbox SET last_error = CASE WHEN id % 5 = 0 "
                                 "  THEN 'message size ' || (id * 977) || ' larger than max 16384' "
                                 "  ELSE 'connect to 10.0.0.' || id || ':5672 failed: Connection refused' END "
                                 "WHERE status IN ('failed', 'dead')"));
        // The oldest unpublished rows: a failed one, an in-flight one whose lease ran out, then pending ones.
        db().exec(QStringLiteral("UPDATE outbox SET created_at = now() - (100 - id) * interval '1 minute' "
                                 "WHERE id IN (6, 11, 13, 14, 15)"));
        // A relay alive in the registry, so the causes are the rows' own.
        db().exec(QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, "
                                 "lease_ms, heartbeat_ms) VALUES ('relay-1', 'host-a', 1, 'test', 'stdout', 1, 10, "
                                 "30000, 3600000)"));
        db().exec(QStringLiteral("INSERT INTO metric_rollups (bucket, shard, published, failed_attempts) "
                                 "SELECT date_trunc('minute', now()) - m * interval '1 minute', 0, 100 + m, m % 7 "
                                 "FROM generate_series(0, 59) m"));
        OutboxOperator(session()).requeue({ 1 }, QStringLiteral("one to see whether the broker took it"));

        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        window->findChild<QTabWidget*>()->setCurrentWidget(window->overview());
        OverviewPage* overview = window->overview();
        QAbstractItemModelTester groupsTester(
            overview->failureGroups(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester waitingTester(
            overview->waitingRows(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE_WITH_TIMEOUT(overview->failureGroups()->rowCount(), 2, 10'000);
        QCOMPARE(overview->failureGroups()->rows().at(0).signature,
            QStringLiteral("connect to <host> failed: Connection refused"));
        QCOMPARE(overview->failureGroups()->rows().at(0).rows(), 7LL); // 2..10 but 5 and 10; 1 was requeued
        QCOMPARE(overview->failureGroups()->rows().at(1).rows(), 2LL);

        const WaitingRowsModel* waiting = overview->waitingRows();
        QCOMPARE(waiting->rowCount(), 5);
        const QList<std::pair<qint64, WaitCause>> expected { { 6, WaitCause::Failing }, { 11, WaitCause::LeaseExpired },
            { 13, WaitCause::Queued }, { 14, WaitCause::Queued }, { 15, WaitCause::Queued } };
        for (int row = 0; row < 5; ++row) {
            QCOMPARE(waiting->rows().at(row).row.id, expected.at(row).first);
            QCOMPARE(int(waiting->rows().at(row).cause), int(expected.at(row).second));
        }
        QVERIFY2(waiting->index(0, WaitingRowsModel::Cause).data().toString().contains(QStringLiteral("10.0.0.6:5672")),
            qPrintable(waiting->index(0, WaitingRowsModel::Cause).data().toString()));
        QVERIFY(waiting->index(1, WaitingRowsModel::Cause).data().toString().contains(QStringLiteral("relay-1/w0")));

        const auto* actions = overview->findChild<QLabel*>(QStringLiteral("recentActions"));
        QVERIFY(actions->text().contains(QStringLiteral("one to see whether the broker took it")));
        QVERIFY(actions->text().contains(db().scalar(QStringLiteral("SELECT session_user")).toString()));
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-overview.png"));

        // Retry group from the Overview: the same audited requeue of the frozen group as the Failures tab's.
        auto* groups = overview->findChild<QTableView*>(QStringLiteral("failureGroups"));
        groups->selectRow(1);
        const auto buttons = overview->findChildren<QPushButton*>();
        const auto retry = std::find_if(buttons.cbegin(), buttons.cend(),
            [](const QPushButton* button) { return button->text() == QStringLiteral("&Retry group…"); });
        QVERIFY(retry != buttons.cend());
        QVERIFY((*retry)->isEnabled());
        ConsoleTesting::answerNextDialog(this, QStringLiteral("max frame size raised"));
        (*retry)->click();
        QTRY_COMPARE_WITH_TIMEOUT(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE reason = "
                                                             "'max frame size raised'"))
                                      .toLongLong(),
            1LL, 10'000);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status IN ('failed', 'dead') "
                                            "AND last_error LIKE 'message size%'"))
                     .toLongLong(),
            0LL);
        window->findChild<QTabWidget*>()->setCurrentWidget(window->overview());
        window->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(overview->failureGroups()->rowCount(), 1, 10'000);
    }

    // Finding a message by what it carries: its message id (the dedupe key) exactly, or text in its payload among
    // the rows of a created range, which typing in the payload field sets to the last day when none is set.
    void aMessageIsFoundByItsDedupeKeyOrPayload()
    {
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        QVERIFY(ConsoleTesting::waitForRows(view, 40));
        view.dedupeKeyEdit()->setText(QStringLiteral("k7"));
        QTRY_VERIFY_WITH_TIMEOUT(view.model()->rowCount() == 1 && !view.model()->isLoading(), 10'000);
        QCOMPARE(view.model()->rowAt(0).id, 7LL);
        QCOMPARE(view.filter().dedupeKey, QStringLiteral("k7"));
        view.dedupeKeyEdit()->setText(QStringLiteral("no such key"));
        QTRY_VERIFY_WITH_TIMEOUT(view.model()->rowCount() == 0 && !view.model()->isLoading(), 10'000);
        view.dedupeKeyEdit()->clear();

        QVERIFY(!view.filter().createdFrom.isValid());
        view.payloadContainsEdit()->setText(QStringLiteral("\"ID\": 13"));
        QTRY_VERIFY_WITH_TIMEOUT(view.model()->rowCount() == 1 && !view.model()->isLoading(), 10'000);
        QCOMPARE(view.model()->rowAt(0).id, 13LL);
        // The range it looked through is there to see and widen: the last day.
        const QDateTime from = view.filter().createdFrom;
        QVERIFY(from.isValid());
        QVERIFY(qAbs(from.secsTo(QDateTime::currentDateTimeUtc().addDays(-1))) < 60);
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-find-by-payload.png"));
    }

    // The fleet list's Forget: enabled only while every selected relay does not run; confirmed with a reason, the
    // relay leaves the list and the audit log says so (with no outbox rows to show).
    void stoppedRelaysAreForgottenFromTheFleetList()
    {
        db().exec(
            QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, lease_ms, "
                           "  heartbeat_ms, stopped_at) VALUES "
                           "('relay-live', 'host-a', 1, 'test', 'null', 1, 10, 30000, 3600000, NULL), "
                           "('relay-old', 'host-b', 2, 'test', 'null', 1, 10, 30000, 3600000, now())"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        window->findChild<QTabWidget*>()->setCurrentWidget(window->overview());
        OverviewPage* overview = window->overview();
        RelayFleetModel* relays = overview->relays();
        QTRY_COMPARE_WITH_TIMEOUT(relays->rowCount(), 2, 10'000);
        auto* table = overview->findChild<QTableView*>(QStringLiteral("relays"));
        auto* forget = overview->findChild<QPushButton*>(QStringLiteral("forgetRelays"));
        QVERIFY(table && forget);
        const int live = relays->rows().at(0).name == QLatin1String("relay-live") ? 0 : 1;
        table->selectionModel()->select(
            relays->index(1 - live, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(forget->isEnabled());
        table->selectionModel()->select(
            relays->index(live, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QVERIFY(!forget->isEnabled());
        QVERIFY(forget->toolTip().contains(QStringLiteral("running relay")));
        table->selectionModel()->select(
            relays->index(1 - live, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        // A refresh replaces the list: the selection stays.
        overview->refresh();
        QSignalSpy reset(relays, &QAbstractItemModel::modelReset);
        QVERIFY(reset.wait(10'000));
        QVERIFY(forget->isEnabled());

        QSignalSpy posted(window->messages(), &MessageLog::posted);
        ConsoleTesting::answerNextDialog(
            this, QStringLiteral("host-b decommissioned"), [](OperatorActionDialog& dialog) {
                // (This test runs without the English catalogue: plurals read "(s)".)
                QVERIFY2(dialog.windowTitle().startsWith(QStringLiteral("Forget 1 relay")),
                    qPrintable(dialog.windowTitle()));
                QVERIFY(!dialog.laterButton()->isVisible());
            });
        forget->click();
        QVERIFY(posted.wait(10'000));
        const QString message = posted.last().first().value<MessageLog::Entry>().text;
        QVERIFY2(
            message.startsWith(QStringLiteral("Forgot 1 relay")) && !message.contains(QStringLiteral("left alone")),
            qPrintable(message));
        QTRY_COMPARE_WITH_TIMEOUT(relays->rowCount(), 1, 10'000);
        QCOMPARE(relays->rows().first().name, QStringLiteral("relay-live"));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT action || ' ' || entity || ' ' || reason FROM audit_log")).toString(),
            QStringLiteral("forget relay relay host-b decommissioned"));
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-fleet-forgotten.png"));

        AuditView* audit = window->auditView();
        window->findChild<QTabWidget*>()->setCurrentWidget(audit);
        audit->showFilter(AuditFilter {});
        auto* entries = audit->findChild<QTableView*>();
        QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 1, 10'000);
        entries->selectRow(0);
        QVERIFY(!audit->findChild<QPushButton*>()->isEnabled());
    }

    // Pause… beside the relays, prefilled with the selected relay's name, pauses an event type instead when the
    // operator says so; the pauses show above the relays (with the rows held once a claim parks them, in their own
    // tile), and Resume… on the selected one lets them go.
    void anEventTypeIsPausedAndResumedFromTheOverview()
    {
        db().exec(QStringLiteral(
            "INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, lease_ms, "
            "  heartbeat_ms) VALUES ('relay-live', 'host-a', 1, 'test', 'null', 1, 10, 30000, 3600000)"));
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', g::text, 'order.shipped', '{}') "
                                 "FROM generate_series(1, 3) AS g"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 900));
        QVERIFY(window);
        window->findChild<QTabWidget*>()->setCurrentWidget(window->overview());
        OverviewPage* overview = window->overview();
        QAbstractItemModelTester tester(overview->pauses(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE_WITH_TIMEOUT(overview->relays()->rowCount(), 1, 10'000);
        auto* pauses = overview->findChild<QTableView*>(QStringLiteral("pauses"));
        auto* pause = overview->findChild<QPushButton*>(QStringLiteral("pause"));
        auto* resume = overview->findChild<QPushButton*>(QStringLiteral("resume"));
        QVERIFY(pauses && pause && resume);
        QVERIFY(!pauses->isVisible());
        overview->findChild<QTableView*>(QStringLiteral("relays"))->selectRow(0);

        QSignalSpy posted(window->messages(), &MessageLog::posted);
        QString prefilled;
        ConsoleTesting::whenModalOpens<PauseDialog>(this, [&prefilled](PauseDialog& dialog) {
            prefilled = dialog.findChild<QLineEdit*>(QStringLiteral("target"))->text();
            fillPauseDialog(dialog, PauseScope::EventType, QStringLiteral("order.shipped"),
                QStringLiteral("shipping consumer down"));
        });
        pause->click();
        QVERIFY(posted.wait(10'000));
        QCOMPARE(prefilled, QStringLiteral("relay-live"));
        QCOMPARE(
            posted.last().first().value<MessageLog::Entry>().text, QStringLiteral("Paused event type order.shipped"));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT scope || ' ' || target || ' ' || reason FROM outbox_pauses")).toString(),
            QStringLiteral("event_type order.shipped shipping consumer down"));

        // A relay's claims meet the rows (behind the fixture's) and park them: each claim takes one lane's rows.
        while (!OutboxLeaseRepository(session())
                    .claimDue(QStringLiteral("r"), QStringLiteral("r/w0"), 1000, 30'000)
                    .messages.isEmpty()) { }
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'paused'")).toLongLong(), 3LL);
        // After the load that may be on its way: a refresh asked for meanwhile is dropped.
        QSignalSpy reset(overview->pauses(), &QAbstractItemModel::modelReset);
        QVERIFY(reset.wait(10'000));
        overview->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(overview->figure(QStringLiteral("paused")), QStringLiteral("3"), 10'000);
        QVERIFY(pauses->isVisible());
        QCOMPARE(overview->pauses()->rowCount(), 1);
        QCOMPARE(overview->pauses()->index(0, PausesModel::Parked).data().toString(), QStringLiteral("3"));
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-event-type-paused.png"));

        QVERIFY(!resume->isEnabled());
        pauses->selectRow(0);
        QVERIFY(resume->isEnabled());
        ConsoleTesting::whenModalOpens<PauseDialog>(this, [](PauseDialog& dialog) {
            QVERIFY(!dialog.findChild<QLineEdit*>(QStringLiteral("target"))->isVisible());
            fillPauseDialog(dialog, std::nullopt, {}, QStringLiteral("consumer back"));
        });
        resume->click();
        QVERIFY(posted.wait(10'000));
        QCOMPARE(posted.last().first().value<MessageLog::Entry>().text,
            QStringLiteral("Resumed event type order.shipped: 3 held row(s) let go"));
        QTRY_VERIFY_WITH_TIMEOUT(!pauses->isVisible(), 10'000);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'pending'")).toLongLong(), 3LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(action, ',' ORDER BY id) FROM audit_log")).toString(),
            QStringLiteral("pause,resume"));

        // A name no relay has is paused all the same (a relay may start under it), and the operator hears of it.
        ConsoleTesting::whenModalOpens<PauseDialog>(this, [](PauseDialog& dialog) {
            fillPauseDialog(dialog, PauseScope::Relay, QStringLiteral("relay-lvie"), QStringLiteral("maintenance"));
        });
        pause->click();
        QVERIFY(posted.wait(10'000));
        const QString typo = posted.last().first().value<MessageLog::Entry>().text;
        QVERIFY2(typo.startsWith(QStringLiteral("Paused relay relay-lvie"))
                && typo.contains(QStringLiteral("no relay of that name is registered")),
            qPrintable(typo));
    }

    // The Event types tab: a row per type with its rows per state (the fixture's 40 rows are all order.created), and
    // a double-click on a count opens exactly those rows in the outbox list.
    void eventTypesShowTheirRowsPerState()
    {
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', g::text, 'order.shipped', '{}') "
                                 "FROM generate_series(1, 2) AS g"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        EventTypesView* view = window->eventTypesView();
        QAbstractItemModelTester tester(view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window->findChild<QTabWidget*>()->setCurrentWidget(view);
        EventTypesModel* model = view->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 2, 10'000);
        QCOMPARE(model->index(0, EventTypesModel::EventType).data().toString(), QStringLiteral("order.created"));
        const int dead = EventTypesModel::statusColumn(OutboxStatus::Dead);
        QCOMPARE(model->index(0, dead).data().toString(),
            QString::number(
                db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'dead'")).toLongLong()));
        QCOMPARE(model->index(1, EventTypesModel::statusColumn(OutboxStatus::Pending)).data().toString(),
            QStringLiteral("2"));
        QCOMPARE(model->headerData(dead, Qt::Horizontal).toString(), QStringLiteral("dead"));
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-event-types.png"));

        emit view->table()->doubleClicked(model->index(0, dead));
        QTRY_COMPARE_WITH_TIMEOUT(window->findChild<QTabWidget*>()->currentWidget(), window->outboxView(), 10'000);
        QCOMPARE(window->outboxView()->filter().eventType, QStringLiteral("order.created"));
        QCOMPARE(window->outboxView()->filter().statuses, QList<OutboxStatus> { OutboxStatus::Dead });
    }

    // The live seconds below the types: the last five minutes of the selected type (all types without a selection),
    // complete up to where every running relay counted, the rest drawn apart and said so; re-read every second while
    // shown and live updates are on.
    void eventTypesShowTheLastSecondsLive()
    {
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', '1', 'order.shipped', '{}')"));
        db().exec(QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, "
                                 "  lease_ms, heartbeat_ms, counted_until) "
                                 "VALUES ('lagging-relay', 'test-host', 1, 'test', 'null:', 1, 1, 30000, 60000, "
                                 "  date_trunc('second', now()) - interval '20 seconds')"));
        const qint64 minuteAgo
            = db().scalar(QStringLiteral("SELECT epoch_ms(date_trunc('second', now()) - interval '60 seconds')"))
                  .toLongLong();
        db().exec(
            QStringLiteral("INSERT INTO outbox_throughput_seconds (second, event_type, published, failed, dead) "
                           "SELECT to_timestamp(?::bigint / 1000.0) + s * interval '1 second', t, 10 + s, "
                           "  CASE WHEN s % 10 = 0 THEN 2 ELSE 0 END, CASE WHEN s = 30 THEN 1 ELSE 0 END "
                           "FROM generate_series(0, 59) AS s, (VALUES ('order.created'), ('order.shipped')) AS v(t)"),
            { minuteAgo });
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 900));
        QVERIFY(window);
        EventTypesView* view = window->eventTypesView();
        SecondsPane* pane = view->seconds();
        QSignalSpy refreshed(pane, &SecondsPane::refreshed);
        window->findChild<QTabWidget*>()->setCurrentWidget(view);
        QVERIFY(refreshed.wait(10'000));
        QCOMPARE(refreshed.last().first().toString(), QString());
        QVERIFY(pane->isFollowing());
        const auto publishedIn = [&](qint64 fromMs, qint64 toMs) {
            qint64 sum = 0;
            for (const MetricPoint& point : pane->window().points) {
                if (point.start.toMSecsSinceEpoch() >= fromMs && point.start.toMSecsSinceEpoch() < toMs)
                    sum += point.counters.published;
            }
            return sum;
        };
        QCOMPARE(pane->window().points.size(), SecondsPane::WindowSeconds);
        QCOMPARE(publishedIn(minuteAgo, minuteAgo + 60'000), 2 * (60 * 10 + 59 * 60 / 2));
        QVERIFY(!pane->chart()->showsNoData());
        QVERIFY2(
            pane->caption()->text().startsWith(QLatin1String("Counted up to")), qPrintable(pane->caption()->text()));
        // The lagging relay holds completeness back 20 s: those seconds are drawn apart, not as a drop.
        QCOMPARE(pane->window().countedUntil.toMSecsSinceEpoch(),
            db().scalar(QStringLiteral("SELECT epoch_ms(counted_until) FROM relay_nodes")).toLongLong());

        QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 2, 10'000);
        const int shipped = view->model()->rowOfType(QStringLiteral("order.shipped"));
        QVERIFY(shipped >= 0);
        view->table()->selectRow(shipped);
        QCOMPARE(pane->eventType(), QStringLiteral("order.shipped"));
        QTRY_COMPARE_WITH_TIMEOUT(publishedIn(minuteAgo, minuteAgo + 60'000), 60 * 10 + 59 * 60 / 2, 10'000);
        QVERIFY(pane->chart()->chart()->title().contains(QLatin1String("order.shipped")));
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-event-types-live.png"));

        // Paused live updates stop the seconds too; resumed, they follow again.
        window->pauseLiveUpdatesAction()->trigger();
        QVERIFY(!pane->isFollowing());
        window->pauseLiveUpdatesAction()->trigger();
        QVERIFY(pane->isFollowing());
        // Away from the tab, nothing is read.
        window->findChild<QTabWidget*>()->setCurrentWidget(window->overview());
        QVERIFY(!pane->isFollowing());
    }

    // With a failure group's cause chip in the filter bar, at a laptop's width, every filter field still shows what
    // it filters: none is cut to "Eve…".
    void filterFieldsKeepTheirPlaceholdersBesideACauseChip()
    {
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1280, 800));
        QVERIFY(window);
        ConsoleTesting::showOutboxTab(*window);
        OutboxFilter group;
        group.errorSignature = QStringLiteral("connect to <host> failed: connection refused by the broker <n> times");
        group.statuses = { OutboxStatus::Failed, OutboxStatus::Dead };
        window->outboxView()->showFilter(group);
        QTRY_VERIFY_WITH_TIMEOUT(!window->outboxView()->model()->isLoading(), 10'000);
        const QList<QLineEdit*> edits = window->outboxView()->findChildren<QLineEdit*>();
        int checked = 0;
        for (const QLineEdit* edit : edits) {
            if (edit->placeholderText().isEmpty() || !edit->isVisible())
                continue;
            ++checked;
            const int needed = edit->fontMetrics().horizontalAdvance(edit->placeholderText());
            QVERIFY2(edit->width() >= needed + 24,
                qPrintable(QStringLiteral("'%1' is %2 px wide, its text %3 px")
                               .arg(edit->placeholderText())
                               .arg(edit->width())
                               .arg(needed)));
        }
        QVERIFY(checked >= 4);
        // And the window still fits a laptop's screen.
        QVERIFY2(
            window->minimumSizeHint().width() <= 1280, qPrintable(QString::number(window->minimumSizeHint().width())));
        QCOMPARE(window->width(), 1280);
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-filter-with-chip.png"));
    }

    // A console closed without the Outbox tab having been opened saves no list/detail split: it used to save the
    // split it never laid out, and the list got a fraction of the width on every later start.
    void aListNeverOpenedSavesNoSplit()
    {
        const auto forget = [] {
            QSettings settings;
            for (const QString& group : { QStringLiteral("outbox"), QStringLiteral("window") })
                settings.remove(group);
        };
        forget();
        const auto cleanup = qScopeGuard(forget);
        const auto listShare = [](MainWindow& window) {
            const QList<int> sizes = window.outboxView()->findChild<QSplitter*>()->sizes();
            return double(sizes.at(0)) / double(sizes.at(0) + sizes.at(1));
        };
        double fresh = 0;
        {
            // Destroyed without closing: it saves nothing.
            const auto first = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
            QVERIFY(first);
            ConsoleTesting::showOutboxTab(*first);
            fresh = listShare(*first);
            QVERIFY2(fresh > 0.5, qPrintable(QString::number(fresh)));
        }
        {
            const auto notOpened = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
            QVERIFY(notOpened);
            notOpened->close();
        }
        const auto later = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(later);
        ConsoleTesting::showOutboxTab(*later);
        QVERIFY2(qAbs(listShare(*later) - fresh) < 0.02,
            qPrintable(QStringLiteral("%1 of the width, %2 in a fresh console").arg(listShare(*later)).arg(fresh)));
    }

    // The Retry confirmation offers a time instead of now (Discard's does not): the rows are requeued due then, and
    // the message says when.
    void aRetryCanBeScheduledForLater()
    {
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        OutboxFilter rows;
        rows.ids = { 1, 2 };
        view.showFilter(rows);
        QVERIFY(ConsoleTesting::waitForRows(view, 2));
        ConsoleTesting::selectIds(view, { 1 });
        bool laterOffered = true;
        ConsoleTesting::answerNextDialog(this, QString(),
            [&laterOffered](OperatorActionDialog& dialog) { laterOffered = dialog.laterButton()->isVisible(); });
        view.discardSelectedAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!laterOffered, 10'000);

        ConsoleTesting::selectIds(view, { 1, 2 });
        QSignalSpy finished(&view, &OutboxView::actionFinished);
        const QDateTime at = QDateTime::currentDateTimeUtc().addSecs(3 * 3600);
        const QDateTime atMinute = at.addSecs(-at.time().second()).addMSecs(-at.time().msec());
        ConsoleTesting::answerNextDialog(
            this, QStringLiteral("after the deploy"), [atMinute](OperatorActionDialog& dialog) {
                QVERIFY(dialog.laterButton()->isVisible());
                QVERIFY(!dialog.dueAtEdit()->isEnabled());
                dialog.laterButton()->setChecked(true);
                QVERIFY(dialog.dueAtEdit()->isEnabled());
                dialog.dueAtEdit()->setDateTime(atMinute.toLocalTime());
                GuiTesting::saveScreenshot(dialog, QStringLiteral("retry-later-dialog.png"));
            });
        view.requeueSelectedAction()->trigger();
        QVERIFY(finished.wait(10'000));
        QVERIFY2(finished.first().first().toString().contains(QStringLiteral(", due at ")),
            qPrintable(finished.first().first().toString()));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT string_agg(status || ' ' || epoch_ms(next_attempt_at), ',' ORDER BY id) "
                                       "FROM outbox WHERE id IN (1, 2)"))
                .toString(),
            QStringLiteral("pending %1,pending %1").arg(atMinute.toMSecsSinceEpoch()));
        // The audit entry says when.
        AuditView* audit = window->auditView();
        window->findChild<QTabWidget*>()->setCurrentWidget(audit);
        audit->showFilter(AuditFilter {});
        auto* entries = audit->findChild<QTableView*>();
        QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 1, 10'000);
        entries->selectRow(0);
        const QString detail = audit->findChild<QPlainTextEdit*>()->toPlainText();
        QVERIFY2(
            detail.contains(QStringLiteral("Due at: %1").arg(TimeFormatter::display(atMinute))), qPrintable(detail));
    }

    // Edit and retry from the console: the editor says where the JSON is wrong, the review shows the difference as
    // the database will store it, and the row is requeued carrying the edit, audited with both versions.
    void anEditIsReviewedAndAppliedFromTheUi()
    {
        const qint64 id = db().scalar(QStringLiteral("SELECT min(id) FROM outbox WHERE status = 'dead'")).toLongLong();
        db().exec(QStringLiteral(
                      "UPDATE outbox SET payload = '{\"amount\": \"12.50\", \"sku\": \"A-1\"}' WHERE id = ?::bigint"),
            { id });
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        OutboxFilter rows;
        rows.ids = { id, 15 };
        view.showFilter(rows);
        QVERIFY(ConsoleTesting::waitForRows(view, 2));
        // One message at a time: two selected rows (the other one pending) give nothing to edit.
        ConsoleTesting::selectIds(view, { id, 15 });
        QVERIFY(!view.editSelectedAction()->isEnabled());
        ConsoleTesting::selectIds(view, { id });
        QVERIFY(view.editSelectedAction()->isEnabled());

        QSignalSpy finished(&view, &OutboxView::actionFinished);
        bool answered = false;
        ConsoleTesting::whenModalOpens<EditContentDialog>(this, [&answered, id, this](EditContentDialog& dialog) {
            QVERIFY(dialog.payloadEditor()->toPlainText().contains(QStringLiteral("\"amount\": \"12.50\"")));
            QCOMPARE(dialog.problem(), QStringLiteral("Nothing is changed yet."));
            QVERIFY(!dialog.reviewButton()->isEnabled());
            dialog.payloadEditor()->setPlainText(QStringLiteral("{\n  \"amount\": 12.50\n  \"sku\": \"A-1\"\n}"));
            QVERIFY2(
                dialog.problem().startsWith(QStringLiteral("Payload: line 3, column 3")), qPrintable(dialog.problem()));
            QVERIFY(!dialog.reviewButton()->isEnabled());
            GuiTesting::saveScreenshot(dialog, QStringLiteral("console-edit-and-retry-invalid.png"));
            dialog.payloadEditor()->setPlainText(QStringLiteral("{\n  \"amount\": 12.50,\n  \"sku\": \"A-1\"\n}"));
            QCOMPARE(dialog.problem(), QString());
            QSignalSpy reviewed(&dialog, &EditContentDialog::reviewFinished);
            // Another operator's edit meanwhile: the review refuses to revert it unsaid.
            db().exec(QStringLiteral("UPDATE outbox SET headers = '{\"x-by\": \"bob\"}' WHERE id = ?::bigint"), { id });
            dialog.reviewButton()->click();
            QVERIFY(reviewed.wait(10'000));
            QVERIFY(!dialog.isReviewing());
            QVERIFY2(dialog.problem().contains(QStringLiteral("was changed while you edited it")),
                qPrintable(dialog.problem()));
            db().exec(QStringLiteral("UPDATE outbox SET headers = '{}' WHERE id = ?::bigint"), { id });
            dialog.reviewButton()->click();
            QVERIFY(reviewed.wait(10'000));
            QVERIFY(dialog.isReviewing());
            const QString difference = dialog.differenceText();
            QVERIFY2(difference.contains(QStringLiteral("-     \"amount\": \"12.50\""))
                    && difference.contains(QStringLiteral("+     \"amount\": 12.50")),
                qPrintable(difference));
            QVERIFY(!dialog.confirmButton()->isEnabled());
            dialog.reasonEdit()->setText(QStringLiteral("amount sent as text"));
            QVERIFY(dialog.confirmButton()->isEnabled());
            GuiTesting::saveScreenshot(dialog, QStringLiteral("console-edit-and-retry-review.png"));
            answered = true;
            dialog.confirmButton()->click();
        });
        view.editSelectedAction()->trigger();
        QVERIFY(finished.wait(10'000));
        QVERIFY(answered);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT status || ' ' || attempts || ' ' || jsonb_typeof(payload->'amount') "
                                       "FROM outbox WHERE id = ?::bigint"),
                    { id })
                .toString(),
            QStringLiteral("pending 0 number"));
        QCOMPARE(db().scalar(QStringLiteral(
                                 "SELECT action || ' ' || reason || ' ' || (details->'payload'->'before'->>'amount') "
                                 "FROM audit_log"))
                     .toString(),
            QStringLiteral("edit amount sent as text 12.50"));

        // The Audit tab shows the edit as lines removed and added.
        AuditView* audit = window->auditView();
        window->findChild<QTabWidget*>()->setCurrentWidget(audit);
        audit->showFilter(AuditFilter {});
        auto* table = audit->findChild<QTableView*>();
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10'000);
        table->selectRow(0);
        // The list's reads leave the edit's content out: it is read for the selected entry.
        auto* detail = audit->findChild<QPlainTextEdit*>();
        QTRY_VERIFY2_WITH_TIMEOUT(detail->toPlainText().contains(QStringLiteral("+     \"amount\": 12.50")),
            qPrintable(detail->toPlainText()), 10'000);
        QVERIFY(audit->model()->rowAt(0).contentAfter.payload.isEmpty());
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-audit-edit.png"));
    }

    // A dead row that heads an ordering key: the Overview counts the blocked key and the rows waiting behind it,
    // names the dead row as their cause (a double-click on the cause opens it), the detail of a waiting row links
    // to it, and Discard, from the "blocking keys only" list, releases the key; the audit log says who and why; Retry
    // brings the discarded row back.
    void aBlockedKeyIsExplainedAndDiscardedFromTheUi()
    {
        db().exec(QStringLiteral("UPDATE outbox SET ordering_key = 'order:3' WHERE id = 3"));
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, ordering_key, status, "
            "  created_at) "
            "SELECT 'order', '3', 'order.updated', '{}', 'w' || g, 'order:3', 'waiting', now() - interval '1 hour' "
            "FROM generate_series(1, 4) g"));
        const qint64 firstWaiting
            = db().scalar(QStringLiteral("SELECT min(id) FROM outbox WHERE status = 'waiting'")).toLongLong();
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        window->findChild<QTabWidget*>()->setCurrentWidget(window->overview());
        OverviewPage* overview = window->overview();
        QTRY_COMPARE_WITH_TIMEOUT(overview->figure(QStringLiteral("blockedKeys")), QStringLiteral("1"), 10'000);
        QCOMPARE(overview->figure(QStringLiteral("waiting")), QStringLiteral("4"));
        const WaitingRowsModel* waiting = overview->waitingRows();
        QTRY_COMPARE_WITH_TIMEOUT(waiting->rowCount(), 5, 10'000);
        QCOMPARE(int(waiting->rows().at(0).cause), int(WaitCause::BehindOlderRow));
        const QString cause = waiting->index(0, WaitingRowsModel::Cause).data().toString();
        QVERIFY2(cause.contains(QStringLiteral("#3")) && cause.contains(QStringLiteral("broker unavailable")),
            qPrintable(cause));
        QCOMPARE(waiting->index(0, WaitingRowsModel::Cause).data(WaitingRowsModel::OpensRole).toLongLong(), 3LL);
        QCOMPARE(waiting->index(0, WaitingRowsModel::Id).data(WaitingRowsModel::OpensRole).toLongLong(), firstWaiting);
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-overview-blocked-key.png"));

        OutboxView& view = *window->outboxView();
        window->findChild<QTabWidget*>()->setCurrentWidget(&view);
        OutboxFilter one;
        one.ids = { firstWaiting };
        view.showFilter(one);
        QVERIFY(ConsoleTesting::waitForRows(view, 1));
        ConsoleTesting::selectIds(view, { firstWaiting });
        auto* summary = view.findChild<OutboxDetailPane*>()->findChild<QLabel*>();
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("<a href=\"row:3\">#3</a>")), 10'000);
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-waiting-row.png"));
        emit summary->linkActivated(QStringLiteral("row:3"));
        QTRY_COMPARE_WITH_TIMEOUT(view.table()->selectionModel()->selectedRows().size(), 1, 10'000);
        QCOMPARE(view.model()->rowAt(view.table()->selectionModel()->selectedRows().first().row()).id, 3LL);
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("Holds back 4 later row")), 10'000);

        OutboxFilter blocking;
        blocking.blockingOnly = true;
        view.showFilter(blocking);
        QVERIFY(ConsoleTesting::waitForRows(view, 1));
        ConsoleTesting::selectIds(view, { 3 });
        QVERIFY(view.discardSelectedAction()->isEnabled());
        QSignalSpy finished(&view, &OutboxView::actionFinished);
        ConsoleTesting::answerNextDialog(this, QStringLiteral("order 3 was deleted upstream"));
        view.discardSelectedAction()->trigger();
        QVERIFY(finished.wait(10'000));
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(DISTINCT status, ',' ORDER BY status) FROM outbox "
                                            "WHERE ordering_key = 'order:3'"))
                     .toString(),
            QStringLiteral("discarded,pending"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT action || ' ' || reason || ' ' || entity_ids::text FROM audit_log"))
                     .toString(),
            QStringLiteral("discard order 3 was deleted upstream {3}"));
        window->findChild<QTabWidget*>()->setCurrentWidget(window->overview());
        window->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(overview->figure(QStringLiteral("blockedKeys")), QStringLiteral("0"), 10'000);
        QCOMPARE(overview->figure(QStringLiteral("waiting")), QStringLiteral("0"));

        // Retry undoes the discard; Discard does not apply to a discarded row.
        window->findChild<QTabWidget*>()->setCurrentWidget(&view);
        OutboxFilter discarded;
        discarded.statuses = { OutboxStatus::Discarded };
        view.showFilter(discarded);
        QVERIFY(ConsoleTesting::waitForRows(view, 1));
        ConsoleTesting::selectIds(view, { 3 });
        QVERIFY(view.requeueSelectedAction()->isEnabled());
        QVERIFY(!view.discardSelectedAction()->isEnabled());
        ConsoleTesting::answerNextDialog(this, QStringLiteral("order 3 is back"));
        view.requeueSelectedAction()->trigger();
        QVERIFY(finished.wait(10'000));
        QCOMPARE(db().scalar(QStringLiteral("SELECT status FROM outbox WHERE id = 3")).toString(),
            QStringLiteral("pending"));
    }

    // A search that takes longer than 300 ms says "Searching…" and can be cancelled: the statement stops on the
    // server (it no longer waits there), the list says so, and the next refresh searches again.
    void slowSearchCanBeCancelled()
    {
        // No refresh may start a second read that waits behind the same lock: the search is then the console's
        // one session waiting for a lock, whatever its statement's text.
        const auto autoRefreshOff = ConsoleTesting::withoutAutoRefresh();
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 800));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        QVERIFY(ConsoleTesting::waitForRows(view, 40));
        auto* status = view.findChild<QLabel*>(QStringLiteral("loadStatus"));
        auto* cancel = view.findChild<QToolButton*>(QStringLiteral("cancelSearch"));
        QVERIFY(status && cancel);
        QVERIFY(cancel->isHidden());

        // The search waits behind a lock for as long as the test holds it.
        const auto locker = db().openSession(QStringLiteral("locker"));
        locker->execScript(QStringLiteral("BEGIN; LOCK TABLE outbox IN ACCESS EXCLUSIVE MODE"), QStringLiteral("lock"));
        const QString waitingSearches = QStringLiteral(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = "
            "'outbox-console' AND datname = current_database()");
        OutboxFilter paid;
        paid.eventType = QStringLiteral("order.created");
        view.showFilter(paid);
        QTRY_COMPARE_WITH_TIMEOUT(status->text(), QStringLiteral("Searching…"), 10'000);
        QVERIFY(!cancel->isHidden());
        QCOMPARE(db().scalar(waitingSearches).toLongLong(), 1LL);

        cancel->click();
        QVERIFY(status->text().startsWith(QStringLiteral("Search cancelled")));
        QVERIFY(cancel->isHidden());
        QTRY_COMPARE_WITH_TIMEOUT(db().scalar(waitingSearches).toLongLong(), 0LL, 10'000);
        locker->execScript(QStringLiteral("COMMIT"), QStringLiteral("unlock"));
        QVERIFY(status->text().startsWith(QStringLiteral("Search cancelled"))); // the cancelled page stays dropped

        view.refresh();
        QVERIFY(ConsoleTesting::waitForRows(view, 40));
        QVERIFY2(status->text().startsWith(QStringLiteral("40 row")), qPrintable(status->text()));
    }
};

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
