// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/operatoractiondialog.h"
#include "connect/connectdialog.h"
#include "connect/connectionbanner.h"
#include "failures/failuregroupsmodel.h"
#include "failures/failuresview.h"
#include "mainwindow/mainwindow.h"
#include "messages/messagelog.h"
#include "messages/messagelogview.h"
#include "messages/statusmessagelabel.h"
#include "operations/outboxoperator.h"
#include "outbox/outboxdetailpane.h"
#include "outbox/outboxtablemodel.h"
#include "outbox/outboxview.h"
#include "overview/overviewpage.h"
#include "overview/relayfleetmodel.h"
#include "relay/outboxleaserepository.h"
#include "support/consoletesting.h"
#include "support/databasetestcase.h"
#include "support/guitesting.h"
#include "support/querytesting.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

// The message log that stays (every status-bar message in the Messages panel, with its time and rows) and the retry
// whose consequences are shown (when the rows last failed, the frozen set in the list, what became of the rows).
class TestMessageLog final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestMessageLog()
        : DatabaseTestCase(QStringLiteral("messagelog"))
    { }

private:
    static inline const QString NoRoute = QStringLiteral("NO_ROUTE 312: no queue is bound for order.cancelled");

    // One pass of a relay worker over every due row, through the lease protocol the relay uses: each claimed row
    // fails with `error` (dead once it reached `maxAttempts`), or, with an empty error, is published. Returns how
    // many rows it claimed.
    int relayPass(const QString& error, int maxAttempts = 1)
    {
        const auto relay = db().openSession(QStringLiteral("test-relay"));
        OutboxLeaseRepository lease(*relay);
        const QList<OutboxMessage> claimed
            = lease.claimDue(QStringLiteral("test-relay"), QStringLiteral("test-relay/w0"), 1000, 30'000).messages;
        QList<LeaseFence> published;
        QList<PublishFailure> failures;
        for (const OutboxMessage& message : claimed) {
            if (error.isEmpty())
                published.append({ message.id, message.leaseToken });
            else
                failures.append({ message.id, message.leaseToken, error, 600'000 });
        }
        lease.markPublished(published);
        lease.markFailed(QStringLiteral("test-relay/w0"), failures, maxAttempts);
        return int(claimed.size());
    }

    // `rows` pending order events (ids from 1), failed for real by a relay pass until dead.
    void seedDead(int rows, const QString& error)
    {
        QueryTesting::addRows(db(), rows, QStringLiteral("pending"), QStringLiteral("event_type = 'order.cancelled'"));
        QCOMPARE(relayPass(error), rows);
    }

    // The newest message containing `text`, waiting for it; nullopt if none comes.
    static std::optional<MessageLog::Entry> waitForMessage(const MessageLog& log, const QString& text, int ms = 15'000)
    {
        std::optional<MessageLog::Entry> found;
        const bool came = QTest::qWaitFor(
            [&] {
                for (auto it = log.entries().crbegin(); it != log.entries().crend(); ++it) {
                    if (it->text.contains(text)) {
                        found = *it;
                        return true;
                    }
                }
                return false;
            },
            ms);
        return came ? found : std::nullopt;
    }

    static QString allMessages(const MessageLog& log)
    {
        QStringList texts;
        for (const MessageLog::Entry& entry : log.entries())
            texts.append(
                entry.repeats > 1 ? QStringLiteral("%1 (×%2)").arg(entry.text).arg(entry.repeats) : entry.text);
        return texts.join(QStringLiteral("\n"));
    }

    // The entries whose text contains `text`.
    static QList<MessageLog::Entry> entriesWith(const MessageLog& log, const QString& text)
    {
        QList<MessageLog::Entry> found;
        for (const MessageLog::Entry& entry : log.entries()) {
            if (entry.text.contains(text))
                found.append(entry);
        }
        return found;
    }

    // Reads the Overview again and waits until the read is in.
    static bool refreshOverview(MainWindow& window)
    {
        const QDateTime before = window.overview()->readAt();
        window.refresh();
        return QTest::qWaitFor([&] { return window.overview()->readAt() > before; }, 10'000);
    }

private slots:
    void initTestCase()
    {
        GuiTesting::useOwnSettings(QStringLiteral("tst_messagelog"));
        setUpDatabase();
    }

    void logKeepsEveryMessageWhole()
    {
        MessageLog log;
        QAbstractItemModelTester tester(&log, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString longText = QStringLiteral("Consumer stopped: order.created events wait in queue order-counts; "
                                                "past 1000 the broker refuses them (basic.nack) ")
                                     .repeated(4);
        const QDateTime before = QDateTime::currentDateTime().addMSecs(-1);
        log.post(QStringLiteral("Relay restarted"));
        log.post(longText, { 7, 9 });
        QCOMPARE(log.rowCount(), 2);
        QCOMPARE(log.index(1, MessageLog::Text).data().toString(), longText);
        QCOMPARE(log.entries().at(1).rows, (QList<qint64> { 7, 9 }));
        QCOMPARE(log.index(1, MessageLog::Rows).data().toString(), QStringLiteral("Show 2 row(s)"));
        QCOMPARE(log.index(1, MessageLog::Rows).data(MessageLog::RowIdsRole).value<QList<qint64>>(),
            (QList<qint64> { 7, 9 }));
        QVERIFY(log.index(0, MessageLog::Rows).data().toString().isEmpty());
        QVERIFY(log.entries().at(0).at > before && log.entries().at(0).at <= QDateTime::currentDateTime());
        QVERIFY(!log.index(0, MessageLog::Time).data().toString().isEmpty());
        QVERIFY(log.index(0, MessageLog::Time).data(Qt::ToolTipRole).toString().contains(QStringLiteral("(local)")));

        // Said again at once, a message counts as a repeat instead of filling the log.
        log.post(longText, { 7, 9 });
        QCOMPARE(log.rowCount(), 2);
        QCOMPARE(log.entries().at(1).repeats, 2);
        QVERIFY(log.index(1, MessageLog::Text).data().toString().endsWith(QStringLiteral("(×2)")));

        // The oldest give way beyond the capacity.
        for (int i = 0; i < MessageLog::Capacity; ++i)
            log.post(QStringLiteral("message %1").arg(i));
        QCOMPARE(log.rowCount(), MessageLog::Capacity);
        QCOMPARE(log.entries().constFirst().text, QStringLiteral("message 0"));
    }

    // The status bar cuts a long message with "…" to the room the permanent labels leave, with the whole text in its
    // tooltip; the Messages panel shows it whole.
    void statusBarElidesAndThePanelShowsTheWholeText()
    {
        db().reset();
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(900, 700));
        QVERIFY(window);
        const QString longText = QStringLiteral("Consumer stopped: order.created events wait in queue order-counts; "
                                                "past 1000 the broker refuses them, and the relay counts the refusals "
                                                "as failed attempts until the consumer is started again");
        window->postMessage(longText);
        StatusMessageLabel* label = window->statusMessage();
        QCOMPARE(label->fullText(), longText);
        QVERIFY2(label->text().endsWith(QStringLiteral("…")), qPrintable(label->text()));
        QVERIFY(label->text().size() < longText.size());
        QVERIFY(label->toolTip().contains(longText));
        // Beside the permanent labels, not under them.
        const auto labels = window->statusBar()->findChildren<QLabel*>();
        for (const QLabel* permanent : labels) {
            if (permanent == label || permanent->text().isEmpty() || !permanent->isVisible())
                continue;
            const QRect mine = label->geometry();
            QVERIFY2(!mine.intersects(permanent->geometry()),
                qPrintable(QStringLiteral("%1 overlaps “%2”").arg(label->text(), permanent->text())));
        }
        const QFontMetrics metrics(label->font());
        QVERIFY(metrics.horizontalAdvance(label->text()) <= label->contentsRect().width());

        const auto* panel = window->findChild<MessageLogView*>();
        QVERIFY(panel && panel->isVisible());
        QCOMPARE(panel->table()->model()->index(0, MessageLog::Text).data().toString(), longText);
        // Wrapped, the row is as tall as the whole text needs.
        QTRY_VERIFY(panel->table()->rowHeight(0) > metrics.height() * 1.5);

        // A short message is shown as it is.
        window->postMessage(QStringLiteral("Relay restarted"));
        QCOMPARE(label->text(), QStringLiteral("Relay restarted"));
    }

    // What an operator did and what the connection did land in the log, with the rows they concern; a message's link
    // opens its rows.
    void actionsAndConnectionChangesAreLogged()
    {
        db().reset();
        QueryTesting::addRows(db(), 5, QStringLiteral("failed"), QStringLiteral("last_error = 'broker unavailable'"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 860));
        QVERIFY(window);
        MessageLog& log = *window->messages();
        QAbstractItemModelTester tester(&log, QAbstractItemModelTester::FailureReportingMode::QtTest);
        OutboxView& view = *window->outboxView();
        window->findChild<QTabWidget*>()->setCurrentWidget(&view);
        OutboxFilter failed;
        failed.statuses = { OutboxStatus::Failed };
        view.showFilter(failed);
        QVERIFY(ConsoleTesting::waitForRows(view, 5));
        ConsoleTesting::selectIds(view, { 2, 4 });
        ConsoleTesting::answerNextDialog(this, QStringLiteral("broker fixed"));
        view.requeueSelectedAction()->trigger();
        const auto requeued = waitForMessage(log, QStringLiteral("Requeue: 2 row(s) changed"));
        QVERIFY2(requeued, qPrintable(allMessages(log)));
        QCOMPARE(requeued->rows, (QList<qint64> { 2, 4 }));
        // The list of failed rows lost them, and says where they went.
        QVERIFY(ConsoleTesting::waitForRows(view, 3));

        db().exec(QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                 "WHERE application_name = 'outbox-console' AND datname = current_database()"));
        window->refresh();
        QVERIFY2(
            waitForMessage(log, QStringLiteral("Connection to the database lost"), 3 * DatabaseClient::HeartbeatMs),
            qPrintable(allMessages(log)));
        QVERIFY2(waitForMessage(log, QStringLiteral("Connection to the database restored"), 20'000),
            qPrintable(allMessages(log)));

        // The link of the requeue's message opens exactly its rows.
        auto* panel = window->findChild<MessageLogView*>();
        int row = -1;
        for (int i = 0; i < log.rowCount(); ++i) {
            if (log.entries().at(i).text.contains(QStringLiteral("Requeue: 2 row(s) changed")))
                row = i;
        }
        QVERIFY(row >= 0);
        window->findChild<QTabWidget*>()->setCurrentIndex(0);
        const QRect link = panel->table()->visualRect(log.index(row, MessageLog::Rows));
        QTest::mouseClick(panel->table()->viewport(), Qt::LeftButton, {}, link.center());
        QCOMPARE(window->findChild<QTabWidget*>()->currentWidget(), &view);
        QCOMPARE(view.filter().ids, (QList<qint64> { 2, 4 }));
        QVERIFY(ConsoleTesting::waitForRows(view, 2));
    }

    // A lost connection is one message, and one when it is back: not also the error that revealed it, raw, nor a line
    // per list that failed while it was away.
    void aLostConnectionIsSaidOnce()
    {
        db().reset();
        QueryTesting::addRows(db(), 3, QStringLiteral("pending"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 860));
        QVERIFY(window);
        ConsoleTesting::showOutboxTab(*window);
        QVERIFY(ConsoleTesting::waitForRows(*window->outboxView(), 3));
        MessageLog& log = *window->messages();
        // Each of the three connections made (one cut while it is being made is one that could not connect): idle
        // since their last statement, as none is while it connects.
        const QString settled = QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                               "'outbox-console' AND datname = current_database() AND state = 'idle' "
                                               "AND state_change < now() - interval '100 ms'");
        QTRY_COMPARE_WITH_TIMEOUT(db().scalar(settled).toInt(), 3, 10'000);
        db().exec(QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                 "WHERE application_name = 'outbox-console' AND datname = current_database()"));
        window->refresh(); // the Overview and the list: each finds its connection gone
        QVERIFY2(waitForMessage(log, QStringLiteral("Connection to the database restored"), 20'000),
            qPrintable(allMessages(log)));
        // The error that revealed the loss is in the first (which of the reads found it first varies).
        QVERIFY2(log.rowCount() == 2, qPrintable(allMessages(log)));
        QVERIFY2(log.entries().constFirst().text.startsWith(QStringLiteral("Connection to the database lost: "))
                && log.entries().constFirst().repeats == 1,
            qPrintable(allMessages(log)));
        QCOMPARE(log.entries().constLast().text, QStringLiteral("Connection to the database restored"));
    }

    // A connection that cannot be made is said once: not once per connection of the console, nor once per view
    // that read meanwhile ("not connected to the database (reconnecting)", which it was not).
    void aFailedConnectionIsSaidOnce()
    {
        db().reset();
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 860));
        QVERIFY(window);
        ConsoleTesting::showOutboxTab(*window);
        QVERIFY(ConsoleTesting::waitForRows(*window->outboxView(), 0));
        MessageLog& log = *window->messages();
        QCOMPARE(log.rowCount(), 0);
        bool listFailed = false;
        ConsoleTesting::whenModalOpens<ConnectDialog>(this, [&](ConnectDialog& dialog) {
            // While the dialog asks, the views read on, as the auto-refresh makes them.
            window->refresh();
            listFailed = QTest::qWaitFor([&] { return !window->outboxView()->model()->failure().isEmpty(); }, 10'000);
            dialog.reject();
        });
        window->connectTo(ConnectionSettings::fromDsn(db().dsn() + QStringLiteral(" dbname=no_such_database")),
            QStringLiteral("nowhere"));
        QTRY_VERIFY_WITH_TIMEOUT(listFailed, 15'000);
        const QList<MessageLog::Entry> said = entriesWith(log, QStringLiteral("no_such_database"));
        QVERIFY2(said.size() == 1 && said.first().repeats == 1, qPrintable(allMessages(log)));
        QVERIFY2(said.first().text.startsWith(QStringLiteral("Could not connect: ")), qPrintable(allMessages(log)));
        QVERIFY2(log.rowCount() == 1, qPrintable(allMessages(log)));
    }

    // A connection refused at first (the lists' or the actions', to a server that let the reads in a moment before) is
    // tried again, as a lost one is, instead of leaving every list failing with "not connected to the database
    // (reconnecting)" for good.
    void aConnectionRefusedAtFirstIsTriedAgain()
    {
        db().reset();
        const QString login = QStringLiteral("tst_ml_limit_%1").arg(QCoreApplication::applicationPid());
        const ConnectionSettings settings = db().createLoginRole(login, QStringLiteral("outbox_operator"));
        session().execScript(
            QStringLiteral("ALTER ROLE %1 CONNECTION LIMIT 0").arg(login), QStringLiteral("limiting the role"));
        DatabaseClient searches(QStringLiteral("console-searches"));
        QSignalSpy failed(&searches, &DatabaseClient::connectFailed);
        QSignalSpy reconnected(&searches, &DatabaseClient::reconnected);
        searches.open(settings, false, DatabaseClient::FirstFailure::Retry);
        QVERIFY(failed.wait(10'000));
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("too many connections")),
            qPrintable(failed.first().first().toString()));
        session().execScript(QStringLiteral("ALTER ROLE %1 CONNECTION LIMIT -1").arg(login), QStringLiteral("lifting"));
        QVERIFY(reconnected.wait(15'000));
        std::optional<QString> user;
        searches.run<QString>(
            this, [](DbSession& session) { return session.currentUser(); }, [&](const QString& name) { user = name; });
        QTRY_VERIFY_WITH_TIMEOUT(user.has_value(), 10'000);
        QCOMPARE(*user, login);
    }

    // Each change of a relay's state is one message, by the read that found it (the incident's timeline), never
    // repeated by the reads after it; the first read finds the relays as they are, which is no change.
    void relayStateChangesAreLoggedOnceEach()
    {
        db().reset();
        db().exec(QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, "
                                 "  lease_ms, heartbeat_ms) "
                                 "VALUES ('relay-a', 'host-a', 1, 'test', 'amqp://broker', 1, 10, 30000, 3600000)"));
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 860));
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(window->overview()->relays()->rowCount(), 1, 10'000);
        MessageLog& log = *window->messages();
        QVERIFY2(entriesWith(log, QStringLiteral("relay-a")).isEmpty(), qPrintable(allMessages(log)));

        const auto change = [&](const QString& update, const QString& said) {
            db().exec(QStringLiteral("UPDATE relay_nodes SET ") + update + QStringLiteral(" WHERE name = 'relay-a'"));
            // Three reads: the first finds the change, the others find it unchanged.
            for (int read = 0; read < 3; ++read)
                QVERIFY(refreshOverview(*window));
            const QList<MessageLog::Entry> entries = entriesWith(log, said);
            QVERIFY2(entries.size() == 1 && entries.first().repeats == 1, qPrintable(allMessages(log)));
            QCOMPARE(log.entries().constLast().text, said);
        };
        change(QStringLiteral("failing_since = now(), sink_up = false, last_error = 'amqp: connection refused\n"
                              "at 10.0.0.7:5672', last_error_at = now()"),
            QStringLiteral("Relay relay-a failing: amqp: connection refused"));
        change(
            QStringLiteral("failing_since = NULL, sink_up = true"), QStringLiteral("Relay relay-a publishing again"));
        change(QStringLiteral("paused_since = now()"), QStringLiteral("Relay relay-a paused"));
        change(QStringLiteral("paused_since = NULL, last_seen = now() - interval '4 hours'"),
            QStringLiteral("Relay relay-a stale: no heartbeat for 4 h 0 min"));
        // Its sessions named, and none of them left on the server, since a heartbeat after the server started.
        change(QStringLiteral("last_seen = now(), backend_pids = ARRAY[2147483646]"),
            QStringLiteral("Relay relay-a gone: its process died"));
        change(QStringLiteral("stopped_at = now()"), QStringLiteral("Relay relay-a stopped"));
        db().exec(QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, "
                                 "  lease_ms, heartbeat_ms) "
                                 "VALUES ('relay-b', 'host-b', 2, 'test', 'amqp://broker', 1, 10, 30000, 3600000)"));
        QVERIFY(refreshOverview(*window));
        QCOMPARE(log.entries().constLast().text, QStringLiteral("Relay relay-b started"));
        QCOMPARE(entriesWith(log, QStringLiteral("Relay ")).size(), 7);
    }

    // An empty list says why, and after an action that emptied it, where its rows went.
    void emptyListSaysWhy()
    {
        db().reset();
        QueryTesting::addRows(db(), 2, QStringLiteral("dead"), QStringLiteral("last_error = 'boom'"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 860));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        window->findChild<QTabWidget*>()->setCurrentWidget(&view);
        OutboxFilter pending;
        pending.statuses = { OutboxStatus::Pending };
        view.showFilter(pending);
        QVERIFY(ConsoleTesting::waitForRows(view, 0));
        auto* empty = view.findChild<QLabel*>(QStringLiteral("emptyState"));
        QVERIFY(empty && empty->isVisible());
        QVERIFY2(
            view.emptyText().startsWith(QStringLiteral("No rows match this filter.")), qPrintable(view.emptyText()));

        OutboxFilter dead;
        dead.statuses = { OutboxStatus::Dead };
        view.showFilter(dead);
        QVERIFY(ConsoleTesting::waitForRows(view, 2));
        QVERIFY(!empty->isVisible());
        ConsoleTesting::selectIds(view, { 1, 2 });
        ConsoleTesting::answerNextDialog(this, QStringLiteral("try again"));
        view.requeueSelectedAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(view.emptyText().contains(QStringLiteral("2 row(s) of the last action")), 10'000);
        QVERIFY(empty->isVisible());
    }

    // Retry group on a cause that failed seconds ago: the dialog warns, names the frozen set the list shows, and once
    // the rows fail again the log says so, with the cause and a link to them.
    void retryOfAStillFailingGroupWarnsAndReportsFailedAgain()
    {
        db().reset();
        seedDead(6, NoRoute);
        QueryTesting::addRows(db(), 2, QStringLiteral("pending"));
        QCOMPARE(relayPass(QStringLiteral("message size 99999 larger than max 16384")), 2);
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 860));
        QVERIFY(window);
        window->outboxView()->setFollowUpLimitMs(60'000);
        MessageLog& log = *window->messages();
        auto* tabs = window->findChild<QTabWidget*>();
        FailuresView* failures = window->failuresView();
        tabs->setCurrentWidget(failures);
        QTRY_COMPARE_WITH_TIMEOUT(failures->model()->rowCount(), 2, 10'000);
        QCOMPARE(failures->model()->rows().at(0).rows(), 6LL);
        failures->table()->selectRow(0);

        OutboxView& view = *window->outboxView();
        QString notice;
        bool warning = false;
        QString title;
        QList<qint64> listed;
        bool listLoaded = false;
        ConsoleTesting::answerNextDialog(this, QStringLiteral("routing fixed?"), [&](OperatorActionDialog& dialog) {
            notice = dialog.notice();
            warning = dialog.noticeIsWarning();
            title = dialog.windowTitle();
            // Behind the dialog, the list shows exactly the frozen set.
            listLoaded
                = QTest::qWaitFor([&] { return !view.model()->isLoading() && !view.filter().ids.isEmpty(); }, 10'000);
            for (int row = 0; row < view.model()->rowCount(); ++row)
                listed.append(view.model()->rowAt(row).id);
            dialog.findChild<QLineEdit*>()->setText(QStringLiteral("routing fixed?"));
            GuiTesting::saveScreenshot(*window, QStringLiteral("retry-group-list-behind-dialog.png"));
            GuiTesting::saveScreenshot(dialog, QStringLiteral("retry-dialog-warning.png"));
        });
        emit failures->retryGroup(failures->selectedGroupFilter());
        QTRY_VERIFY_WITH_TIMEOUT(!title.isEmpty(), 10'000);
        QVERIFY(listLoaded);
        QVERIFY2(warning, qPrintable(notice));
        QVERIFY2(notice.contains(QStringLiteral("This cause last failed a row")), qPrintable(notice));
        QVERIFY2(notice.contains(QStringLiteral("the cause may still be present")), qPrintable(notice));
        QCOMPARE(title, QStringLiteral("Requeue 6 outbox row(s)"));
        std::sort(listed.begin(), listed.end());
        QCOMPARE(listed, (QList<qint64> { 1, 2, 3, 4, 5, 6 }));
        QCOMPARE(view.filter().ids, listed);

        const auto changed = waitForMessage(log, QStringLiteral("Requeue: 6 row(s) changed"));
        QVERIFY2(changed, qPrintable(allMessages(log)));
        // The cause is still there: the relay fails them again.
        QCOMPARE(relayPass(NoRoute), 6);
        const auto outcome = waitForMessage(log, QStringLiteral("failed again"));
        QVERIFY2(outcome, qPrintable(allMessages(log)));
        QCOMPARE(outcome->text,
            QStringLiteral("Requeued 6 row(s): 6 failed again (6 of them dead), all with “%1”.")
                .arg(db().scalar(QStringLiteral("SELECT outbox_error_signature(?::text)"), { NoRoute }).toString()));
        QCOMPARE(outcome->rows, listed);
        // The list still shows the retried rows, dead again.
        QCOMPARE(tabs->currentWidget(), &view);
        view.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount() == 6 ? view.model()->rowAt(0).status : OutboxStatus::Pending,
            OutboxStatus::Dead, 10'000);
        QVERIFY(view.emptyText().isEmpty());
    }

    // Retry all matching on rows that failed long ago: no warning, and once the relay publishes them the log says so.
    void retryWhoseRowsArePublishedReportsPublished()
    {
        db().reset();
        seedDead(5, QStringLiteral("broker unavailable: connection refused"));
        db().exec(QStringLiteral("UPDATE outbox SET updated_at = now() - interval '2 hours'"));
        db().exec(QStringLiteral("UPDATE outbox_attempts SET created_at = now() - interval '2 hours'"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 860));
        QVERIFY(window);
        MessageLog& log = *window->messages();
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        OutboxFilter dead;
        dead.statuses = { OutboxStatus::Dead };
        view.showFilter(dead);
        QVERIFY(ConsoleTesting::waitForRows(view, 5));
        QString notice;
        bool warning = true;
        ConsoleTesting::answerNextDialog(this, QStringLiteral("broker is back"), [&](OperatorActionDialog& dialog) {
            notice = dialog.notice();
            warning = dialog.noticeIsWarning();
        });
        view.requeueMatchingAction()->trigger();
        QVERIFY(waitForMessage(log, QStringLiteral("Requeue: 5 row(s) changed")));
        QVERIFY2(
            !warning && notice.startsWith(QStringLiteral("These rows last failed 2 h 0 min ago")), qPrintable(notice));
        QCOMPARE(relayPass({}), 5);
        const auto outcome = waitForMessage(log, QStringLiteral("published"));
        QVERIFY2(outcome, qPrintable(allMessages(log)));
        QCOMPARE(outcome->text, QStringLiteral("Requeued 5 row(s): 5 published."));
        QCOMPARE(outcome->rows, (QList<qint64> { 1, 2, 3, 4, 5 }));
    }

    // Cancelled, Retry all matching puts the list back as it was.
    void cancelledRetryRestoresTheList()
    {
        db().reset();
        seedDead(3, QStringLiteral("boom"));
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 860));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        OutboxFilter dead;
        dead.statuses = { OutboxStatus::Dead };
        view.showFilter(dead);
        QVERIFY(ConsoleTesting::waitForRows(view, 3));
        bool asked = false;
        ConsoleTesting::answerNextDialog(this, {}, [&](OperatorActionDialog&) { asked = true; });
        view.requeueMatchingAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(asked, 10'000);
        QTRY_COMPARE(view.filter(), dead);
        QCOMPARE(QueryTesting::statusOf(db(), 1), QStringLiteral("dead"));
    }

    // A requeued row that failed four times before and once since: its attempts since the requeue and in total.
    void requeuedRowShowsAttemptsSinceTheRequeueAndInTotal()
    {
        db().reset();
        QueryTesting::addRow(db(), QStringLiteral("pending"));
        for (int attempt = 1; attempt <= 4; ++attempt) {
            QCOMPARE(relayPass(NoRoute, 4), 1);
            db().exec(QStringLiteral("UPDATE outbox SET next_attempt_at = now()"));
        }
        QCOMPARE(QueryTesting::statusOf(db(), 1), QStringLiteral("dead"));
        OutboxOperator(session()).requeue({ 1 }, QStringLiteral("routing fixed?"));
        QCOMPARE(relayPass(NoRoute, 4), 1);

        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1400, 860));
        QVERIFY(window);
        OutboxView& view = *window->outboxView();
        window->findChild<QTabWidget*>()->setCurrentWidget(&view);
        view.showFilter(OutboxFilter {});
        QVERIFY(ConsoleTesting::waitForRows(view, 1));
        QCOMPARE(view.model()->index(0, OutboxTableModel::Attempts).data().toInt(), 1);
        ConsoleTesting::selectIds(view, { 1 });
        auto* detail = view.findChild<OutboxDetailPane*>();
        const QLabel* summary = detail->findChild<QLabel*>();
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("#1 ")), 10'000);
        QVERIFY2(
            summary->text().contains(QStringLiteral("1 attempt(s) since the requeue at")), qPrintable(summary->text()));
        QVERIFY2(summary->text().contains(QStringLiteral("5 in total")), qPrintable(summary->text()));
        auto* tabs = detail->findChild<QTabWidget*>();
        QCOMPARE(tabs->tabText(3), QStringLiteral("Attempts (5)"));
        auto* attempts = qobject_cast<QTreeWidget*>(tabs->widget(3));
        QCOMPARE(attempts->topLevelItemCount(), 6); // five failures and the requeue between them
        QCOMPARE(attempts->topLevelItem(0)->text(1), QStringLiteral("1"));
        QCOMPARE(attempts->topLevelItem(1)->text(1), QStringLiteral("requeued"));
        QVERIFY(attempts->topLevelItem(1)->text(3).contains(QStringLiteral("routing fixed?")));
        QCOMPARE(attempts->topLevelItem(2)->text(1), QStringLiteral("4"));
    }

    // The window with the Messages panel holding a few messages, one of them long, for a person to look at.
    // A picture of the Messages panel, and what it shows: the four messages in the order they were said, each in
    // full in the log, the newest in the status bar cut to the room left, without the window growing to fit it.
    // Each time on one line, also for messages that come after the panel was shown empty: a column sized to its
    // contents measured a wrapped time within its own width, and put "UTC" on a line of its own.
    void timesShowOnOneLine()
    {
        MessageLog log;
        MessageLogView view(&log);
        view.resize(1000, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        log.post(QStringLiteral("Relay vm:1 failing: the broker refused the message (basic.nack)"));
        log.post(QStringLiteral("Connection to the database lost"));
        QCoreApplication::sendPostedEvents();
        const auto* table = view.findChild<QTableView*>();
        const int margins = 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1);
        for (int row = 0; row < log.rowCount(); ++row) {
            const QString time = log.index(row, MessageLog::Time).data().toString();
            QVERIFY2(table->fontMetrics().horizontalAdvance(time) + margins <= table->columnWidth(MessageLog::Time),
                qPrintable(QStringLiteral("%1 in %2 px").arg(time).arg(table->columnWidth(MessageLog::Time))));
            QCOMPARE(table->rowHeight(row), table->rowHeight(0));
        }
    }

    void messagesShowWholeInThePanelAndCutInTheStatusBar()
    {
        db().reset();
        seedDead(4, NoRoute);
        const auto window = ConsoleTesting::openWindow(db().settings(), QSize(1280, 800));
        QVERIFY(window);
        const QStringList said { QStringLiteral("Consumer stopped: order.created events wait in queue order-counts; "
                                                "past 1000 the broker refuses them"),
            QStringLiteral("Relay restarted: it takes over the leases of the one before when they expire"),
            QStringLiteral("Requeue: 4 row(s) changed"),
            QStringLiteral("Requeued 4 row(s): 4 failed again (4 of them dead), all with “NO_ROUTE <n>: no queue is "
                           "bound for order.cancelled”. The routing is still broken: fix it (Demo → Fix the routing) "
                           "before the next retry, or the rows go dead again within seconds.") };
        const qsizetype before = window->messages()->entries().size();
        window->postMessage(said.at(0));
        window->postMessage(said.at(1));
        window->postMessage(said.at(2), { 1, 2, 3, 4 });
        window->postMessage(said.at(3), { 1, 2, 3, 4 });
        window->findChild<QTabWidget*>()->setCurrentWidget(window->outboxView());
        OutboxFilter rows;
        rows.ids = { 1, 2, 3, 4 };
        window->outboxView()->showFilter(rows);
        QVERIFY(ConsoleTesting::waitForRows(*window->outboxView(), 4));

        const QList<MessageLog::Entry>& entries = window->messages()->entries();
        QCOMPARE(entries.size(), before + 4);
        for (int i = 0; i < said.size(); ++i)
            QCOMPARE(entries.at(before + i).text, said.at(i));
        QCOMPARE(entries.at(before + 3).rows, (QList<qint64> { 1, 2, 3, 4 }));
        // The newest message (four lines' worth) does not fit the status bar: it is cut to the room left, and the
        // log keeps it whole.
        StatusMessageLabel* status = window->statusMessage();
        QCoreApplication::sendPostedEvents();
        QCOMPARE(status->fullText(), said.last());
        QVERIFY(status->text() != said.last());
        QVERIFY(status->fontMetrics().horizontalAdvance(status->text()) <= status->contentsRect().width());
        QVERIFY(window->width() <= 1280);
        QVERIFY(window->findChild<MessageLogView*>()->isVisible());
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-messages.png"));
    }
};

QTEST_MAIN(TestMessageLog)
#include "tst_messagelog.moc"
