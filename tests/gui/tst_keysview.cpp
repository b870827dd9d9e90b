// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/statusfilterbutton.h"
#include "common/timerangefilter.h"
#include "core/databaseclient.h"
#include "core/timeformatter.h"
#include "idempotency/idempotencyrepository.h"
#include "keys/keydetailpane.h"
#include "keys/keystablemodel.h"
#include "keys/keysview.h"
#include "metrics/metricsrecorder.h"
#include "orders/createorderhandler.h"
#include "outbox/outboxdetailpane.h"
#include "outbox/outboxtablemodel.h"
#include "outbox/outboxview.h"
#include "support/databasetestcase.h"
#include "support/listmodeltesting.h"
#include "support/querytesting.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

using namespace Qt::Literals::StringLiterals;

// Keys are created a minute apart, back from this instant, so time filters have fixed answers.
static const QDateTime SeedAnchor(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
static constexpr int SeededKeys = 3000;

class TestKeysView final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestKeysView()
        : DatabaseTestCase(u"keysview"_s)
    { }

private:
    QList<qint64> idsWhere(const QString& condition)
    {
        auto session = db().openSession();
        QSqlQuery& q = session->exec(
            u"SELECT id FROM idempotency_keys WHERE "_s + condition + u" ORDER BY id DESC"_s, {}, u"brute force"_s);
        QList<qint64> ids;
        while (q.next())
            ids.append(q.value(0).toLongLong());
        return ids;
    }

    static QList<qint64> modelIds(const KeysTableModel& model)
    {
        QList<qint64> ids;
        for (int row = 0; row < model.rowCount(); ++row)
            ids.append(model.rowAt(row).id);
        return ids;
    }

    // Shows `filter` as the Clear button and the context menu do; true once the view holds it and its first page.
    template<typename View, typename Filter> static bool showFilterAndWait(View& view, const Filter& filter)
    {
        QSignalSpy loaded(view.model(), &PagedListModelBase::pageLoaded);
        view.showFilter(filter);
        return view.filter() == filter && loaded.wait(10'000);
    }

    static QString summaryOf(const KeyDetailPane& pane) { return pane.findChild<QLabel*>(u"summary"_s)->text(); }

private slots:
    void initTestCase()
    {
        setUpDatabase();
        // Prefixes with LIKE wildcards next to look-alikes without them, and a non-ASCII one; every status,
        // released and final failures.
        db().exec(u"INSERT INTO idempotency_keys (scope, idem_key, fingerprint, status, failure_retryable, "
                  "  response_status, response_body, locked_until, expires_at, created_at, replay_count, "
                  "  last_replayed_at) "
                  "SELECT CASE WHEN g % 2 = 0 THEN 'orders' ELSE 'tenant-b' END, "
                  "  CASE g % 6 WHEN 0 THEN 'k-' WHEN 1 THEN '50%_off-' WHEN 2 THEN '50%xoff-' "
                  "    WHEN 3 THEN 'a_b-' WHEN 4 THEN 'axb-' ELSE 'ключ-' END || g, "
                  "  md5(g::text) || md5((g + 1)::text), "
                  "  CASE g / 6 % 3 WHEN 0 THEN 'completed' WHEN 1 THEN 'failed' ELSE 'in_progress' END, "
                  "  CASE WHEN g / 6 % 3 = 1 THEN g / 18 % 2 = 0 END, "
                  "  CASE g / 6 % 3 WHEN 0 THEN 201 WHEN 1 THEN 503 END, "
                  "  CASE g / 6 % 3 WHEN 0 THEN jsonb_build_object('id', g) END, "
                  "  now() + interval '1 hour', now() + interval '1 day', "
                  "  ?::timestamptz - g * interval '1 minute', g % 4, CASE WHEN g % 4 > 0 THEN now() END "
                  "FROM generate_series(1, ?::int) g"_s,
            { SeedAnchor.toString(Qt::ISODate), SeededKeys });
        // One worker for every test, as the console has: a result for a model or pane that a test function
        // already destroyed is dropped by the worker, not delivered into the next test.
        m_worker = std::make_unique<DatabaseClient>(u"test"_s);
        QVERIFY(ListModelTesting::openWorker(*m_worker, db().settings()));
    }
    void cleanupTestCase()
    {
        m_worker.reset();
        tearDownDatabase();
    }
    // The keys seeded above serve every test function: no reset in between.
    void init() { }

    void timeRangeFilterBoundsCountOnlyWhenTicked()
    {
        TimeRangeFilter range(u"Created from"_s);
        QSignalSpy changed(&range, &TimeRangeFilter::rangeChanged);
        QVERIFY(!range.from().isValid());
        QVERIFY(!range.to().isValid());

        const QDateTime to = SeedAnchor.addSecs(-3600);
        range.setRange({}, to);
        QVERIFY(!range.from().isValid());
        QCOMPARE(range.to(), to);
        QCOMPARE(changed.size(), 0); // like the other filter controls' setters

        const QList<QCheckBox*> boxes = range.findChildren<QCheckBox*>();
        QCOMPARE(boxes.size(), 2);
        boxes.first()->click();
        QCOMPARE(changed.size(), 1);
        // Ticked, a bound starts from the present: "from" an hour ago, whenever the filter was made.
        QVERIFY(range.from().isValid());
        QVERIFY2(qAbs(range.from().secsTo(QDateTime::currentDateTime().addSecs(-3600))) <= 60,
            qPrintable(range.from().toString(Qt::ISODate)));
        boxes.last()->click();
        QCOMPARE(changed.size(), 2);
        QVERIFY(!range.to().isValid());
        boxes.last()->click();
        QVERIFY2(
            qAbs(range.to().secsTo(QDateTime::currentDateTime())) <= 60, qPrintable(range.to().toString(Qt::ISODate)));
    }

    void pagingFetchesEveryKeyOnceInDescendingOrder()
    {
        KeysTableModel model(*m_worker);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.setPageSize(250); // the last page is exactly full: one more, empty, read ends the list
        model.reload();
        QVERIFY(ListModelTesting::scrollToEnd(model));
        QCOMPARE(model.rowCount(), SeededKeys);
        int insertedRows = 0;
        for (const QList<QVariant>& arguments : inserted)
            insertedRows += arguments.at(2).toInt() - arguments.at(1).toInt() + 1;
        QCOMPARE(insertedRows, SeededKeys); // nothing fetched twice
        QCOMPARE(modelIds(model), idsWhere(u"true"_s));
        QVERIFY(!model.canFetchMore({}));
    }

    void columnsShowTheRecord()
    {
        KeysTableModel model(*m_worker);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        KeyFilter failures;
        failures.keyPrefix = u"50%_off-"_s;
        failures.statuses = { KeyStatus::Failed };
        QSignalSpy loaded(&model, &PagedListModelBase::pageLoaded);
        model.setFilter(failures);
        QVERIFY(loaded.wait(10'000));
        QVERIFY(model.rowCount() > 0);
        const IdempotencyRecord& record = model.rowAt(0);
        const auto cell
            = [&model](int column, int role = Qt::DisplayRole) { return model.index(0, column).data(role); };
        QCOMPARE(cell(0, KeysTableModel::IdRole).toLongLong(), record.id);
        QCOMPARE(cell(0, KeysTableModel::StatusRole).toString(), u"failed"_s);
        QVERIFY(record.failureRetryable.has_value());
        QCOMPARE(cell(KeysTableModel::Status).toString(),
            *record.failureRetryable ? u"failed (released)"_s : u"failed (final)"_s);
        QCOMPARE(cell(KeysTableModel::Key).toString(), record.key);
        QCOMPARE(cell(KeysTableModel::Fingerprint).toString().size(), KeysTableModel::ShortFingerprintLength);
        QVERIFY(record.fingerprint.startsWith(cell(KeysTableModel::Fingerprint).toString()));
        QCOMPARE(cell(KeysTableModel::Fingerprint, Qt::ToolTipRole).toString(), record.fingerprint);
        QCOMPARE(cell(KeysTableModel::Response).toInt(), 503);
        QVERIFY(!cell(KeysTableModel::Order).isValid());
        QCOMPARE(cell(KeysTableModel::Created).toString(), TimeFormatter::display(record.createdAt));
        QCOMPARE(cell(KeysTableModel::Created, Qt::ToolTipRole).toString(), TimeFormatter::exact(record.createdAt));
        QCOMPARE(cell(KeysTableModel::Expires).toString(), TimeFormatter::display(record.expiresAt));
        QCOMPARE(model.headerData(KeysTableModel::Order, Qt::Horizontal).toString(), u"Order"_s);
    }

    void filtersMatchBruteForce_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QStringList>("statuses");
        QTest::addColumn<QDateTime>("from");
        QTest::addColumn<QDateTime>("to");
        QTest::addColumn<QString>("where");
        const QStringList all;
        QTest::newRow("plain prefix") << u"k-1"_s << all << QDateTime() << QDateTime()
                                      << u"starts_with(idem_key, 'k-1')"_s;
        QTest::newRow("% and _ match literally")
            << u"50%_"_s << all << QDateTime() << QDateTime() << u"starts_with(idem_key, '50%_')"_s;
        QTest::newRow("_ is no wildcard")
            << u"a_b"_s << all << QDateTime() << QDateTime() << u"starts_with(idem_key, 'a_b')"_s;
        QTest::newRow("non-ASCII prefix")
            << u"ключ-1"_s << all << QDateTime() << QDateTime() << u"starts_with(idem_key, 'ключ-1')"_s;
        QTest::newRow("one status") << QString() << QStringList { u"completed"_s } << QDateTime() << QDateTime()
                                    << u"status = 'completed'"_s;
        QTest::newRow("two statuses") << QString() << QStringList { u"failed"_s, u"in_progress"_s } << QDateTime()
                                      << QDateTime() << u"status IN ('failed', 'in_progress')"_s;
        QTest::newRow("prefix and status") << u"ключ"_s << QStringList { u"failed"_s } << QDateTime() << QDateTime()
                                           << u"starts_with(idem_key, 'ключ') AND status = 'failed'"_s;
        QTest::newRow("created range") << QString() << all << SeedAnchor.addSecs(-100LL * 60)
                                       << SeedAnchor.addSecs(-50LL * 60)
                                       << u"created_at >= '2025-12-31T22:20:00Z' "
                                          "AND created_at < '2025-12-31T23:10:00Z'"_s;
    }

    void filtersMatchBruteForce()
    {
        QFETCH(QString, prefix);
        QFETCH(QStringList, statuses);
        QFETCH(QDateTime, from);
        QFETCH(QDateTime, to);
        QFETCH(QString, where);
        const QList<qint64> expected = idsWhere(where);
        QVERIFY(!expected.isEmpty());
        QVERIFY(expected.size() < SeededKeys);

        KeysTableModel model(*m_worker);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPageSize(100);
        model.setFilter(KeyFilter { prefix, QueryTesting::keyStatuses(statuses), from, to });
        QVERIFY(ListModelTesting::scrollToEnd(model));
        QCOMPARE(modelIds(model), expected);
    }

    // A page requested for the old filter must never land in the list of the new one.
    void filterChangeDropsStalePage()
    {
        KeysTableModel model(*m_worker);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        KeyFilter failed;
        failed.statuses = { KeyStatus::Failed };
        // Every key, then failed ones only: the first page was dropped, not announced.
        QCOMPARE(ListModelTesting::pagesAnnouncedAfterNarrowing(model, *m_worker, KeyFilter {}, failed), 1);
        QCOMPARE(modelIds(model), idsWhere(u"status = 'failed'"_s).first(KeysTableModel::DefaultPageSize));
    }

    void refreshUpdatesRowsInPlace()
    {
        KeysTableModel model(*m_worker);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&model, &PagedListModelBase::pageLoaded);
        model.reload();
        QVERIFY(loaded.wait(10'000));
        const qint64 id = model.rowAt(2).id;
        db().exec(u"UPDATE idempotency_keys SET replay_count = 77, last_replayed_at = now() WHERE id = ?"_s, { id });
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.refreshRows(0, 5);
        QVERIFY(changed.wait(10'000));
        QCOMPARE(model.rowAt(2).id, id);
        QCOMPARE(model.index(2, KeysTableModel::Replays).data().toInt(), 77);
    }

    void detailPaneShowsResponseAndOrderEvents()
    {
        auto session = db().openSession();
        MetricsRecorder metrics;
        CreateOrderHandler handler(*session, metrics);
        CreateOrderRequest request;
        request.key = u"order-detail-1"_s;
        request.customer = u"alice"_s;
        request.amount = u"12.5"_s;
        const CreateOrderResult created = handler.handle(request);
        QCOMPARE(created.outcome, CreateOrderResult::Outcome::Created);
        QCOMPARE(handler.handle(request).outcome, CreateOrderResult::Outcome::Replayed);
        IdempotencyRepository(*session).foldReplays(); // as a relay or the service does every few seconds
        const qint64 keyId
            = db().scalar(u"SELECT id FROM idempotency_keys WHERE idem_key = 'order-detail-1'"_s).toLongLong();
        const qint64 outboxId = db().scalar(u"SELECT id FROM outbox WHERE aggregate_type = 'order' "
                                            "AND aggregate_id = ?::text"_s,
                                        { QString::number(*created.orderId) })
                                    .toLongLong();

        KeyDetailPane pane(*m_worker);
        auto* events = pane.findChild<QTreeWidget*>(u"events"_s);
        auto* response = pane.findChild<QPlainTextEdit*>(u"response"_s);
        auto* record = pane.findChild<QTreeWidget*>(u"record"_s);
        pane.showKey(keyId);
        QTRY_COMPARE_WITH_TIMEOUT(events->topLevelItemCount(), 1, 10'000);
        QCOMPARE(events->topLevelItem(0)->text(0), QString::number(outboxId));
        QCOMPARE(events->topLevelItem(0)->text(1), u"order.created"_s);
        QCOMPARE(events->topLevelItem(0)->text(2), u"pending"_s);
        QCOMPARE(QJsonDocument::fromJson(response->toPlainText().toUtf8()).object(), created.body);
        QVERIFY(response->toPlainText().contains(u'\n')); // indented for reading
        QVERIFY(summaryOf(pane).contains(u"Completed"_s));
        const QString fingerprint
            = db().scalar(u"SELECT fingerprint FROM idempotency_keys WHERE id = ?"_s, { keyId }).toString();
        QVERIFY(summaryOf(pane).contains(fingerprint));
        const auto field = [record](const QString& name) {
            const QList<QTreeWidgetItem*> items = record->findItems(name, Qt::MatchExactly);
            return items.isEmpty() ? QString() : items.first()->text(1);
        };
        QCOMPARE(field(u"Fingerprint"_s), fingerprint);
        QCOMPARE(field(u"Replays"_s), u"1"_s);
        QCOMPARE(field(u"Order"_s), QString::number(*created.orderId));
        QVERIFY(!field(u"Last replay"_s).isEmpty());
    }

    // The selection moved on before the key's details arrived: they must not be shown.
    void detailPaneDropsStaleResult()
    {
        const qint64 keyId = db().scalar(u"SELECT max(id) FROM idempotency_keys"_s).toLongLong();
        KeyDetailPane pane(*m_worker);
        const QString empty = summaryOf(pane);
        pane.showKey(keyId);
        pane.showKey(0);
        QVERIFY(ListModelTesting::drain(*m_worker, &pane));
        QCOMPARE(summaryOf(pane), empty);
        QCOMPARE(pane.findChild<QTreeWidget*>(u"record"_s)->topLevelItemCount(), 0);
    }

    void detailPaneTellsWhereTheKeyStands_data()
    {
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("update");
        QTest::addColumn<QString>("expected");
        QTest::newRow("executing") << u"status = 'in_progress'"_s << QString() << u"In progress: a request"_s;
        QTest::newRow("crashed") << u"status = 'in_progress'"_s << u"locked_until = now() - interval '1 minute'"_s
                                 << u"lease expired"_s;
        QTest::newRow("released") << u"status = 'failed' AND failure_retryable"_s << QString()
                                  << u"Failed, retryable (released)"_s;
        QTest::newRow("final") << u"status = 'failed' AND NOT failure_retryable"_s << QString() << u"Failed, final"_s;
        QTest::newRow("expired") << u"status = 'completed'"_s << u"expires_at = now() - interval '1 minute'"_s
                                 << u"treated as new"_s;
    }

    void detailPaneTellsWhereTheKeyStands()
    {
        QFETCH(QString, where);
        QFETCH(QString, update);
        QFETCH(QString, expected);
        const qint64 keyId = idsWhere(where).last();
        if (!update.isEmpty())
            db().exec(u"UPDATE idempotency_keys SET "_s + update + u" WHERE id = ?"_s, { keyId });
        KeyDetailPane pane(*m_worker);
        pane.showKey(keyId);
        QTRY_VERIFY_WITH_TIMEOUT(summaryOf(pane).contains(expected), 10'000);
    }

    void viewCopiesAndKeepsTheSelectionOnRefresh()
    {
        KeysView view(*m_worker);
        KeyFilter filter;
        filter.keyPrefix = u"k-"_s;
        filter.createdFrom = SeedAnchor.addDays(-30);
        filter.createdTo = SeedAnchor.addDays(1);
        QVERIFY(showFilterAndWait(view, filter));

        QTableView* table = view.table();
        table->selectionModel()->select(QItemSelection(view.model()->index(0, 0), view.model()->index(1, 0)),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const QList<qint64> selected { view.model()->rowAt(1).id, view.model()->rowAt(0).id };
        QVERIFY(view.copyAction()->isEnabled());
        view.copyAction()->trigger();
        const QJsonArray copied = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).array();
        QCOMPARE(copied.size(), 2);
        QCOMPARE(copied.at(0)[u"id"_s].toInteger(), view.model()->rowAt(0).id);
        QCOMPARE(copied.at(0)[u"key"_s].toString(), view.model()->rowAt(0).key);
        QCOMPARE(copied.at(0)[u"fingerprint"_s].toString(), view.model()->rowAt(0).fingerprint);

        // A new key arrives at the top: after the reload the same keys are selected, one row further down.
        db().exec(u"INSERT INTO idempotency_keys (scope, idem_key, fingerprint, status, response_status, "
                  "  expires_at, created_at) "
                  "VALUES ('orders', 'k-new', repeat('a', 64), 'completed', 201, now() + interval '1 day', ?)"_s,
            { SeedAnchor.toString(Qt::ISODate) });
        view.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!view.model()->isLoading() && view.model()->rowAt(0).key == u"k-new"_s, 10'000);
        QTRY_COMPARE_WITH_TIMEOUT(table->selectionModel()->selectedRows().size(), 2, 10'000);
        QList<qint64> reselected;
        for (const QModelIndex& index : table->selectionModel()->selectedRows())
            reselected.append(index.data(KeysTableModel::IdRole).toLongLong());
        std::sort(reselected.begin(), reselected.end());
        QCOMPARE(reselected, selected);
    }

    // Several states are chosen in one visit: a click on a state toggles it and the menu stays open.
    void statusMenuStaysOpenWhileStatesAreChosen()
    {
        StatusFilterButton button({ u"pending"_s, u"failed"_s, u"dead"_s });
        button.show();
        QSignalSpy changed(&button, &StatusFilterButton::statusesChanged);
        QMenu* menu = button.menu();
        menu->popup(button.mapToGlobal(QPoint(0, button.height())));
        QVERIFY(QTest::qWaitForWindowExposed(menu));
        const QList<QAction*> actions = menu->actions();
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(actions.at(1)).center());
        QVERIFY(menu->isVisible());
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(actions.at(2)).center());
        QVERIFY(menu->isVisible());
        QCOMPARE(button.checkedStatuses(), (QStringList { u"failed"_s, u"dead"_s }));
        QCOMPARE(changed.size(), 2);
        QCOMPARE(button.text(), u"Status: failed, dead"_s);
        // Clicked again, a state is unchosen.
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(actions.at(1)).center());
        QCOMPARE(button.checkedStatuses(), QStringList { u"dead"_s });
        menu->close();
    }

    // OutboxView is built from the same pieces (time range, table setup, selection, copy, refresh).
    void outboxViewKeepsItsBehaviourOnTheSharedPieces()
    {
        db().exec(u"INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                  "SELECT 'invoice', g::text, 'invoice.issued', '{}', 'invoice-' || g FROM generate_series(1, 5) g"_s);
        OutboxView view(*m_worker, *m_worker);
        OutboxFilter filter;
        filter.statuses = { OutboxStatus::Pending };
        filter.createdFrom = SeedAnchor.addYears(-10);
        filter.createdTo = SeedAnchor.addYears(10);
        QVERIFY(showFilterAndWait(view, filter));
        QCOMPARE(view.model()->rowCount(), 6); // and the order's event

        QTableView* table = view.table();
        table->selectRow(1);
        const qint64 id = view.model()->rowAt(1).id;
        auto* detail = view.findChild<OutboxDetailPane*>();
        QCOMPARE(detail->shownRow(), id);
        view.copyAction()->trigger();
        const QJsonArray copied = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).array();
        QCOMPARE(copied.size(), 1);
        QCOMPARE(copied.at(0)[u"id"_s].toInteger(), id);
        QCOMPARE(copied.at(0)[u"event_type"_s].toString(), view.model()->rowAt(1).eventType);

        view.refresh();
        QVERIFY(view.model()->isLoading());
        // The rows, and so the selection, stay until the first page replaces them (a reload that fails keeps them).
        QCOMPARE(view.model()->rowCount(), 6);
        QVERIFY(table->selectionModel()->hasSelection());
        QTRY_VERIFY_WITH_TIMEOUT(!view.model()->isLoading(), 10'000);
        QCOMPARE(table->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(table->selectionModel()->selectedRows().first().data(OutboxTableModel::IdRole).toLongLong(), id);
    }

    void viewRendersOffscreen()
    {
        KeysView view(*m_worker);
        view.resize(1500, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_VERIFY_WITH_TIMEOUT(view.model()->rowCount() > 0 && !view.model()->isLoading(), 10'000);
        const int row = view.model()->rowOfId(
            db().scalar(u"SELECT id FROM idempotency_keys WHERE idem_key = 'order-detail-1'"_s).toLongLong());
        QVERIFY(row >= 0);
        view.table()->selectRow(row);
        auto* events = view.findChild<QTreeWidget*>(u"events"_s);
        QTRY_COMPARE_WITH_TIMEOUT(events->topLevelItemCount(), 1, 10'000);

        const QImage image = view.grab().toImage();
        QVERIFY(image.save(u"keysview.png"_s));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3) {
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        }
        QVERIFY2(colours.size() > 20, qPrintable(u"only %1 colours"_s.arg(colours.size())));
    }

private:
    std::unique_ptr<DatabaseClient> m_worker;
};

QTEST_MAIN(TestKeysView)
#include "tst_keysview.moc"
