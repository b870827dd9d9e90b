// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/changenotifier.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "idempotency/idempotencyrepository.h"
#include "operations/eventtypebreakdown.h"
#include "operations/outboxoperator.h"
#include "operations/outboxoverview.h"
#include "outbox/outboxreadrepository.h"
#include "outbox/outboxrepository.h"
#include "outbox/stuckrowclassifier.h"
#include "relay/outboxrelay.h"
#include "support/databasetestcase.h"
#include "support/querytesting.h"
#include "support/recordingsink.h"
#include "support/runningrelay.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QSqlDriver>
#include <QTest>
#include <algorithm>
#include <functional>

using namespace QueryTesting;

namespace {

QList<qint64> idsOf(const QList<OutboxRowSummary>& rows)
{
    QList<qint64> ids;
    for (const OutboxRowSummary& row : rows)
        ids.append(row.id);
    return ids;
}

} // namespace

// The outbox queries behind the console's lists and detail panes: keyset pages under every filter, the freeze
// of a selection, stuck rows as SQL and as the classifier see them, and change notifications.
class TestOutboxQueries final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestOutboxQueries()
        : DatabaseTestCase(QStringLiteral("outboxqueries"))
    { }

private:
    // The ids and the tokens of one claim of up to `batch` rows, leased for ten minutes, as two array literals.
    std::pair<QString, QString> claimLogBatch(const QString& worker, int batch)
    {
        const QStringList arrays
            = db().scalar(QStringLiteral("SELECT array_agg(id)::text || '|' || array_agg(lease_token)::text "
                                         "FROM outbox_claim('queries', ?::text, ?::int, 600000)"),
                      { worker, batch })
                  .toString()
                  .split(QLatin1Char('|'));
        return { arrays.value(0), arrays.value(1) };
    }

    // Claims up to `batch` rows and completes them; false when none was due.
    bool publishLogBatch(int batch)
    {
        const auto [ids, tokens] = claimLogBatch(QStringLiteral("queries/w0"), batch);
        if (!ids.isEmpty())
            db().exec(
                QStringLiteral("SELECT count(*) FROM outbox_complete(?::bigint[], ?::bigint[])"), { ids, tokens });
        return !ids.isEmpty();
    }

    // A partition of its own that autovacuum leaves alone, analyzed while every row in it had a status (as every
    // partition of a database upgraded from before schema 28 was), then about 2,500 rows of each lane of the log
    // waiting. Returns the partition's name.
    static constexpr int PublishedFirst = 16;
    QString logAfterStatisticsWithoutIt()
    {
        session().execScript(QStringLiteral("CALL outbox_roll()"), QStringLiteral("opening a partition"));
        const QString partition
            = db().scalar(QStringLiteral("SELECT name FROM outbox_partitions WHERE upper_id IS NULL")).toString();
        session().execScript(QStringLiteral("ALTER TABLE %1 SET (autovacuum_enabled = off)").arg(partition),
            QStringLiteral("keeping autovacuum away"));
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, published_at) "
            "SELECT 'order', g::text, 'order.created', '{}', 'history:' || g, 'published', now() "
            "FROM generate_series(1, 20000) g"));
        session().execScript(QStringLiteral("ANALYZE %1").arg(partition), QStringLiteral("analyzing the partition"));
        // Then the log: a first row of each lane published (unordered rows take the lane of their id), so that
        // every lane is done through a tick of a relay's claim (the first tick, the install's, leaves every later
        // transaction to be read); then about 2,500 rows of each lane waiting, in large transactions.
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', g::text, 'order.created', '{}', ordered => false) "
                                 "FROM generate_series(1, ?::int) g"),
            { PublishedFirst });
        while (publishLogBatch(100)) { }
        for (int transaction = 0; transaction < 4; ++transaction) {
            db().exec(
                QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                               "SELECT 'order', g::text, 'order.created', '{}', ?::text || ':' || g "
                               "FROM generate_series(1, 10000) g"),
                { transaction });
        }
        return partition;
    }

    // 2,500 rows, one minute apart from 2024-01-01T00:01Z, statuses in turn (500 each), three event types,
    // seven aggregates. Failed and dead rows carry errors that an unescaped LIKE would confuse: "100%" vs
    // "100 ms", "queue_a" vs "queueXa"; payloads name one of eleven customers and a note of "50%" or "50 now".
    void seedMixed()
    {
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, last_error, "
            "  lease_owner, lease_expires_at, created_at) "
            "SELECT 'order', 'agg-' || g % 7, (ARRAY['order.created', 'order.paid', 'order.shipped'])[1 + g % 3], "
            "  jsonb_build_object('customer', 'C-' || g % 11, 'note', CASE WHEN g % 13 = 0 THEN 'save 50%' "
            "    ELSE 'save 50 now' END), 'mixed:' || g, st.status, "
            "  CASE WHEN st.status IN ('failed', 'dead') THEN (ARRAY["
            "    E'Broker rejected: 100% of quota used\\nretry later', 'queue_a unavailable', 'queueXa unavailable', "
            "    'timeout after 100 ms'])[1 + g % 4] END, "
            "  CASE WHEN st.status = 'in_flight' THEN 'relay-1/w0' END, "
            "  CASE WHEN st.status = 'in_flight' THEN now() + interval '1 hour' END, "
            "  timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute' "
            "FROM generate_series(1, 2500) g, "
            "  LATERAL (SELECT (ARRAY['pending', 'in_flight', 'published', 'failed', 'dead'])[1 + g % 5]) st(status)"));
    }

    // The reference the library's queries must agree with: the ids the database finds for a plain WHERE clause.
    QList<qint64> idsWhere(const QString& where, Qt::SortOrder order)
    {
        const QString ids
            = db().scalar(QStringLiteral("SELECT coalesce(string_agg(id::text, ',' ORDER BY id %1), '') "
                                         "FROM outbox WHERE %2")
                              .arg(order == Qt::AscendingOrder ? QStringLiteral("ASC") : QStringLiteral("DESC"), where))
                  .toString();
        QList<qint64> result;
        for (const QString& id : ids.split(QLatin1Char(','), Qt::SkipEmptyParts))
            result.append(id.toLongLong());
        return result;
    }

    // Kinds of rows the console must tell apart, each labelled through its aggregate id.
    void seedOneOfEachKind()
    {
        addRow(db(), QStringLiteral("in_flight"),
            QStringLiteral("aggregate_id = 'lease expired', lease_expires_at = now() - interval '1 minute'"));
        addRow(db(), QStringLiteral("in_flight"), QStringLiteral("aggregate_id = 'lease live'"));
        addRow(db(), QStringLiteral("pending"),
            QStringLiteral("aggregate_id = 'pending overdue', next_attempt_at = now() - interval '10 minutes'"));
        addRow(db(), QStringLiteral("pending"),
            QStringLiteral("aggregate_id = 'pending overdue 2 min', next_attempt_at = now() - interval '2 minutes'"));
        addRow(db(), QStringLiteral("pending"),
            QStringLiteral("aggregate_id = 'pending due recently', next_attempt_at = now() - interval '10 seconds'"));
        addRow(db(), QStringLiteral("failed"),
            QStringLiteral("aggregate_id = 'failed overdue', next_attempt_at = now() - interval '10 minutes'"));
        addRow(db(), QStringLiteral("failed"),
            QStringLiteral("aggregate_id = 'failed not yet due', next_attempt_at = now() + interval '10 minutes'"));
        addRow(db(), QStringLiteral("dead"), QStringLiteral("aggregate_id = 'dead'"));
        // An old next_attempt_at must not make a published row look overdue.
        addRow(db(), QStringLiteral("published"),
            QStringLiteral("aggregate_id = 'published', published_at = now() - interval '1 hour', "
                           "next_attempt_at = now() - interval '1 hour'"));
    }

    QStringList labelsOf(const QList<OutboxRowSummary>& rows)
    {
        QStringList labels;
        for (const OutboxRowSummary& row : rows)
            labels.append(row.aggregateId);
        labels.sort();
        return labels;
    }

private slots:
    // First in the file on purpose: nothing in this process has notified yet, so the burst's first call cannot
    // fall into an earlier call's coalescing interval.
    void changeNotificationsAreDeliveredAndCoalesced()
    {
        auto listener = db().openSession(QStringLiteral("listener"));
        auto sender = db().openSession(QStringLiteral("sender"));
        QSqlDriver* driver = listener->database().driver();
        QVERIFY(driver->subscribeToNotification(ChangeNotifier::Channel));
        QSignalSpy spy(driver, &QSqlDriver::notification);
        QVERIFY(spy.isValid());

        for (int i = 0; i < 50; ++i)
            ChangeNotifier::notify(*sender);
        QVERIFY(spy.wait(5000));
        QCOMPARE(spy.first().at(0).toString(), ChangeNotifier::Channel);
        QCOMPARE(spy.first().at(1).value<QSqlDriver::NotificationSource>(), QSqlDriver::OtherSource);
        // Late deliveries arrive within milliseconds; a quiet half second means the burst is fully in.
        for (int round = 0; round < 10 && spy.wait(500); ++round) { }
        QVERIFY2(spy.count() < 10, qPrintable(QStringLiteral("%1 notifications for 50 changes").arg(spy.count())));

        // Coalescing only delays: once the interval has passed, a change is announced again.
        spy.clear();
        QTRY_VERIFY_WITH_TIMEOUT((ChangeNotifier::notify(*sender), !spy.isEmpty()), 5000);
        QCOMPARE(spy.first().at(0).toString(), ChangeNotifier::Channel);
        driver->unsubscribeFromNotification(ChangeNotifier::Channel);
    }

    // When a listening session's connection is lost, libpq closes its socket and Qt's event loop warns that the
    // socket Qt's driver watched is invalid: an echo of a loss the console reports itself, which its message filter
    // drops. Only for a socket that listened: another socket's warning may be a fault of its own.
    void aListeningSocketsWarningIsAnEchoOfItsLoss()
    {
        auto listener = db().openSession(QStringLiteral("listener"));
        auto other = db().openSession(QStringLiteral("other"));
        QObject context;
        ChangeNotifier::subscribe(*listener, &context, [] {});
        const auto warning = [](int socket) {
            return QStringLiteral("QSocketNotifier: Invalid socket %1 and type 'Read', disabling...").arg(socket);
        };
        QVERIFY(listener->socket() >= 0 && other->socket() >= 0);
        QVERIFY(DbSession::echoesALostConnection(warning(listener->socket())));
        QVERIFY(!DbSession::echoesALostConnection(warning(other->socket())));
        QVERIFY(!DbSession::echoesALostConnection(
            QStringLiteral("QSocketNotifier: Invalid socket %1 and type 'Write', disabling...")
                .arg(listener->socket())));
        QVERIFY(
            DbSession::echoesALostConnection(QStringLiteral("Unable to free statement: no connection to the server")));
        QVERIFY(!DbSession::echoesALostConnection(QStringLiteral("Unable to prepare statement: syntax error")));
    }

    void pagesCoverEveryMatchingRowOnce_data()
    {
        QTest::addColumn<OutboxFilter>("filter");
        QTest::addColumn<QString>("where"); // the same selection in plain SQL
        QTest::addColumn<int>("count");
        const QStringList failedOrDead { QStringLiteral("failed"), QStringLiteral("dead") };
        const QString failedOrDeadSql = QStringLiteral("status IN ('failed', 'dead')");
        const QString tenToEightSql
            = QStringLiteral("created_at >= '2024-01-01 10:00:00+00' AND created_at < '2024-01-01 20:00:00+00'");
        const auto tenToEight = with<OutboxFilter>([](auto& f) {
            f.createdFrom = utc(1, 1, 10);
            f.createdTo = utc(1, 1, 20);
        });
        const auto combined = with<OutboxFilter>([&](auto& f) {
            f = tenToEight;
            f.statuses = outboxStatuses(failedOrDead);
            f.eventType = QStringLiteral("order.paid");
            f.errorContains = QStringLiteral("UNAVAILABLE");
        });
        const auto deadOfOneAggregate = with<OutboxFilter>([](auto& f) {
            f.statuses = { OutboxStatus::Dead };
            f.aggregateId = QStringLiteral("agg-3");
        });
        const QStringList threeStatuses { QStringLiteral("published"), QStringLiteral("pending"),
            QStringLiteral("in_flight") };
        const QStringList failedTwice { QStringLiteral("failed"), QStringLiteral("failed") };

        QTest::newRow("everything") << OutboxFilter {} << QStringLiteral("true") << 2500;
        QTest::newRow("failed and dead") << with<OutboxFilter>([&](auto& f) {
            f.statuses = outboxStatuses(failedOrDead);
        }) << failedOrDeadSql << 1000;
        QTest::newRow("one status") << with<OutboxFilter>([](auto& f) { f.statuses = { OutboxStatus::Pending }; })
                                    << QStringLiteral("status = 'pending'") << 500;
        QTest::newRow("three statuses") << with<OutboxFilter>(
            [&](auto& f) { f.statuses = outboxStatuses(threeStatuses); })
                                        << QStringLiteral("status IN ('pending', 'in_flight', 'published')") << 1500;
        QTest::newRow("event type") << with<OutboxFilter>([](auto& f) { f.eventType = QStringLiteral("order.paid"); })
                                    << QStringLiteral("event_type = 'order.paid'") << 834;
        QTest::newRow("aggregate id") << with<OutboxFilter>([](auto& f) { f.aggregateId = QStringLiteral("agg-3"); })
                                      << QStringLiteral("aggregate_id = 'agg-3'") << 357;
        QTest::newRow("error in any case")
            << with<OutboxFilter>([](auto& f) { f.errorContains = QStringLiteral("BROKER"); })
            << QStringLiteral("strpos(lower(last_error), 'broker') > 0") << 250;
        QTest::newRow("error with a literal percent sign")
            << with<OutboxFilter>([](auto& f) { f.errorContains = QStringLiteral("100%"); })
            << QStringLiteral("strpos(last_error, '100%') > 0") << 250;
        QTest::newRow("error with a literal underscore")
            << with<OutboxFilter>([](auto& f) { f.errorContains = QStringLiteral("queue_a"); })
            << QStringLiteral("strpos(last_error, 'queue_a') > 0") << 250;
        QTest::newRow("created between, from inclusive, to exclusive") << tenToEight << tenToEightSql << 600;
        QTest::newRow("statuses, event type, error and time")
            << combined
            << QStringLiteral("%1 AND event_type = 'order.paid' AND strpos(last_error, 'unavailable') > 0 AND %2")
                   .arg(failedOrDeadSql, tenToEightSql)
            << 40;
        QTest::newRow("failed and dead, error") << with<OutboxFilter>([&](auto& f) {
            f.statuses = outboxStatuses(failedOrDead);
            f.errorContains = QStringLiteral("unavailable");
        }) << QStringLiteral("%1 AND strpos(last_error, 'unavailable') > 0").arg(failedOrDeadSql)
                                                << 500;
        QTest::newRow("stuck, error") << with<OutboxFilter>([&](auto& f) {
            f.stuckOnly = true; // here only the dead rows: no lease has expired, nothing is overdue
            f.errorContains = QStringLiteral("unavailable");
        }) << QStringLiteral("status = 'dead' AND strpos(last_error, 'unavailable') > 0")
                                      << 250;
        QTest::newRow("status and aggregate id")
            << deadOfOneAggregate << QStringLiteral("status = 'dead' AND aggregate_id = 'agg-3'") << 71;
        QTest::newRow("dedupe key") << with<OutboxFilter>([](auto& f) { f.dedupeKey = QStringLiteral("mixed:1234"); })
                                    << QStringLiteral("dedupe_key = 'mixed:1234'") << 1;
        QTest::newRow("dedupe key and another status") << with<OutboxFilter>([](auto& f) {
            f.dedupeKey = QStringLiteral("mixed:1234");
            f.statuses = { OutboxStatus::Failed };
        }) << QStringLiteral("false") << 0;
        QTest::newRow("dedupe key no row has")
            << with<OutboxFilter>([](auto& f) { f.dedupeKey = QStringLiteral("mixed:0"); }) << QStringLiteral("false")
            << 0;
        QTest::newRow("payload contains, any case, in a range") << with<OutboxFilter>([&](auto& f) {
            f = tenToEight;
            f.payloadContains = QStringLiteral("c-7\"");
        }) << QStringLiteral("%1 AND strpos(payload::text, 'C-7\"') > 0").arg(tenToEightSql)
                                                                << 55;
        QTest::newRow("payload with a literal percent sign") << with<OutboxFilter>([&](auto& f) {
            f = tenToEight;
            f.statuses = outboxStatuses(failedOrDead);
            f.payloadContains = QStringLiteral("50%");
        }) << QStringLiteral("%1 AND %2 AND strpos(payload::text, '50%') > 0").arg(tenToEightSql, failedOrDeadSql)
                                                             << 18;
        QTest::newRow("nothing matches") << with<OutboxFilter>([](auto& f) {
            f.eventType = QStringLiteral("order.cancelled");
        }) << QStringLiteral("false") << 0;
        QTest::newRow("a status given twice")
            << with<OutboxFilter>([&](auto& f) { f.statuses = outboxStatuses(failedTwice); })
            << QStringLiteral("status = 'failed'") << 500;
    }

    // Each status is its own UNION ALL branch, so a multi-status filter is where merging and the cursor
    // could drop or repeat rows between pages.
    void pagesCoverEveryMatchingRowOnce()
    {
        QFETCH(OutboxFilter, filter);
        QFETCH(QString, where);
        QFETCH(int, count);
        constexpr int PageSize = 100;
        seedMixed();
        OutboxReadRepository outbox(session());

        const QList<QList<qint64>> pages
            = walkPages(PageSize, [&](qint64 cursor) { return idsOf(outbox.page(filter, PageSize, cursor).rows); });
        for (qsizetype i = 0; i + 1 < pages.size(); ++i)
            QCOMPARE(pages.at(i).size(), PageSize);
        const QList<qint64> listed = flattened(pages);
        // Strictly descending across page boundaries means newest first, no row twice and disjoint pages.
        QVERIFY(strictlyDescending(listed));
        QCOMPARE(listed, idsWhere(where, Qt::DescendingOrder));
        QCOMPARE(listed.size(), count);

        const QList<QList<qint64>> idPages
            = walkPages(300, [&](qint64 cursor) { return outbox.matchingIds(filter, 300, cursor); });
        const QList<qint64> matching = flattened(idPages);
        QVERIFY(strictlyAscending(matching));
        QList<qint64> newestFirst = matching;
        std::reverse(newestFirst.begin(), newestFirst.end());
        QCOMPARE(newestFirst, listed);
    }

    void listsOfTheLogHoldEachRowInItsState_data()
    {
        QTest::addColumn<QStringList>("statuses");
        QTest::addColumn<bool>("createdRange");
        const QStringList sets[] = { { QStringLiteral("pending") }, { QStringLiteral("in_flight") },
            { QStringLiteral("published") }, { QStringLiteral("pending"), QStringLiteral("in_flight") },
            { QStringLiteral("published"), QStringLiteral("pending") },
            { QStringLiteral("published"), QStringLiteral("in_flight"), QStringLiteral("pending") } };
        for (const bool createdRange : { false, true }) {
            for (const QStringList& statuses : sets) {
                QTest::addRow(
                    "%s%s", qPrintable(statuses.join(QLatin1Char('+'))), createdRange ? ", created range" : "")
                    << statuses << createdRange;
            }
        }
    }

    // A list of the log's rows by state reads few of their states (outboxStatusBranches: the floor, the lanes'
    // leased ranges, outbox_log_published_through()); the bounds must leave out no row: each list, in id order and in
    // a created range, is exactly the rows outbox_messages gives those states, with lane batches published, one in
    // flight and rows pending behind and among them. Among the pending ones, the rows of two writers that committed
    // after the tick the lanes are done through, with ids drawn before it (outbox_log_unseen()): one whose
    // transaction began before a transaction that ended before the tick (in the tick's list of those in progress),
    // and one whose transaction began after it, so that no transaction that had ended was newer (past the tick's
    // xmax); the latter's rows have the lowest ids of all, so that the floor is theirs.
    void listsOfTheLogHoldEachRowInItsState()
    {
        QFETCH(QStringList, statuses);
        QFETCH(bool, createdRange);
        const QString enqueue = QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, ordering_key) "
            "SELECT 'order', g::text, 'order.created', '{}', 'log-lists:' || gen_random_uuid(), "
            "  CASE WHEN g % 3 = 0 THEN 'key-' || (g % 7) END "
            "FROM generate_series(1, ?::int) g");
        // Without ordering keys: a key's writers commit one at a time (outbox_order_by_key()).
        const QString enqueueUnkeyed
            = QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                             "SELECT 'order', g::text, 'order.created', '{}', 'log-lists:' || gen_random_uuid() "
                             "FROM generate_series(1, 20) g");
        const auto begin = [&] {
            std::unique_ptr<DbSession> writer = db().openSession(QStringLiteral("writer across the tick"));
            writer->execScript(QStringLiteral("BEGIN; SELECT pg_current_xact_id()"), QStringLiteral("beginning"));
            return writer;
        };
        const std::unique_ptr<DbSession> older = begin();
        const std::unique_ptr<DbSession> ended = begin();
        const std::unique_ptr<DbSession> newer = begin();
        newer->exec(enqueueUnkeyed, {}, QStringLiteral("writing into the log"));
        ended->exec(enqueue, { 200 }, QStringLiteral("writing into the log"));
        ended->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        older->exec(enqueueUnkeyed, {}, QStringLiteral("writing into the log"));
        while (publishLogBatch(30)) { }
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")).toLongLong(),
            200);
        db().exec(enqueue, { 50 });
        QVERIFY(publishLogBatch(30));
        claimLogBatch(QStringLiteral("queries/w1"), 30);
        older->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        newer->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        // The log's own reader of what is left to publish (the Overview's counts, the floor) finds each of those rows
        // in its state.
        const QString unpublished = QStringLiteral("SELECT string_agg(id || ' ' || status, ',' ORDER BY id) FROM %1");
        QCOMPARE(db().scalar(unpublished.arg(QStringLiteral("outbox_log_unpublished(1000)"))).toString(),
            db().scalar(unpublished.arg(QStringLiteral("outbox_messages WHERE stored_status IS NULL "
                                                       "AND status <> 'published'")))
                .toString());
        // Read within a budget in all (outbox_log_unpublished_within(), migration 0032): as many rows as the budget,
        // or all of them, each in its state; of each lane its first rows in id order and, when the lane goes on, its
        // next row marked `more`. Any row out of place is named.
        for (const int budget : { 1000, 37, 5, 0 }) {
            const QString misplaced
                = db().scalar(
                          QStringLiteral(
                              "WITH truth AS (SELECT m.id, m.status, outbox_lane(m.ordering_key, m.id) AS lane, "
                              "    row_number() OVER (PARTITION BY outbox_lane(m.ordering_key, m.id) ORDER BY m.id) AS "
                              "rn "
                              "  FROM outbox_messages m WHERE m.stored_status IS NULL AND m.status <> 'published'), "
                              "got AS (SELECT w.id, w.status, w.more, t.lane, t.rn, t.status AS truly FROM "
                              "  outbox_log_unpublished_within(?::int) w LEFT JOIN truth t ON t.id = w.id), "
                              "lanes AS (SELECT t.lane, count(*) AS total, "
                              "    (SELECT count(*) FROM got g WHERE g.lane = t.lane AND NOT g.more) AS read, "
                              "    (SELECT max(g.rn) FROM got g WHERE g.lane = t.lane AND NOT g.more) AS last_read, "
                              "    (SELECT array_agg(g.rn) FROM got g WHERE g.lane = t.lane AND g.more) AS more_rn "
                              "  FROM truth t GROUP BY t.lane) "
                              "SELECT concat_ws('; ', "
                              "  (SELECT string_agg(g.id || ' ' || g.status || ' is ' || coalesce(g.truly, "
                              "'published'), ', ') "
                              "   FROM got g WHERE g.truly IS DISTINCT FROM g.status), "
                              "  (SELECT string_agg(format('lane %s read %s of %s, last %s, more %s', l.lane, l.read, "
                              "l.total, "
                              "                            l.last_read, l.more_rn), ', ') "
                              "   FROM lanes l WHERE coalesce(l.last_read, 0) <> l.read "
                              "     OR l.more_rn IS DISTINCT FROM CASE WHEN l.read < l.total THEN ARRAY[l.read + 1] "
                              "END), "
                              "  (SELECT 'read ' || count(*) || ' of ' || (SELECT count(*) FROM truth) FROM got WHERE "
                              "NOT more "
                              "   HAVING count(*) <> least(?::int, (SELECT count(*) FROM truth))))"),
                          { budget, budget })
                      .toString();
            QVERIFY2(misplaced.isEmpty(), qPrintable(QStringLiteral("budget %1: %2").arg(budget).arg(misplaced)));
        }
        for (const QString& state :
            { QStringLiteral("pending"), QStringLiteral("in_flight"), QStringLiteral("published") }) {
            QVERIFY2(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE stored_status IS NULL "
                                                "AND status = ?::text"),
                             { state })
                         .toLongLong()
                    > 0,
                qPrintable(state));
        }

        OutboxFilter filter;
        filter.statuses = outboxStatuses(statuses);
        if (createdRange)
            filter.createdFrom = QDateTime::currentDateTimeUtc().addSecs(-3600);
        OutboxReadRepository outbox(session());
        const QList<qint64> listed
            = flattened(walkPages(37, [&](qint64 cursor) { return idsOf(outbox.page(filter, 37, cursor).rows); }));
        // Newest first: by id, or in a created range by created_at (the writers' rows carry their transactions'
        // start, before the rows of lower ids that others wrote meanwhile).
        const QString expected
            = db().scalar(QStringLiteral("SELECT coalesce(string_agg(id::text, ',' ORDER BY %1 id DESC), '') "
                                         "FROM outbox_messages WHERE status = ANY(?::text[])")
                              .arg(createdRange ? QStringLiteral("created_at DESC,") : QString()),
                      { QStringLiteral("{%1}").arg(statuses.join(QLatin1Char(','))) })
                  .toString();
        QStringList listedIds;
        for (const qint64 id : listed)
            listedIds.append(QString::number(id));
        QCOMPARE(listedIds.join(QLatin1Char(',')), expected);
    }

    // No index serves a payload search: without a created range it would read the whole table, so it is refused.
    void aPayloadSearchNeedsACreatedRange()
    {
        seedMixed();
        OutboxFilter filter;
        filter.payloadContains = QStringLiteral("C-7");
        OutboxReadRepository outbox(session());
        for (const auto& read : { std::function<void()>([&] { outbox.page(filter, 10, 0); }),
                 std::function<void()>([&] { outbox.matchingIds(filter, 10, 0); }) }) {
            try {
                read();
                QFAIL("a payload search without a range was run");
            } catch (const OutboxError& error) {
                QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
                QVERIFY2(error.message().contains(QStringLiteral("created-from")), qPrintable(error.message()));
            }
        }
    }

    // Each event type's rows per state, counted up to the cap, with the age of its oldest unpublished row (the oldest
    // of any unpublished state, not of the type's first row), and the limit on the number of types.
    void eventTypesAreCountedPerState()
    {
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, created_at) "
            "SELECT 'order', g::text, t.event_type, '{}', t.event_type || t.status || g, t.status, "
            "  now() - t.age_s * interval '1 second' "
            "FROM (VALUES ('a.created', 'published', 900, 5), ('a.created', 'pending', 60, 2), "
            "             ('a.created', 'dead', 300, 1), ('b.shipped', 'paused', 30, 4), "
            "             ('c.cancelled', 'published', 10, 1)) AS t(event_type, status, age_s, n) "
            "CROSS JOIN LATERAL generate_series(1, t.n) AS g"));
        const EventTypeBreakdown breakdown = EventTypeBreakdown::load(session(), 3, 10);
        QCOMPARE(breakdown.types.size(), 3);
        QVERIFY(!breakdown.moreTypes);
        const EventTypeCounts& a = breakdown.types.at(0);
        QCOMPARE(a.eventType, QStringLiteral("a.created"));
        QCOMPARE(a.count(OutboxStatus::Published).value, 3LL);
        QVERIFY(a.count(OutboxStatus::Published).capped);
        QCOMPARE(a.count(OutboxStatus::Pending).value, 2LL);
        QVERIFY(!a.count(OutboxStatus::Pending).capped);
        QCOMPARE(a.count(OutboxStatus::Dead).value, 1LL);
        QCOMPARE(a.count(OutboxStatus::Failed).value, 0LL);
        // Dead rows are not in the backlog: the oldest unpublished is the pending one, a minute old.
        QVERIFY2(a.oldestUnpublishedAgeMs && qAbs(*a.oldestUnpublishedAgeMs - 60'000) < 5'000,
            qPrintable(QString::number(a.oldestUnpublishedAgeMs.value_or(-1))));
        const EventTypeCounts& b = breakdown.types.at(1);
        QCOMPARE(b.count(OutboxStatus::Paused).value, 3LL);
        QVERIFY(b.count(OutboxStatus::Paused).capped);
        QVERIFY(b.oldestUnpublishedAgeMs && qAbs(*b.oldestUnpublishedAgeMs - 30'000) < 5'000);
        const EventTypeCounts& c = breakdown.types.at(2);
        QCOMPARE(c.count(OutboxStatus::Published).value, 1LL);
        QVERIFY(!c.oldestUnpublishedAgeMs);

        const EventTypeBreakdown limited = EventTypeBreakdown::load(session(), 3, 2);
        QCOMPARE(limited.types.size(), 2);
        QVERIFY(limited.moreTypes);
        QCOMPARE(limited.types.at(1).eventType, QStringLiteral("b.shipped"));

        db().exec(QStringLiteral("DELETE FROM outbox"));
        QVERIFY(EventTypeBreakdown::load(session()).types.isEmpty());
    }

    // The rows of the log (status NULL) by type: published ones counted from the type's entries less those not yet
    // published, exactly up to the cap (30 published beside 5 pending: "10+" at a cap of 10, where subtracting the
    // 5 from a count stopped at 11 said 6); and where the backlog is larger than the cap, the counts are lower
    // bounds ("3+"), the published ones taken below the log's floor.
    void eventTypesOfTheLogAreCountedWithinTheCap()
    {
        const QString enqueue
            = QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                             "SELECT 'order', g::text, 'l.created', '{}', 'log-types:' || gen_random_uuid() "
                             "FROM generate_series(1, ?::int) g");
        db().exec(enqueue, { 30 });
        while (publishLogBatch(100)) { }
        db().exec(enqueue, { 5 });
        const auto counts = [&](int cap) {
            const EventTypeBreakdown breakdown = EventTypeBreakdown::load(session(), cap, 10);
            QStringList cells;
            for (const OutboxStatus status : { OutboxStatus::Pending, OutboxStatus::Published }) {
                const CappedCount& count = breakdown.types.value(0).count(status);
                cells.append(QString::number(count.value) + (count.capped ? QStringLiteral("+") : QString()));
            }
            return cells.join(QLatin1Char(' '));
        };
        QCOMPARE(counts(100), QStringLiteral("5 30"));
        QCOMPARE(counts(10), QStringLiteral("5 10+"));
        QCOMPARE(counts(3), QStringLiteral("3+ 3+"));
    }

    void theLogsBacklogIsReadAsFarAsItsReadGoes_data()
    {
        QTest::addColumn<QString>("read");
        QTest::addColumn<int>("needs"); // rows fetched through indexes, twice the rows the read needs
        // 16 lanes: the floor needs each lane's first row, a cap of 10 eleven rows of each (one past the cap).
        QTest::newRow("the floor") << QStringLiteral("SELECT outbox_log_floor()") << 2 * 16;
        QTest::newRow("up to 10 of each lane")
            << QStringLiteral("SELECT count(*) FROM outbox_log_unpublished(10)") << 2 * 16 * 11;
        QTest::newRow("100 in all") << QStringLiteral("SELECT count(*) FROM outbox_log_unpublished_within(100)")
                                    << 2 * (100 + 16);
    }

    // The log's backlog is read through its indexes in lane and id order, as far as the read goes, also on a
    // partition whose statistics were taken before it held any row of the log: every partition of a database
    // upgraded from before schema 28, until autovacuum analyzes it again. Told that no row has a NULL status, the
    // planner read a lane's rows through another index of the partition and sorted them (migration 0033). Counted by
    // the rows fetched through indexes: without migration 0033 the 40,000 waiting, read again and again.
    void theLogsBacklogIsReadAsFarAsItsReadGoes()
    {
        QFETCH(QString, read);
        QFETCH(int, needs);
        // Besides, each lane probes for the rows of every transaction in progress when its tick was taken (other
        // sessions', such as the tests running beside this one), and on these statistics such a probe reads the
        // rows that tick saw through another index: up to eight such transactions allowed for.
        const int atMost = needs + 16 * PublishedFirst * 8;
        logAfterStatisticsWithoutIt();
        UnitOfWork transaction(session());
        const qint64 before = QueryTesting::outboxRowsFetched(session());
        session().exec(read, {}, QStringLiteral("reading the log's backlog"));
        const qint64 rows = QueryTesting::outboxRowsFetched(session()) - before;
        QVERIFY2(rows <= atMost, qPrintable(QStringLiteral("%1 rows fetched, at most %2").arg(rows).arg(atMost)));
    }

    // A relay's heartbeat analyzes again a partition whose statistics were taken before it held rows of the log.
    void aRelayAnalyzesAPartitionWhoseStatisticsPredateTheLog()
    {
        const QString partition = logAfterStatisticsWithoutIt();
        // Awaited on the statistics themselves: the analyze time is reported while the relay's transaction that
        // analyzes is still open, before its new statistics can be read.
        const auto logNullFraction = [this, &partition] {
            return db()
                .scalar(
                    QStringLiteral("SELECT null_frac FROM pg_stats WHERE tablename = ?::text AND attname = 'status'"),
                    { partition })
                .toDouble();
        };
        QCOMPARE(logNullFraction(), 0.0);
        RelayOptions options;
        options.workerName = QStringLiteral("analyzing");
        options.workers = 1;
        options.registryHeartbeatMs = 100;
        options.sinkDescription = QStringLiteral("recording");
        options.log = [](QtMsgType, const QString&) {};
        const auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        OutboxRelay relay(
            db().settings(), [deliveries] { return std::make_unique<RecordingSink>(deliveries); }, options);
        RunningRelay running(relay);
        QTRY_VERIFY_WITH_TIMEOUT(logNullFraction() > 0, 10'000);
    }

    // A partition analyzed since its first row of the log is left alone, even where its statistics see no row of the
    // log (a sample that missed its few rows): otherwise every heartbeat would analyze it again.
    void aPartitionAnalyzedSinceTheLogBeganIsLeftAlone()
    {
        logAfterStatisticsWithoutIt();
        const auto logBegan = [this](const QString& when) {
            db().exec(
                QStringLiteral("UPDATE outbox SET created_at = now() + ?::interval WHERE status IS NULL"), { when });
            return db().scalar(QStringLiteral("SELECT outbox_analyze_for_the_log()")).toInt();
        };
        QCOMPARE(logBegan(QStringLiteral("-1 day")), 0);
        QCOMPARE(logBegan(QStringLiteral("1 minute")), 1);
    }

    // An error searched among failed rows is first looked for among the newest rows; when they hold less than a
    // page of matches (here the matches are the oldest rows, far behind the newest 2,000), the search turns to the
    // trigram index and still returns exactly the newest matches, page after page.
    void errorSearchBeyondTheNewestRows()
    {
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, last_error) "
            "SELECT 'order', g::text, 'order.created', '{}', 'old-failure:' || g, 'failed', "
            "  CASE WHEN g <= 150 THEN 'TLS handshake failed: certificate has expired' "
            "  ELSE 'connect to 10.0.0.1:5672 failed: Connection refused' END "
            "FROM generate_series(1, 4500) g"));
        OutboxFilter filter;
        filter.statuses = { OutboxStatus::Failed };
        filter.errorContains = QStringLiteral("CERTIFICATE");
        OutboxReadRepository outbox(session());
        const QList<QList<qint64>> pages
            = walkPages(100, [&](qint64 cursor) { return idsOf(outbox.page(filter, 100, cursor).rows); });
        QCOMPARE(pages.size(), 2);
        QCOMPARE(pages.at(0).size(), 100);
        QCOMPARE(flattened(pages), idsWhere(QStringLiteral("last_error LIKE 'TLS%'"), Qt::DescendingOrder));
    }

    // While a created-time range is set, the list is newest first by created time (then id), read from
    // (status, created_at, id) wherever the range lies. Rows inserted by a long transaction carry an older
    // created_at than rows with smaller ids, and several rows share one instant: paging by the last row's id still
    // lists each row of the range exactly once, in that order, and the frozen set of a bulk action is the same.
    void createdRangePagesByCreatedTime_data()
    {
        QTest::addColumn<QStringList>("statuses");
        QTest::addColumn<QString>("statusSql");
        QTest::newRow("all statuses") << QStringList {} << QStringLiteral("true");
        QTest::newRow("failed and dead") << QStringList { QStringLiteral("failed"), QStringLiteral("dead") }
                                         << QStringLiteral("status IN ('failed', 'dead')");
    }

    void createdRangePagesByCreatedTime()
    {
        QFETCH(QStringList, statuses);
        QFETCH(QString, statusSql);
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, created_at) "
            "SELECT 'order', g::text, 'order.created', '{}', 'scrambled:' || g, "
            "  (ARRAY['pending', 'published', 'failed', 'dead'])[1 + g % 4], "
            "  timestamptz '2024-01-01 00:00:00+00' + ((g * 37) % 250) * interval '1 minute' "
            "FROM generate_series(1, 1000) g"));
        OutboxFilter filter;
        filter.statuses = outboxStatuses(statuses);
        filter.createdFrom = utc(1, 1, 1);
        filter.createdTo = utc(1, 1, 3);
        const QString where = QStringLiteral("%1 AND created_at >= '2024-01-01 01:00:00+00' "
                                             "AND created_at < '2024-01-01 03:00:00+00'")
                                  .arg(statusSql);
        const QString expected = db().scalar(QStringLiteral("SELECT string_agg(id::text, ',' ORDER BY created_at DESC, "
                                                            "id DESC) FROM outbox WHERE %1")
                                                 .arg(where))
                                     .toString();
        QVERIFY(expected.count(QLatin1Char(',')) > 100);
        OutboxReadRepository outbox(session());
        const QList<qint64> listed
            = flattened(walkPages(37, [&](qint64 cursor) { return idsOf(outbox.page(filter, 37, cursor).rows); }));
        QStringList listedText;
        for (const qint64 id : listed)
            listedText.append(QString::number(id));
        QCOMPARE(listedText.join(QLatin1Char(',')), expected);
        QVERIFY(!strictlyDescending(listed)); // the order really is by time here, not by id

        QList<qint64> frozen
            = flattened(walkPages(50, [&](qint64 cursor) { return outbox.matchingIds(filter, 50, cursor); }));
        std::reverse(frozen.begin(), frozen.end());
        QCOMPARE(frozen, listed);
    }

    // The filters take statuses as enums now, so an unknown one cannot be asked for (and the lists read each known
    // status from its own index); what remains is a status the program does not know coming from the database (a
    // newer schema) on a row read by id: it is refused with its name, never shown as something else.
    void unknownStatusFromTheDatabaseIsRefused()
    {
        session().execScript(QStringLiteral("ALTER TABLE outbox DROP CONSTRAINT outbox_status_check"),
            QStringLiteral("dropping the check"));
        addRow(db(), QStringLiteral("pending"), QStringLiteral("status = 'archived'"));
        OutboxReadRepository outbox(session());
        const qint64 id = db().scalar(QStringLiteral("SELECT max(id) FROM outbox")).toLongLong();
        try {
            outbox.rowsByIds({ id });
            QFAIL("an unknown status was accepted");
        } catch (const OutboxError& error) {
            QVERIFY2(error.message().contains(QStringLiteral("'archived'")), error.what());
        }
        db().exec(QStringLiteral("DELETE FROM outbox"));
        session().execScript(
            QStringLiteral("ALTER TABLE outbox ADD CONSTRAINT outbox_status_check "
                           "CHECK (status IN ('pending', 'in_flight', 'published', 'failed', 'dead'))"),
            QStringLiteral("restoring the check"));
    }

    void freezeHonoursTheCap_data()
    {
        QTest::addColumn<OutboxFilter>("filter");
        QTest::addColumn<int>("cap");
        QTest::addColumn<QString>("where");
        const auto failedOrDead = with<OutboxFilter>([](auto& f) {
            f.statuses = { OutboxStatus::Failed, OutboxStatus::Dead };
        });
        const QString failedOrDeadSql = QStringLiteral("status IN ('failed', 'dead')");
        QTest::newRow("cap within the first batch") << failedOrDead << 10 << failedOrDeadSql;
        QTest::newRow("cap equals the set") << failedOrDead << 1000 << failedOrDeadSql;
        QTest::newRow("cap above the set") << failedOrDead << 5000 << failedOrDeadSql;
        QTest::newRow("cap across batches") << OutboxFilter {} << 1500 << QStringLiteral("true");
        QTest::newRow("cap of zero") << OutboxFilter {} << 0 << QStringLiteral("true");
        // The seed's pending and failed rows are due now and its leases live: only the dead rows are stuck.
        QTest::newRow("stuck only") << with<OutboxFilter>([&](auto& f) { f.stuckOnly = true; }) << 10'000
                                    << QStringLiteral("status = 'dead'");
    }

    void freezeHonoursTheCap()
    {
        QFETCH(OutboxFilter, filter);
        QFETCH(int, cap);
        QFETCH(QString, where);
        seedMixed();
        const QList<qint64> expected = idsWhere(where, Qt::AscendingOrder).mid(0, cap);
        QCOMPARE(OutboxOperator(session()).freeze(filter, cap), expected);
    }

    void stuckRowsAgreeWithTheClassifier_data()
    {
        QTest::addColumn<qint64>("thresholdMs");
        QTest::addColumn<QStringList>("stuck"); // sorted labels
        QTest::newRow("default 5 min") << OutboxFilter::DefaultStuckThresholdMs
                                       << QStringList { QStringLiteral("dead"), QStringLiteral("failed overdue"),
                                              QStringLiteral("lease expired"), QStringLiteral("pending overdue") };
        QTest::newRow("1 min") << 60'000LL
                               << QStringList { QStringLiteral("dead"), QStringLiteral("failed overdue"),
                                      QStringLiteral("lease expired"), QStringLiteral("pending overdue"),
                                      QStringLiteral("pending overdue 2 min") };
        QTest::newRow("15 min") << 900'000LL << QStringList { QStringLiteral("dead"), QStringLiteral("lease expired") };
    }

    // What a list highlights (the classifier) and what "stuck only" returns (SQL) must be the same rows.
    void stuckRowsAgreeWithTheClassifier()
    {
        QFETCH(qint64, thresholdMs);
        QFETCH(QStringList, stuck);
        seedOneOfEachKind();
        OutboxReadRepository outbox(session());
        const StuckRowClassifier classifier(thresholdMs);

        const OutboxPage all = outbox.page(OutboxFilter {}, 100, 0);
        QCOMPARE(all.rows.size(), 9);
        QVERIFY(all.serverNow.isValid());
        for (const OutboxRowSummary& row : all.rows) {
            StuckRowClassifier::Kind expected = StuckRowClassifier::Kind::NotStuck;
            if (stuck.contains(row.aggregateId)) {
                expected = row.status == OutboxStatus::Dead ? StuckRowClassifier::Kind::Dead
                    : row.status == OutboxStatus::InFlight  ? StuckRowClassifier::Kind::LeaseExpired
                                                            : StuckRowClassifier::Kind::Overdue;
            }
            QVERIFY2(classifier.classify(row, all.serverNow) == expected, qPrintable(row.aggregateId));
        }

        const auto stuckOnly = with<OutboxFilter>([&](auto& f) {
            f.stuckOnly = true;
            f.stuckThresholdMs = thresholdMs;
        });
        const OutboxPage stuckPage = outbox.page(stuckOnly, 100, 0);
        QVERIFY(strictlyDescending(idsOf(stuckPage.rows)));
        QCOMPARE(labelsOf(stuckPage.rows), stuck);
        QCOMPARE(outbox.matchingIds(stuckOnly, 100, 0).size(), stuck.size());
        // The Overview's stuck tile is the stuck rows that are not dead, and its link (stuck only, of the other
        // statuses) lists exactly those.
        auto stuckNotDead = stuckOnly;
        stuckNotDead.statuses = { OutboxStatus::Pending, OutboxStatus::InFlight, OutboxStatus::Failed };
        const qint64 notDead = qint64(outbox.matchingIds(stuckNotDead, 100, 0).size());
        QCOMPARE(notDead,
            qint64(std::count_if(stuckPage.rows.cbegin(), stuckPage.rows.cend(),
                [](const OutboxRowSummary& row) { return row.status != OutboxStatus::Dead; })));
        const OutboxOverview overview = OutboxOverview::load(session(), thresholdMs);
        QCOMPARE(overview.stuck.value, notDead);
        QVERIFY(!overview.stuck.capped);
    }

    void stuckOnlyCombinesWithStatuses_data()
    {
        QTest::addColumn<QStringList>("statuses");
        QTest::addColumn<QStringList>("stuck"); // sorted labels
        QTest::newRow("published is never stuck") << QStringList { QStringLiteral("published") } << QStringList {};
        QTest::newRow("in flight: expired lease only")
            << QStringList { QStringLiteral("in_flight") } << QStringList { QStringLiteral("lease expired") };
        QTest::newRow("pending and failed: overdue only")
            << QStringList { QStringLiteral("pending"), QStringLiteral("failed") }
            << QStringList { QStringLiteral("failed overdue"), QStringLiteral("pending overdue") };
        QTest::newRow("dead and published") << QStringList { QStringLiteral("dead"), QStringLiteral("published") }
                                            << QStringList { QStringLiteral("dead") };
    }

    void stuckOnlyCombinesWithStatuses()
    {
        QFETCH(QStringList, statuses);
        QFETCH(QStringList, stuck);
        seedOneOfEachKind();
        const auto filter = with<OutboxFilter>([&](auto& f) {
            f.statuses = outboxStatuses(statuses);
            f.stuckOnly = true;
        });
        OutboxReadRepository outbox(session());
        QCOMPARE(labelsOf(outbox.page(filter, 100, 0).rows), stuck);
        QCOMPARE(OutboxOperator(session()).freeze(filter, 100).size(), stuck.size());
    }

    // Overdue failed rows are collected through outbox_due_idx while fewer than 10,000 pending and failed rows are
    // overdue, and found by walking the failed rows newest first when more are: either way the pages are the
    // overdue failed rows newest first, and the ids an action selects are the same rows. Rows not yet due lie
    // between them, and pending overdue rows count towards the threshold without being listed.
    void stuckFailedRowsWhetherFewOrManyAreOverdue_data()
    {
        QTest::addColumn<int>("failedRows");
        QTest::addColumn<int>("overdueEvery"); // every n-th failed row is overdue
        QTest::addColumn<int>("pendingOverdue");
        QTest::newRow("few overdue: collected") << 3000 << 7 << 500;
        QTest::newRow("one short of the threshold: collected") << 4000 << 2 << 7999;
        QTest::newRow("at the threshold: walked") << 4000 << 2 << 8000;
        QTest::newRow("many overdue: walked") << 24000 << 2 << 0;
    }

    void stuckFailedRowsWhetherFewOrManyAreOverdue()
    {
        QFETCH(int, failedRows);
        QFETCH(int, overdueEvery);
        QFETCH(int, pendingOverdue);
        db().exec(
            QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, "
                           "  next_attempt_at) "
                           "SELECT 'order', g::text, 'order.created', '{}', 'failed:' || g, 'failed', "
                           "  CASE WHEN g % ?::int = 0 THEN now() - interval '1 hour' + g * interval '1 ms' "
                           "  ELSE now() + interval '1 hour' END "
                           "FROM generate_series(1, ?::int) g"),
            { overdueEvery, failedRows });
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                 "  status, next_attempt_at) "
                                 "SELECT 'order', g::text, 'order.created', '{}', 'pending:' || g, 'pending', "
                                 "  now() - interval '1 hour' FROM generate_series(1, ?::int) g"),
            { pendingOverdue });
        const auto stuckFailed = with<OutboxFilter>([](auto& f) {
            f.statuses = { OutboxStatus::Failed };
            f.stuckOnly = true;
        });
        const QString overdue = QStringLiteral("status = 'failed' AND next_attempt_at < now() - interval '5 minutes'");
        OutboxReadRepository outbox(session());
        const QList<QList<qint64>> pages
            = walkPages(200, [&](qint64 cursor) { return idsOf(outbox.page(stuckFailed, 200, cursor).rows); });
        QCOMPARE(flattened(pages), idsWhere(overdue, Qt::DescendingOrder));
        QCOMPARE(outbox.matchingIds(stuckFailed, failedRows, 0), idsWhere(overdue, Qt::AscendingOrder));
    }

    void rowDetailsHistoryAndAggregate()
    {
        OutboxRepository outbox(session());
        OutboxReadRepository reads(session());
        const QByteArray payload = QByteArrayLiteral("{\"order\": {\"id\": 7, \"lines\": [1, 2]}, \"note\": \"ü\"}");
        const QByteArray headers = QByteArrayLiteral("{\"trace\": \"abc\"}");
        const auto enqueue = [&](const QString& type, const QString& aggregate, const QString& event) {
            return outbox.enqueue({ type, aggregate, event, payload, headers, event + QLatin1Char(':') + aggregate });
        };
        const qint64 created = enqueue(QStringLiteral("order"), QStringLiteral("A-1"), QStringLiteral("order.created"));
        const qint64 invoice
            = enqueue(QStringLiteral("invoice"), QStringLiteral("A-1"), QStringLiteral("invoice.issued"));
        const qint64 paid = enqueue(QStringLiteral("order"), QStringLiteral("A-1"), QStringLiteral("order.paid"));
        const qint64 other = enqueue(QStringLiteral("order"), QStringLiteral("A-2"), QStringLiteral("order.created"));
        const QString fullError = QStringLiteral("connection reset by peer\n  at amqp.cpp:42\n  at relay.cpp:7");
        db().exec(QStringLiteral("UPDATE outbox SET status = 'failed', attempts = 3, last_error = ?::text "
                                 "WHERE id = ?::bigint"),
            { fullError, paid });
        db().exec(QStringLiteral("UPDATE outbox SET status = 'dead', last_error = repeat('x', 300) || E'\\nsecond' "
                                 "WHERE id = ?::bigint"),
            { other });
        db().exec(QStringLiteral("INSERT INTO outbox_attempts (outbox_id, attempt, worker, error, created_at) "
                                 "SELECT ?::bigint, n, 'relay-1/w' || n, 'error ' || n, now() - (4 - n) * "
                                 "interval '1 minute' FROM generate_series(1, 3) n"),
            { paid });

        const std::optional<OutboxRowDetail> detail = reads.detail(paid);
        QVERIFY(detail);
        QCOMPARE(detail->summary.id, paid);
        QCOMPARE(detail->summary.aggregateType, QStringLiteral("order"));
        QCOMPARE(detail->summary.eventType, QStringLiteral("order.paid"));
        QCOMPARE(detail->summary.status, OutboxStatus::Failed);
        QCOMPARE(detail->summary.attempts, 3);
        QCOMPARE(detail->summary.lastErrorLine, QStringLiteral("connection reset by peer"));
        QCOMPARE(detail->lastError, fullError);
        QCOMPARE(detail->dedupeKey, QStringLiteral("order.paid:A-1"));
        QCOMPARE(QJsonDocument::fromJson(detail->payload), QJsonDocument::fromJson(payload));
        QCOMPARE(QJsonDocument::fromJson(detail->headers), QJsonDocument::fromJson(headers));
        QVERIFY(detail->updatedAt.isValid());
        QVERIFY(detail->summary.createdAt.isValid());
        QVERIFY(!detail->summary.publishedAt.isValid());
        QVERIFY(!reads.detail(9999));

        const std::optional<OutboxRowDetail> longError = reads.detail(other);
        QVERIFY(longError);
        QCOMPARE(longError->summary.lastErrorLine, QString(200, QLatin1Char('x')));
        QCOMPARE(longError->lastError, QString(300, QLatin1Char('x')) + QStringLiteral("\nsecond"));
        QCOMPARE(reads.detail(created).value().lastError, QString()); // never NULL for the UI

        const QList<OutboxAttempt> attempts = reads.attempts(paid, 10);
        QCOMPARE(attempts.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(attempts.at(i).attempt, 3 - i);
            QCOMPARE(attempts.at(i).worker, QStringLiteral("relay-1/w%1").arg(3 - i));
            QCOMPARE(attempts.at(i).error, QStringLiteral("error %1").arg(3 - i));
        }
        QVERIFY(attempts.at(0).at > attempts.at(1).at && attempts.at(1).at > attempts.at(2).at);
        QCOMPARE(reads.attempts(paid, 2).size(), 2);
        QCOMPARE(reads.attempts(paid, 2).first().attempt, 3);
        QVERIFY(reads.attempts(created, 10).isEmpty());

        QCOMPARE(idsOf(reads.forAggregate(QStringLiteral("order"), QStringLiteral("A-1"), 10)),
            (QList<qint64> { paid, created }));
        QCOMPARE(
            idsOf(reads.forAggregate(QStringLiteral("order"), QStringLiteral("A-1"), 1)), (QList<qint64> { paid }));
        QCOMPARE(idsOf(reads.forAggregate(QStringLiteral("invoice"), QStringLiteral("A-1"), 10)),
            (QList<qint64> { invoice }));

        // rowsByIds refreshes what a list shows: current state, newest first, unknown ids dropped.
        db().exec(QStringLiteral("UPDATE outbox SET status = 'published', published_at = now() WHERE id = ?::bigint"),
            { created });
        const QList<OutboxRowSummary> refreshed = reads.rowsByIds({ created, 9999, paid });
        QCOMPARE(idsOf(refreshed), (QList<qint64> { paid, created }));
        QCOMPARE(refreshed.at(1).status, OutboxStatus::Published);
        QVERIFY(refreshed.at(1).publishedAt.isValid());
        QCOMPARE(refreshed.at(0).lastErrorLine, QStringLiteral("connection reset by peer"));
        QVERIFY(reads.rowsByIds({}).isEmpty());
    }

    void repositoryReleasesOnlyExpiredLeases()
    {
        const qint64 expired = addRow(
            db(), QStringLiteral("in_flight"), QStringLiteral("lease_expires_at = now() - interval '1 second'"));
        const qint64 live = addRow(db(), QStringLiteral("in_flight"));
        const QList<StatusChange> changes = OutboxRepository(session()).releaseExpiredLeases({ expired, live });
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes.first().id, expired);
        QCOMPARE(changes.first().before, OutboxStatus::InFlight);
        QCOMPARE(changes.first().after, OutboxStatus::Pending);
        QCOMPARE(statusOf(db(), live), QStringLiteral("in_flight"));
    }
};

QTEST_GUILESS_MAIN(TestOutboxQueries)
#include "tst_outboxqueries.moc"
