// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/keysetquery.h"

#include <QTest>

namespace {

// The statement with every '?' replaced by its bind (strings quoted), in order: what PostgreSQL will execute.
// Empty if placeholders and binds do not pair up.
template<typename Fragment> QString inlined(const Fragment& query)
{
    if (query.sql.count(QLatin1Char('?')) != query.binds.size())
        return {};
    QString out;
    qsizetype bind = 0;
    for (const QChar c : query.sql) {
        if (c != QLatin1Char('?')) {
            out += c;
            continue;
        }
        const QVariant& value = query.binds.at(bind++);
        out += value.typeId() == QMetaType::QString ? QLatin1Char('\'') + value.toString() + QLatin1Char('\'')
                                                    : value.toString();
    }
    return out;
}

} // namespace

// The page queries behind every list: keyset paging by id (never OFFSET), one index range scan per branch
// merged by UNION ALL, every value bound.
class TestKeysetQuery final : public QObject {
    Q_OBJECT

private slots:
    void plainPage_data()
    {
        QTest::addColumn<bool>("descending");
        QTest::addColumn<qint64>("cursor");
        QTest::addColumn<QString>("sql");
        QTest::newRow("newest first, first page")
            << true << 0LL << QStringLiteral("SELECT id, status FROM outbox WHERE true ORDER BY id DESC LIMIT 50::int");
        QTest::newRow("oldest first, first page")
            << false << 0LL << QStringLiteral("SELECT id, status FROM outbox WHERE true ORDER BY id LIMIT 50::int");
        QTest::newRow("newest first, after a cursor")
            << true << 1234LL
            << QStringLiteral(
                   "SELECT id, status FROM outbox WHERE true AND id < 1234::bigint ORDER BY id DESC LIMIT 50::int");
        QTest::newRow("oldest first, after a cursor")
            << false << 1234LL
            << QStringLiteral(
                   "SELECT id, status FROM outbox WHERE true AND id > 1234::bigint ORDER BY id LIMIT 50::int");
    }

    void plainPage()
    {
        QFETCH(bool, descending);
        QFETCH(qint64, cursor);
        QFETCH(QString, sql);
        const KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id, status"));
        QCOMPARE(inlined(query.build(descending, cursor, 50)), sql);
    }

    void conditionsAreAndedInTheOrderGiven()
    {
        KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id"));
        query.require(QStringLiteral("event_type = ?::text"), { QStringLiteral("order.paid") });
        query.require(QStringLiteral("created_at >= ?::timestamptz AND created_at < ?::timestamptz"),
            { QStringLiteral("2024-01-01"), QStringLiteral("2024-01-02") });
        query.require(QStringLiteral("last_error IS NOT NULL"));
        QCOMPARE(inlined(query.build(true, 99, 10)),
            QStringLiteral("SELECT id FROM outbox WHERE true AND event_type = 'order.paid'::text "
                           "AND created_at >= '2024-01-01'::timestamptz AND created_at < '2024-01-02'::timestamptz "
                           "AND last_error IS NOT NULL AND id < 99::bigint ORDER BY id DESC LIMIT 10::int"));
    }

    // Each branch is a complete page query of its own (conditions, cursor, order and limit), so PostgreSQL can
    // read each from an index in id order and stop early; the merge orders and limits once more.
    void branchesAreMergedEachWithCursorAndLimit()
    {
        KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id"));
        query.addBranch(QStringLiteral("status = ?::text"), { QStringLiteral("failed") });
        query.addBranch(QStringLiteral("status = ?::text AND lease_expires_at < now()"), { QStringLiteral("dead") });
        query.require(QStringLiteral("aggregate_id = ?::text"), { QStringLiteral("agg-3") });
        const QString branch = QStringLiteral("(SELECT id FROM outbox WHERE %1 AND aggregate_id = 'agg-3'::text "
                                              "AND id < 500::bigint ORDER BY id DESC LIMIT 20::int)");
        QCOMPARE(inlined(query.build(true, 500, 20)),
            QStringLiteral("SELECT * FROM (%1 UNION ALL %2) merged ORDER BY id DESC LIMIT 20::int")
                .arg(branch.arg(QStringLiteral("status = 'failed'::text")),
                    branch.arg(QStringLiteral("status = 'dead'::text AND lease_expires_at < now()"))));
    }

    void oneBranchIsStillABranch()
    {
        KeysetQuery query(QStringLiteral("idempotency_keys"), QStringLiteral("id, idem_key"));
        query.addBranch(QStringLiteral("status = ?::text"), { QStringLiteral("completed") });
        QCOMPARE(inlined(query.build(false, 0, 3)),
            QStringLiteral("SELECT * FROM ((SELECT id, idem_key FROM idempotency_keys WHERE status = 'completed'::text "
                           "ORDER BY id LIMIT 3::int)) merged ORDER BY id LIMIT 3::int"));
    }

    void placeholdersAndBindsPairUp_data()
    {
        QTest::addColumn<int>("conditions");
        QTest::addColumn<int>("branches");
        QTest::addColumn<bool>("descending");
        QTest::addColumn<qint64>("cursor");
        for (const int conditions : { 0, 1, 3 }) {
            for (const int branches : { 0, 1, 5 }) {
                for (const qint64 cursor : { 0LL, 77LL }) {
                    for (const bool descending : { true, false }) {
                        QTest::addRow("%d conditions, %d branches, cursor %lld, %s", conditions, branches, cursor,
                            descending ? "descending" : "ascending")
                            << conditions << branches << descending << cursor;
                    }
                }
            }
        }
    }

    void placeholdersAndBindsPairUp()
    {
        QFETCH(int, conditions);
        QFETCH(int, branches);
        QFETCH(bool, descending);
        QFETCH(qint64, cursor);
        KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id"));
        for (int i = 0; i < conditions; ++i)
            query.require(QStringLiteral("c%1 = ?::int").arg(i), { 1000 + i });
        for (int i = 0; i < branches; ++i)
            query.addBranch(QStringLiteral("b%1 = ?::int").arg(i), { 2000 + i });
        const auto built = query.build(descending, cursor, 25);
        QCOMPARE(built.sql.count(QLatin1Char('?')), built.binds.size());
        const QString sql = inlined(built);
        QVERIFY(!sql.isEmpty());
        // Every branch repeats every condition and the cursor with its own binds.
        const int scans = qMax(branches, 1);
        for (int i = 0; i < conditions; ++i)
            QCOMPARE(sql.count(QStringLiteral("c%1 = %2::int").arg(i).arg(1000 + i)), scans);
        for (int i = 0; i < branches; ++i)
            QCOMPARE(sql.count(QStringLiteral("b%1 = %2::int").arg(i).arg(2000 + i)), 1);
        const QString keyset = descending ? QStringLiteral("id < 77::bigint") : QStringLiteral("id > 77::bigint");
        QCOMPARE(sql.count(keyset), cursor > 0 ? scans : 0);
        QCOMPARE(sql.count(QStringLiteral("LIMIT 25::int")), branches > 0 ? branches + 1 : 1);
        QCOMPARE(sql.count(QStringLiteral(" UNION ALL ")), qMax(branches - 1, 0));
        QVERIFY(!sql.contains(QLatin1String("OFFSET"), Qt::CaseInsensitive));
        QVERIFY(sql.endsWith(
            descending ? QLatin1String("ORDER BY id DESC LIMIT 25::int") : QLatin1String("ORDER BY id LIMIT 25::int")));
    }

    // While a created-time range is set the list is ordered by created_at, then id; the cursor stays an id and its
    // created_at is read from the row (created_at never changes), so the page after it starts exactly behind it.
    void orderedByAColumn_data()
    {
        QTest::addColumn<bool>("descending");
        QTest::addColumn<qint64>("cursor");
        QTest::addColumn<QString>("sql");
        QTest::newRow("newest first, first page")
            << true << 0LL
            << QStringLiteral("SELECT id, created_at AS keyset_order FROM outbox WHERE true "
                              "ORDER BY created_at DESC, id DESC LIMIT 50::int");
        QTest::newRow("newest first, after a cursor")
            << true << 9LL
            << QStringLiteral("SELECT id, created_at AS keyset_order FROM outbox WHERE true AND (created_at, id) < "
                              "((SELECT created_at FROM outbox WHERE id = 9::bigint), 9::bigint) "
                              "ORDER BY created_at DESC, id DESC LIMIT 50::int");
        QTest::newRow("oldest first, after a cursor")
            << false << 9LL
            << QStringLiteral("SELECT id, created_at AS keyset_order FROM outbox WHERE true AND (created_at, id) > "
                              "((SELECT created_at FROM outbox WHERE id = 9::bigint), 9::bigint) "
                              "ORDER BY created_at, id LIMIT 50::int");
    }

    void orderedByAColumn()
    {
        QFETCH(bool, descending);
        QFETCH(qint64, cursor);
        QFETCH(QString, sql);
        KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id"));
        query.orderBy(QStringLiteral("created_at"));
        QCOMPARE(inlined(query.build(descending, cursor, 50)), sql);
    }

    // Branches ordered by a column are merged on it, under a name of its own whatever the selected columns are.
    void branchesOrderedByAColumnMergeOnIt()
    {
        KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id"));
        query.orderBy(QStringLiteral("created_at"));
        query.addBranch(QStringLiteral("status = ?::text"), { QStringLiteral("failed") });
        query.addBranch(QStringLiteral("status = ?::text"), { QStringLiteral("dead") });
        const QString branch = QStringLiteral("(SELECT id, created_at AS keyset_order FROM outbox WHERE status = "
                                              "'%1'::text ORDER BY created_at DESC, id DESC LIMIT 5::int)");
        QCOMPARE(inlined(query.build(true, 0, 5)),
            QStringLiteral("SELECT * FROM (%1 UNION ALL %2) merged ORDER BY keyset_order DESC, id DESC LIMIT 5::int")
                .arg(branch.arg(QStringLiteral("failed")), branch.arg(QStringLiteral("dead"))));
    }

    // A search whose index yields rows in no useful order collects the keys of every match behind an OFFSET 0
    // fence (so the planner cannot turn it into a walk of the primary key), orders them, and reads the page's
    // columns for those rows only. The branches become alternatives of one condition.
    void collectingBeforeOrdering()
    {
        KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id, status"));
        query.require(QStringLiteral("last_error ILIKE ?::text"), { QStringLiteral("%refused%") });
        query.addBranch(QStringLiteral("status = ?::text"), { QStringLiteral("failed") });
        query.addBranch(QStringLiteral("status = ?::text"), { QStringLiteral("dead") });
        query.collectBeforeOrdering();
        QCOMPARE(inlined(query.build(true, 40, 10)),
            QStringLiteral(
                "SELECT id, status FROM outbox WHERE id IN (SELECT id FROM (SELECT id FROM outbox WHERE "
                "((status = 'failed'::text) OR (status = 'dead'::text)) AND last_error ILIKE '%refused%'::text "
                "AND id < 40::bigint OFFSET 0) collected ORDER BY id DESC LIMIT 10::int) "
                "ORDER BY id DESC LIMIT 10::int"));
    }

    // A condition tried on the first rows of the walk only: the page query limited to the window, filtered, then
    // ordered and limited like a page.
    void conditionWithinAWindow()
    {
        KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id, last_error"));
        query.addBranch(QStringLiteral("status = ?::text"), { QStringLiteral("failed") });
        QCOMPARE(inlined(query.buildWithin(
                     4000, { QStringLiteral("last_error ILIKE ?::text"), { QStringLiteral("%x%") } }, true, 70, 20)),
            QStringLiteral("SELECT * FROM (SELECT * FROM ((SELECT id, last_error FROM outbox WHERE status = "
                           "'failed'::text AND id < 70::bigint ORDER BY id DESC LIMIT 4000::int)) merged ORDER BY id "
                           "DESC LIMIT 4000::int) windowed WHERE last_error ILIKE '%x%'::text ORDER BY id DESC "
                           "LIMIT 20::int"));
        query.orderBy(QStringLiteral("created_at"));
        QVERIFY(inlined(query.buildWithin(10, { QStringLiteral("true"), {} }, true, 0, 5))
                    .endsWith(QLatin1String("windowed WHERE true ORDER BY keyset_order DESC, id DESC LIMIT 5::int")));
    }

    void optionsKeepPlaceholdersAndBindsPaired_data()
    {
        QTest::addColumn<bool>("byColumn");
        QTest::addColumn<bool>("collect");
        QTest::addColumn<int>("branches");
        QTest::addColumn<qint64>("cursor");
        for (const bool byColumn : { false, true }) {
            for (const bool collect : { false, true }) {
                for (const int branches : { 0, 1, 3 }) {
                    for (const qint64 cursor : { 0LL, 77LL }) {
                        QTest::addRow("%s, %s, %d branches, cursor %lld", byColumn ? "by column" : "by id",
                            collect ? "collected" : "walked", branches, cursor)
                            << byColumn << collect << branches << cursor;
                    }
                }
            }
        }
    }

    void optionsKeepPlaceholdersAndBindsPaired()
    {
        QFETCH(bool, byColumn);
        QFETCH(bool, collect);
        QFETCH(int, branches);
        QFETCH(qint64, cursor);
        KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id"));
        query.require(QStringLiteral("c = ?::int"), { 1000 });
        for (int i = 0; i < branches; ++i)
            query.addBranch(QStringLiteral("b%1 = ?::int").arg(i), { 2000 + i });
        if (byColumn)
            query.orderBy(QStringLiteral("created_at"));
        if (collect)
            query.collectBeforeOrdering();
        const QString sql = inlined(query.build(true, cursor, 25));
        QVERIFY(!sql.isEmpty());
        QCOMPARE(sql.contains(QLatin1String("OFFSET 0")), collect);
        QCOMPARE(sql.contains(QLatin1String("created_at DESC, id DESC")), byColumn);
        QCOMPARE(sql.contains(QLatin1String("77::bigint")), cursor > 0);
        for (int i = 0; i < branches; ++i)
            QCOMPARE(sql.count(QStringLiteral("b%1 = %2::int").arg(i).arg(2000 + i)), 1);
    }

    // Values travel as binds only: whatever an operator types cannot change the statement.
    void valuesAreNeverSplicedIn()
    {
        const QString hostile = QStringLiteral("x'; DROP TABLE outbox; --");
        KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id"));
        query.require(QStringLiteral("strpos(last_error, ?::text) > 0"), { hostile });
        query.addBranch(QStringLiteral("aggregate_id = ?::text"), { hostile });
        const auto built = query.build(true, 0, 10);
        QVERIFY(!built.sql.contains(QLatin1String("DROP TABLE")));
        QCOMPARE(built.binds.count(hostile), 2);
    }

    // build() reads the query without changing it, so a model can ask for page after page.
    void buildingAgainGivesTheSameStatement()
    {
        KeysetQuery query(QStringLiteral("outbox"), QStringLiteral("id"));
        query.require(QStringLiteral("event_type = ?::text"), { QStringLiteral("order.paid") });
        query.addBranch(QStringLiteral("status = ?::text"), { QStringLiteral("dead") });
        const QString first = inlined(query.build(true, 0, 10));
        QVERIFY(!first.isEmpty());
        QVERIFY(inlined(query.build(true, 300, 10)) != first);
        QCOMPARE(inlined(query.build(true, 0, 10)), first);
    }
};

QTEST_GUILESS_MAIN(TestKeysetQuery)
#include "tst_keysetquery.moc"
