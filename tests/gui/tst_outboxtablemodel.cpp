// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/databaseclient.h"
#include "outbox/outboxtablemodel.h"
#include "outbox/stuckrowclassifier.h"
#include "support/databasetestcase.h"
#include "support/listmodeltesting.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QGuiApplication>
#include <QPalette>
#include <QSignalSpy>
#include <QTest>

class TestOutboxTableModel final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestOutboxTableModel()
        : DatabaseTestCase(QStringLiteral("outboxtablemodel"))
    { }

private slots:
    void initTestCase()
    {
        setUpDatabase();
        db().exec(
            QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                           "  status, last_error) "
                           "SELECT 'order', g::text, 'order.created', '{}', 'k' || g, "
                           "  CASE WHEN g % 10 = 0 THEN 'dead' WHEN g % 10 = 1 THEN 'failed' ELSE 'published' END, "
                           "  CASE WHEN g % 10 IN (0, 1) THEN 'boom ' || g END "
                           "FROM generate_series(1, 50000) g"));
    }
    // The rows seeded above serve every test function: no reset in between.
    void init() { }

    void scrollingFetchesEveryRowOnceInOrder()
    {
        DatabaseClient worker(QStringLiteral("test"));
        QVERIFY(ListModelTesting::openWorker(worker, db().settings()));
        OutboxTableModel model(worker);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPageSize(1000);
        model.reload();
        QVERIFY(ListModelTesting::scrollToEnd(model));
        QCOMPARE(model.rowCount(), 50'000);
        for (int row = 0; row < model.rowCount(); ++row) {
            if (model.rowAt(row).id != 50'000 - row)
                QFAIL(qPrintable(QStringLiteral("row %1 holds id %2").arg(row).arg(model.rowAt(row).id)));
        }
        QVERIFY(!model.canFetchMore({}));
    }

    // A page requested for the old filter must never land in the list of the new one.
    void filterChangeDropsStaleResults()
    {
        DatabaseClient worker(QStringLiteral("test"));
        QVERIFY(ListModelTesting::openWorker(worker, db().settings()));
        OutboxTableModel model(worker);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        OutboxFilter dead;
        dead.statuses = { OutboxStatus::Dead };
        // All rows, then dead ones only: the first page was dropped, not announced.
        QCOMPARE(ListModelTesting::pagesAnnouncedAfterNarrowing(model, worker, OutboxFilter {}, dead), 1);
        QCOMPARE(model.rowCount(), int(OutboxTableModel::DefaultPageSize));
        for (int row = 0; row < model.rowCount(); ++row)
            QCOMPARE(model.rowAt(row).status, OutboxStatus::Dead);
    }

    void stuckRowsAreMarked_data()
    {
        QTest::addColumn<QString>("update");
        QTest::addColumn<int>("kind");
        QTest::newRow("dead") << QStringLiteral("status = 'dead'") << int(StuckRowClassifier::Kind::Dead);
        QTest::newRow("lease expired") << QStringLiteral("status = 'in_flight', lease_owner = 'w', "
                                                         "lease_expires_at = now() - interval '1 minute'")
                                       << int(StuckRowClassifier::Kind::LeaseExpired);
        QTest::newRow("overdue") << QStringLiteral("status = 'pending', next_attempt_at = now() - interval '1 hour'")
                                 << int(StuckRowClassifier::Kind::Overdue);
        QTest::newRow("healthy") << QStringLiteral("status = 'pending', next_attempt_at = now()")
                                 << int(StuckRowClassifier::Kind::NotStuck);
    }

    void stuckRowsAreMarked()
    {
        QFETCH(QString, update);
        QFETCH(int, kind);
        db().exec(QStringLiteral("UPDATE outbox SET ") + update + QStringLiteral(" WHERE id = 50000"));
        DatabaseClient worker(QStringLiteral("test"));
        QVERIFY(ListModelTesting::openWorker(worker, db().settings()));
        OutboxTableModel model(worker);
        QSignalSpy loaded(&model, &PagedListModelBase::pageLoaded);
        model.reload();
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(model.rowAt(0).id, 50'000LL);
        QCOMPARE(model.index(0, 0).data(OutboxTableModel::StuckRole).toInt(), kind);
        QCOMPARE(model.index(0, 0).data(Qt::BackgroundRole).isValid(), kind != int(StuckRowClassifier::Kind::NotStuck));
    }

    // A published or discarded row keeps the last error it had: the list says it is history (greyed, "before …",
    // a tooltip saying so), while a failed or dead row's error is shown as it is, as what is wrong now.
    void aPublishedRowsErrorIsHistory()
    {
        db().exec(QStringLiteral("UPDATE outbox SET status = s.status, last_error = 'boom ' || outbox.id, "
                                 "  published_at = CASE WHEN s.status = 'published' THEN now() END "
                                 "FROM (VALUES (49980, 'published'), (49981, 'discarded'), (49982, 'failed'), "
                                 "  (49983, 'dead')) AS s(id, status) WHERE outbox.id = s.id"));
        DatabaseClient worker(QStringLiteral("test"));
        QVERIFY(ListModelTesting::openWorker(worker, db().settings()));
        OutboxTableModel model(worker);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        OutboxFilter rows;
        rows.ids = { 49980, 49981, 49982, 49983 };
        QSignalSpy loaded(&model, &PagedListModelBase::pageLoaded);
        model.setFilter(rows);
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(model.rowCount(), 4);
        const auto lastError = [&](qint64 id, int role) {
            return model.index(model.rowOfId(id), OutboxTableModel::LastError).data(role);
        };
        const QColor grey = QGuiApplication::palette().color(QPalette::PlaceholderText);

        QCOMPARE(lastError(49980, Qt::DisplayRole).toString(), QStringLiteral("before publishing: boom 49980"));
        QCOMPARE(lastError(49980, Qt::ForegroundRole).value<QBrush>().color(), grey);
        QVERIFY2(lastError(49980, Qt::ToolTipRole).toString().startsWith(QStringLiteral("A past error")),
            qPrintable(lastError(49980, Qt::ToolTipRole).toString()));
        QVERIFY(lastError(49980, Qt::ToolTipRole).toString().endsWith(QStringLiteral("boom 49980")));
        QCOMPARE(lastError(49981, Qt::DisplayRole).toString(), QStringLiteral("before it was discarded: boom 49981"));
        QCOMPARE(lastError(49981, Qt::ForegroundRole).value<QBrush>().color(), grey);
        for (const qint64 current : { 49982, 49983 }) {
            QCOMPARE(lastError(current, Qt::DisplayRole).toString(), QStringLiteral("boom %1").arg(current));
            QVERIFY(!lastError(current, Qt::ForegroundRole).isValid());
            QCOMPARE(lastError(current, Qt::ToolTipRole).toString(), QStringLiteral("boom %1").arg(current));
        }
    }

    void refreshUpdatesRowsInPlace()
    {
        DatabaseClient worker(QStringLiteral("test"));
        QVERIFY(ListModelTesting::openWorker(worker, db().settings()));
        OutboxTableModel model(worker);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&model, &PagedListModelBase::pageLoaded);
        model.reload();
        QVERIFY(loaded.wait(10'000));
        const int rows = model.rowCount();
        db().exec(QStringLiteral("UPDATE outbox SET status = 'published', attempts = 7 WHERE id = 49999"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.refreshRows(0, 10);
        QVERIFY(changed.wait(10'000));
        QCOMPARE(model.rowCount(), rows);
        QCOMPARE(model.rowAt(1).id, 49'999LL);
        QCOMPARE(model.rowAt(1).attempts, 7);
    }
};

QTEST_MAIN(TestOutboxTableModel)
#include "tst_outboxtablemodel.moc"
