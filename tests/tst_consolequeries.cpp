#include "auditrepository.h"
#include "changenotifier.h"
#include "idempotencyrepository.h"
#include "outboxerror.h"
#include "outboxoperator.h"
#include "outboxoverview.h"
#include "outboxrepository.h"
#include "schemamigrator.h"
#include "sessioninfo.h"
#include "stuckrowclassifier.h"
#include "testdatabase.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSqlDriver>
#include <QTest>
#include <algorithm>
#include <functional>

namespace {

// A filter with just the fields a case sets. (Designated initializers would read better, but GCC 12 warns
// about every member they leave out.)
template<typename T> T with(const std::function<void(T&)>& set)
{
    T value;
    set(value);
    return value;
}

QDateTime utc(int month, int day, int hour)
{
    return QDateTime(QDate(2024, month, day), QTime(hour, 0), Qt::UTC);
}

bool strictlyDescending(const QList<qint64>& ids)
{
    return std::adjacent_find(ids.begin(), ids.end(), std::less_equal<>()) == ids.end();
}

bool strictlyAscending(const QList<qint64>& ids)
{
    return std::adjacent_find(ids.begin(), ids.end(), std::greater_equal<>()) == ids.end();
}

// Follows a keyset cursor the way the console does (the last id of a page starts the next) and returns
// the pages as read, so the caller can check how they fit together. The guard stops a cursor that never ends.
QList<QList<qint64>> walkPages(int pageSize, const std::function<QList<qint64>(qint64 cursor)>& fetch)
{
    QList<QList<qint64>> pages;
    qint64 cursor = 0;
    for (int guard = 0; guard < 1000; ++guard) {
        const QList<qint64> ids = fetch(cursor);
        if (!ids.isEmpty())
            pages.append(ids);
        if (ids.size() < pageSize)
            break;
        cursor = ids.last();
    }
    return pages;
}

QList<qint64> flattened(const QList<QList<qint64>>& pages)
{
    QList<qint64> all;
    for (const QList<qint64>& page : pages)
        all += page;
    return all;
}

QList<qint64> idsOf(const QList<OutboxRowSummary>& rows)
{
    QList<qint64> ids;
    for (const OutboxRowSummary& row : rows)
        ids.append(row.id);
    return ids;
}

} // namespace

class TestConsoleQueries final : public QObject {
    Q_OBJECT

    // `rows` outbox rows in `status` (in-flight ones with a live lease, as a claim leaves them), then adjusted
    // by the SQL `assignments`, e.g. "next_attempt_at = now() - interval '10 minutes'". Returns the last id;
    // the ids of one call are consecutive.
    qint64 addRows(int rows, const QString& status, const QString& assignments = {})
    {
        const qint64 last
            = m_db->scalar(QStringLiteral(
                               "WITH s AS (SELECT ?::text AS status), ins AS ("
                               "  INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                               "    status, lease_owner, lease_expires_at) "
                               "  SELECT 'order', 'agg-' || g, 'order.created', '{}', gen_random_uuid()::text, "
                               "    s.status, CASE WHEN s.status = 'in_flight' THEN 'relay-1/w0' END, "
                               "    CASE WHEN s.status = 'in_flight' THEN now() + interval '1 minute' END "
                               "  FROM s, generate_series(1, ?::int) g RETURNING id) "
                               "SELECT max(id) FROM ins"),
                      { status, rows })
                  .toLongLong();
        if (!assignments.isEmpty())
            m_db->exec(QStringLiteral("UPDATE outbox SET %1 WHERE id > ?::bigint").arg(assignments), { last - rows });
        return last;
    }

    qint64 addRow(const QString& status, const QString& assignments = {}) { return addRows(1, status, assignments); }

    // 2,500 rows, one minute apart from 2024-01-01T00:01Z, statuses in turn (500 each), three event types,
    // seven aggregates. Failed and dead rows carry errors that an unescaped LIKE would confuse: "100%" vs
    // "100 ms", "queue_a" vs "queueXa".
    void seedMixed()
    {
        m_db->exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, last_error, "
            "  lease_owner, lease_expires_at, created_at) "
            "SELECT 'order', 'agg-' || g % 7, (ARRAY['order.created', 'order.paid', 'order.shipped'])[1 + g % 3], "
            "  '{}', 'mixed:' || g, st.status, "
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
            = m_db->scalar(
                      QStringLiteral("SELECT coalesce(string_agg(id::text, ',' ORDER BY id %1), '') "
                                     "FROM outbox WHERE %2")
                          .arg(order == Qt::AscendingOrder ? QStringLiteral("ASC") : QStringLiteral("DESC"), where))
                  .toString();
        QList<qint64> result;
        for (const QString& id : ids.split(QLatin1Char(','), Qt::SkipEmptyParts))
            result.append(id.toLongLong());
        return result;
    }

    QString statusOf(qint64 id)
    {
        return m_db->scalar(QStringLiteral("SELECT status FROM outbox WHERE id = ?::bigint"), { id }).toString();
    }

    // One key of scope "orders", created `hour` hours after 2024-03-01T00:00Z, with what its status requires.
    qint64 addKey(const QString& key, const QString& status, int hour, std::optional<qint64> orderId = {})
    {
        return m_db
            ->scalar(
                QStringLiteral("WITH s AS (SELECT ?::text AS status) "
                               "INSERT INTO idempotency_keys (scope, idem_key, fingerprint, status, failure_retryable, "
                               "  response_status, response_body, locked_until, expires_at, created_at, order_id) "
                               "SELECT 'orders', ?::text, repeat('a', 64), s.status, "
                               "  CASE WHEN s.status = 'failed' THEN false END, "
                               "  CASE WHEN s.status <> 'in_progress' THEN 201 END, "
                               "  CASE WHEN s.status <> 'in_progress' THEN jsonb_build_object('key', ?::text) END, "
                               "  now() + interval '30 seconds', now() + interval '1 day', "
                               "  timestamptz '2024-03-01 00:00:00+00' + ?::int * interval '1 hour', ?::bigint "
                               "FROM s RETURNING id"),
                { status, key, key, hour, orderId ? QVariant(*orderId) : QVariant(QMetaType::fromType<qint64>()) })
            .toLongLong();
    }

    // Kinds of rows the console must tell apart, each labelled through its aggregate id.
    void seedOneOfEachKind()
    {
        addRow(QStringLiteral("in_flight"),
            QStringLiteral("aggregate_id = 'lease expired', lease_expires_at = now() - interval '1 minute'"));
        addRow(QStringLiteral("in_flight"), QStringLiteral("aggregate_id = 'lease live'"));
        addRow(QStringLiteral("pending"),
            QStringLiteral("aggregate_id = 'pending overdue', next_attempt_at = now() - interval '10 minutes'"));
        addRow(QStringLiteral("pending"),
            QStringLiteral("aggregate_id = 'pending overdue 2 min', next_attempt_at = now() - interval '2 minutes'"));
        addRow(QStringLiteral("pending"),
            QStringLiteral("aggregate_id = 'pending due recently', next_attempt_at = now() - interval '10 seconds'"));
        addRow(QStringLiteral("failed"),
            QStringLiteral("aggregate_id = 'failed overdue', next_attempt_at = now() - interval '10 minutes'"));
        addRow(QStringLiteral("failed"),
            QStringLiteral("aggregate_id = 'failed not yet due', next_attempt_at = now() + interval '10 minutes'"));
        addRow(QStringLiteral("dead"), QStringLiteral("aggregate_id = 'dead'"));
        // An old next_attempt_at must not make a published row look overdue.
        addRow(QStringLiteral("published"),
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

    QString uniqueLogin(const QString& purpose, const QString& groupRole)
    {
        return QStringLiteral("tst_cq_%1_%2_%3").arg(purpose, groupRole).arg(QCoreApplication::applicationPid());
    }

private slots:
    void initTestCase()
    {
        m_db = std::make_unique<TestDatabase>(QStringLiteral("consolequeries"));
        m_session = m_db->openSession();
    }
    void cleanupTestCase()
    {
        m_session.reset();
        m_db.reset();
    }
    void init() { m_db->reset(); }

    // First in the file on purpose: nothing in this process has notified yet, so the burst's first call cannot
    // fall into an earlier call's coalescing interval.
    void changeNotificationsAreDeliveredAndCoalesced()
    {
        auto listener = m_db->openSession(QStringLiteral("listener"));
        auto sender = m_db->openSession(QStringLiteral("sender"));
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
            f.statuses = failedOrDead;
            f.eventType = QStringLiteral("order.paid");
            f.errorContains = QStringLiteral("UNAVAILABLE");
        });
        const auto deadOfOneAggregate = with<OutboxFilter>([](auto& f) {
            f.statuses = { QStringLiteral("dead") };
            f.aggregateId = QStringLiteral("agg-3");
        });
        const QStringList threeStatuses { QStringLiteral("published"), QStringLiteral("pending"),
            QStringLiteral("in_flight") };
        const QStringList failedTwice { QStringLiteral("failed"), QStringLiteral("failed") };

        QTest::newRow("everything") << OutboxFilter {} << QStringLiteral("true") << 2500;
        QTest::newRow("failed and dead") << with<OutboxFilter>([&](auto& f) { f.statuses = failedOrDead; })
                                         << failedOrDeadSql << 1000;
        QTest::newRow("one status") << with<OutboxFilter>([](auto& f) { f.statuses = { QStringLiteral("pending") }; })
                                    << QStringLiteral("status = 'pending'") << 500;
        QTest::newRow("three statuses") << with<OutboxFilter>([&](auto& f) { f.statuses = threeStatuses; })
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
        QTest::newRow("status and aggregate id")
            << deadOfOneAggregate << QStringLiteral("status = 'dead' AND aggregate_id = 'agg-3'") << 71;
        QTest::newRow("nothing matches") << with<OutboxFilter>([](auto& f) {
            f.eventType = QStringLiteral("order.cancelled");
        }) << QStringLiteral("false") << 0;
        QTest::newRow("a status given twice") << with<OutboxFilter>([&](auto& f) { f.statuses = failedTwice; })
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
        OutboxRepository outbox(*m_session);

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

    void unknownStatusIsRefused()
    {
        const auto filter = with<OutboxFilter>([](auto& f) {
            f.statuses = { QStringLiteral("pending"), QStringLiteral("stuck") };
        });
        OutboxRepository outbox(*m_session);
        const std::function<void()> queries[]
            = { [&] { outbox.page(filter, 10, 0); }, [&] { outbox.matchingIds(filter, 10, 0); },
                  [&] {
                      IdempotencyRepository(*m_session)
                          .page(with<KeyFilter>([&](auto& f) { f.statuses = { QStringLiteral("dead") }; }), 10, 0);
                  } };
        for (const std::function<void()>& query : queries) {
            try {
                query();
                QFAIL("an unknown status was accepted");
            } catch (const OutboxError& error) {
                QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
                QVERIFY2(error.message().contains(QStringLiteral("stuck"))
                        || error.message().contains(QStringLiteral("dead")),
                    error.what());
            }
        }
    }

    void freezeHonoursTheCap_data()
    {
        QTest::addColumn<OutboxFilter>("filter");
        QTest::addColumn<int>("cap");
        QTest::addColumn<QString>("where");
        const auto failedOrDead = with<OutboxFilter>([](auto& f) {
            f.statuses = { QStringLiteral("failed"), QStringLiteral("dead") };
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
        QCOMPARE(OutboxOperator(*m_session).freeze(filter, cap), expected);
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
        OutboxRepository outbox(*m_session);
        const StuckRowClassifier classifier(thresholdMs);

        const OutboxPage all = outbox.page(OutboxFilter {}, 100, 0);
        QCOMPARE(all.rows.size(), 9);
        QVERIFY(all.serverNow.isValid());
        for (const OutboxRowSummary& row : all.rows) {
            StuckRowClassifier::Kind expected = StuckRowClassifier::Kind::NotStuck;
            if (stuck.contains(row.aggregateId)) {
                expected = row.status == QLatin1String("dead") ? StuckRowClassifier::Kind::Dead
                    : row.status == QLatin1String("in_flight") ? StuckRowClassifier::Kind::LeaseExpired
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
        const OutboxOverview overview = OutboxOverview::load(*m_session, thresholdMs);
        QCOMPARE(overview.stuck.value, qint64(stuck.size()));
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
            f.statuses = statuses;
            f.stuckOnly = true;
        });
        OutboxRepository outbox(*m_session);
        QCOMPARE(labelsOf(outbox.page(filter, 100, 0).rows), stuck);
        QCOMPARE(OutboxOperator(*m_session).freeze(filter, 100).size(), stuck.size());
    }

    void rowDetailsHistoryAndAggregate()
    {
        OutboxRepository outbox(*m_session);
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
        m_db->exec(QStringLiteral("UPDATE outbox SET status = 'failed', attempts = 3, last_error = ?::text "
                                  "WHERE id = ?::bigint"),
            { fullError, paid });
        m_db->exec(QStringLiteral("UPDATE outbox SET status = 'dead', last_error = repeat('x', 300) || E'\\nsecond' "
                                  "WHERE id = ?::bigint"),
            { other });
        m_db->exec(QStringLiteral("INSERT INTO outbox_attempts (outbox_id, attempt, worker, error, created_at) "
                                  "SELECT ?::bigint, n, 'relay-1/w' || n, 'error ' || n, now() - (4 - n) * "
                                  "interval '1 minute' FROM generate_series(1, 3) n"),
            { paid });

        const std::optional<OutboxRowDetail> detail = outbox.detail(paid);
        QVERIFY(detail);
        QCOMPARE(detail->summary.id, paid);
        QCOMPARE(detail->summary.aggregateType, QStringLiteral("order"));
        QCOMPARE(detail->summary.eventType, QStringLiteral("order.paid"));
        QCOMPARE(detail->summary.status, QStringLiteral("failed"));
        QCOMPARE(detail->summary.attempts, 3);
        QCOMPARE(detail->summary.lastErrorLine, QStringLiteral("connection reset by peer"));
        QCOMPARE(detail->lastError, fullError);
        QCOMPARE(detail->dedupeKey, QStringLiteral("order.paid:A-1"));
        QCOMPARE(QJsonDocument::fromJson(detail->payload), QJsonDocument::fromJson(payload));
        QCOMPARE(QJsonDocument::fromJson(detail->headers), QJsonDocument::fromJson(headers));
        QVERIFY(detail->updatedAt.isValid());
        QVERIFY(detail->summary.createdAt.isValid());
        QVERIFY(!detail->summary.publishedAt.isValid());
        QVERIFY(!outbox.detail(9999));

        const std::optional<OutboxRowDetail> longError = outbox.detail(other);
        QVERIFY(longError);
        QCOMPARE(longError->summary.lastErrorLine, QString(200, QLatin1Char('x')));
        QCOMPARE(longError->lastError, QString(300, QLatin1Char('x')) + QStringLiteral("\nsecond"));
        QCOMPARE(outbox.detail(created).value().lastError, QString()); // never NULL for the UI

        const QList<OutboxAttempt> attempts = outbox.attempts(paid, 10);
        QCOMPARE(attempts.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(attempts.at(i).attempt, 3 - i);
            QCOMPARE(attempts.at(i).worker, QStringLiteral("relay-1/w%1").arg(3 - i));
            QCOMPARE(attempts.at(i).error, QStringLiteral("error %1").arg(3 - i));
        }
        QVERIFY(attempts.at(0).at > attempts.at(1).at && attempts.at(1).at > attempts.at(2).at);
        QCOMPARE(outbox.attempts(paid, 2).size(), 2);
        QCOMPARE(outbox.attempts(paid, 2).first().attempt, 3);
        QVERIFY(outbox.attempts(created, 10).isEmpty());

        QCOMPARE(idsOf(outbox.forAggregate(QStringLiteral("order"), QStringLiteral("A-1"), 10)),
            (QList<qint64> { paid, created }));
        QCOMPARE(
            idsOf(outbox.forAggregate(QStringLiteral("order"), QStringLiteral("A-1"), 1)), (QList<qint64> { paid }));
        QCOMPARE(idsOf(outbox.forAggregate(QStringLiteral("invoice"), QStringLiteral("A-1"), 10)),
            (QList<qint64> { invoice }));

        // rowsByIds refreshes what a list shows: current state, newest first, unknown ids dropped.
        m_db->exec(QStringLiteral("UPDATE outbox SET status = 'published', published_at = now() WHERE id = ?::bigint"),
            { created });
        const QList<OutboxRowSummary> refreshed = outbox.rowsByIds({ created, 9999, paid });
        QCOMPARE(idsOf(refreshed), (QList<qint64> { paid, created }));
        QCOMPARE(refreshed.at(1).status, QStringLiteral("published"));
        QVERIFY(refreshed.at(1).publishedAt.isValid());
        QCOMPARE(refreshed.at(0).lastErrorLine, QStringLiteral("connection reset by peer"));
        QVERIFY(outbox.rowsByIds({}).isEmpty());
    }

    void repositoryReleasesOnlyExpiredLeases()
    {
        const qint64 expired
            = addRow(QStringLiteral("in_flight"), QStringLiteral("lease_expires_at = now() - interval '1 second'"));
        const qint64 live = addRow(QStringLiteral("in_flight"));
        const QList<StatusChange> changes = OutboxRepository(*m_session).releaseExpiredLeases({ expired, live });
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes.first().id, expired);
        QCOMPARE(changes.first().before, QStringLiteral("in_flight"));
        QCOMPARE(changes.first().after, QStringLiteral("pending"));
        QCOMPARE(statusOf(live), QStringLiteral("in_flight"));
    }

    void operatorReleasesExpiredLeasesWithAudit()
    {
        const QString expiredLease = QStringLiteral("lease_expires_at = now() - interval '1 minute'");
        const qint64 expired = addRow(QStringLiteral("in_flight"), expiredLease);
        const qint64 live = addRow(QStringLiteral("in_flight"));
        const qint64 pending = addRow(QStringLiteral("pending"));
        const qint64 failed = addRow(QStringLiteral("failed"));
        const qint64 dead = addRow(QStringLiteral("dead"));
        const qint64 published = addRow(QStringLiteral("published"), QStringLiteral("published_at = now()"));
        const qint64 longExpired = addRow(
            QStringLiteral("in_flight"), QStringLiteral("lease_expires_at = now() - interval '1 hour', attempts = 2"));
        const QList<qint64> all { expired, live, pending, failed, dead, published, longExpired };
        OutboxOperator op(*m_session);

        const OperatorActionReport report = op.releaseLeases(all, QStringLiteral(" relay host lost "));
        QCOMPARE(report.changed, (QList<qint64> { expired, longExpired }));
        QCOMPARE(report.skipped, (QList<qint64> { live, pending, failed, dead, published }));
        QVERIFY(!report.cancelled);
        QCOMPARE(m_db->scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE id = ANY(?::bigint[]) "
                                             "AND status = 'pending' AND lease_owner IS NULL "
                                             "AND lease_expires_at IS NULL AND next_attempt_at <= now()"),
                         { QStringLiteral("{%1,%2}").arg(expired).arg(longExpired) })
                     .toLongLong(),
            2LL);
        QCOMPARE(m_db->scalar(QStringLiteral("SELECT status || ' ' || lease_owner || ' ' || (lease_expires_at > now()) "
                                             "FROM outbox WHERE id = ?::bigint"),
                         { live })
                     .toString(),
            QStringLiteral("in_flight relay-1/w0 true"));
        QCOMPARE(statusOf(pending), QStringLiteral("pending"));
        QCOMPARE(statusOf(failed), QStringLiteral("failed"));
        QCOMPARE(statusOf(dead), QStringLiteral("dead"));
        QCOMPARE(statusOf(published), QStringLiteral("published"));

        AuditRepository audit(*m_session);
        const QList<AuditEntry> entries = audit.forEntity(QStringLiteral("outbox"), expired, 10);
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().action, QStringLiteral("release lease"));
        QCOMPARE(entries.first().reason, QStringLiteral("relay host lost"));
        QCOMPARE(entries.first().actor, m_session->currentUser());
        QCOMPARE(entries.first().entityIds, (QList<qint64> { expired, longExpired }));
        const auto states = [&](const QString& status) {
            return QJsonObject { { QString::number(expired), status }, { QString::number(longExpired), status } };
        };
        QCOMPARE(QJsonDocument::fromJson(entries.first().stateBefore).object(), states(QStringLiteral("in_flight")));
        QCOMPARE(QJsonDocument::fromJson(entries.first().stateAfter).object(), states(QStringLiteral("pending")));
        QVERIFY(audit.forEntity(QStringLiteral("outbox"), live, 10).isEmpty());

        // Releasing again changes nothing and so audits nothing.
        const OperatorActionReport again = op.releaseLeases(all, QStringLiteral("double click"));
        QVERIFY(again.changed.isEmpty());
        QCOMPARE(again.skipped, all);
        QCOMPARE(m_db->scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 1LL);

        try {
            op.releaseLeases(all, QStringLiteral("  "));
            QFAIL("released leases without a reason");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
        }
    }

    void releasingLeasesNeedsTheOperatorRole_data()
    {
        QTest::addColumn<QString>("groupRole");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("viewer") << QStringLiteral("outbox_viewer") << false;
        QTest::newRow("operator") << QStringLiteral("outbox_operator") << true;
    }

    void releasingLeasesNeedsTheOperatorRole()
    {
        QFETCH(QString, groupRole);
        QFETCH(bool, allowed);
        const qint64 id
            = addRow(QStringLiteral("in_flight"), QStringLiteral("lease_expires_at = now() - interval '1 minute'"));
        const QString login = uniqueLogin(QStringLiteral("release"), groupRole);
        DbSession session(m_db->createLoginRole(login, groupRole), QStringLiteral("role"));
        try {
            const OperatorActionReport report
                = OutboxOperator(session).releaseLeases({ id }, QStringLiteral("as ") + groupRole);
            QVERIFY2(allowed, "the viewer role could release a lease");
            QCOMPARE(report.changed, (QList<qint64> { id }));
            QCOMPARE(m_db->scalar(QStringLiteral("SELECT actor FROM audit_log")).toString(), login);
        } catch (const OutboxError& error) {
            QVERIFY2(!allowed, error.what());
            QCOMPARE(error.kind(), OutboxError::Kind::Permission);
            QVERIFY2(error.message().contains(login) && error.message().contains(QStringLiteral("outbox_operator")),
                error.what());
            QCOMPARE(statusOf(id), QStringLiteral("in_flight"));
            QCOMPARE(m_db->scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0LL);
        }
    }

    void overviewCountsExactlyBelowTheCap()
    {
        addRows(2, QStringLiteral("pending"));
        addRow(QStringLiteral("pending"), QStringLiteral("created_at = now() - interval '90 seconds'"));
        addRow(QStringLiteral("in_flight"));
        addRow(QStringLiteral("in_flight"), QStringLiteral("lease_expires_at = now() - interval '1 minute'"));
        addRows(4, QStringLiteral("failed"));
        // Older than the oldest waiting row, but neither waits: they must not count towards its age.
        addRows(5, QStringLiteral("dead"), QStringLiteral("created_at = now() - interval '2 days'"));
        addRows(6, QStringLiteral("published"),
            QStringLiteral("created_at = now() - interval '1 day', published_at = now() - interval '1 day'"));
        m_db->exec(QStringLiteral(
            "INSERT INTO metric_rollups (bucket, shard, requests, replays, published) VALUES "
            "  (date_trunc('minute', now()), 0, 40, 10, 120), "
            "  (date_trunc('minute', now()) - interval '2 hours', 0, 1000, 1000, 6000)")); // outside the hour

        const OutboxOverview overview = OutboxOverview::load(*m_session, OutboxFilter::DefaultStuckThresholdMs);
        const auto exact = [](const CappedCount& count) { return count.capped ? -1 : count.value; };
        QCOMPARE(exact(overview.pending), 3LL);
        QCOMPARE(exact(overview.inFlight), 2LL);
        QCOMPARE(exact(overview.failed), 4LL);
        QCOMPARE(exact(overview.dead), 5LL);
        QCOMPARE(exact(overview.stuck), 6LL); // the expired lease and the dead rows
        QVERIFY(overview.oldestUnpublishedAgeMs);
        QVERIFY2(*overview.oldestUnpublishedAgeMs >= 90'000 && *overview.oldestUnpublishedAgeMs < 120'000,
            qPrintable(QString::number(*overview.oldestUnpublishedAgeMs)));
        QCOMPARE(overview.publishedPerMinute, 2.0);
        QVERIFY(overview.duplicateHitRate);
        QCOMPARE(*overview.duplicateHitRate, 0.25);
        QVERIFY(overview.serverNow.isValid());
    }

    void overviewWithoutBacklogOrTraffic()
    {
        addRows(2, QStringLiteral("published"), QStringLiteral("published_at = now()"));
        addRow(QStringLiteral("dead"), QStringLiteral("created_at = now() - interval '1 day'"));
        const OutboxOverview overview = OutboxOverview::load(*m_session, OutboxFilter::DefaultStuckThresholdMs);
        QCOMPARE(overview.pending.value + overview.inFlight.value + overview.failed.value, 0LL);
        QCOMPARE(overview.dead.value, 1LL);
        QCOMPARE(overview.stuck.value, 1LL);
        QVERIFY(!overview.oldestUnpublishedAgeMs);
        QCOMPARE(overview.publishedPerMinute, 0.0);
        QVERIFY(!overview.duplicateHitRate); // no requests: a rate of 0 would be a lie
    }

    void overviewCountsStopAtTheCap_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<bool>("capped");
        QTest::newRow("one below") << OutboxOverview::CountCap - 1 << qint64(OutboxOverview::CountCap - 1) << false;
        QTest::newRow("at the cap") << OutboxOverview::CountCap << qint64(OutboxOverview::CountCap) << false;
        QTest::newRow("one above") << OutboxOverview::CountCap + 1 << qint64(OutboxOverview::CountCap) << true;
        QTest::newRow("well above") << 12'000 << qint64(OutboxOverview::CountCap) << true;
    }

    void overviewCountsStopAtTheCap()
    {
        QFETCH(int, rows);
        QFETCH(qint64, value);
        QFETCH(bool, capped);
        // Overdue, so the same rows drive the stuck count to the cap too.
        addRows(rows, QStringLiteral("pending"), QStringLiteral("next_attempt_at = now() - interval '1 hour'"));
        addRows(3, QStringLiteral("failed"));
        const OutboxOverview overview = OutboxOverview::load(*m_session, OutboxFilter::DefaultStuckThresholdMs);
        QCOMPARE(overview.pending.value, value);
        QCOMPARE(overview.pending.capped, capped);
        QCOMPARE(overview.stuck.value, value);
        QCOMPARE(overview.stuck.capped, capped);
        QCOMPARE(overview.failed.value, 3LL);
        QVERIFY(!overview.failed.capped);
    }

    void keyPages_data()
    {
        QTest::addColumn<KeyFilter>("filter");
        QTest::addColumn<QStringList>("keys"); // newest first
        const auto prefix = [](const QString& text) { return with<KeyFilter>([&](auto& f) { f.keyPrefix = text; }); };
        const auto statuses
            = [](const QStringList& list) { return with<KeyFilter>([&](auto& f) { f.statuses = list; }); };
        const auto twoToFive = with<KeyFilter>([](auto& f) {
            f.createdFrom = utc(3, 1, 2);
            f.createdTo = utc(3, 1, 5);
        });
        const auto combined = with<KeyFilter>([](auto& f) {
            f.keyPrefix = QStringLiteral("order");
            f.statuses = { QStringLiteral("completed") };
            f.createdFrom = utc(3, 1, 0);
            f.createdTo = utc(3, 1, 8);
        });

        QTest::newRow("no filter") << KeyFilter {}
                                   << QStringList { QStringLiteral("edge-a"), QStringLiteral("edge-\U0010FFFF"),
                                          QStringLiteral("ключи"), QStringLiteral("ключ-2"), QStringLiteral("ключ-1"),
                                          QStringLiteral("orderX1"), QStringLiteral("order_1"),
                                          QStringLiteral("order%1"), QStringLiteral("xorder-1"),
                                          QStringLiteral("ORDER-3"), QStringLiteral("orders-1"),
                                          QStringLiteral("order-2"), QStringLiteral("order-10"),
                                          QStringLiteral("order-1") };
        QTest::newRow("prefix") << prefix(QStringLiteral("order-"))
                                << QStringList { QStringLiteral("order-2"), QStringLiteral("order-10"),
                                       QStringLiteral("order-1") };
        QTest::newRow("prefix that is a whole key") << prefix(
            QStringLiteral("order-1")) << QStringList { QStringLiteral("order-10"), QStringLiteral("order-1") };
        QTest::newRow("prefix is case-sensitive like the keys")
            << prefix(QStringLiteral("ORDER-")) << QStringList { QStringLiteral("ORDER-3") };
        QTest::newRow("percent sign is literal")
            << prefix(QStringLiteral("order%")) << QStringList { QStringLiteral("order%1") };
        QTest::newRow("underscore is literal")
            << prefix(QStringLiteral("order_")) << QStringList { QStringLiteral("order_1") };
        QTest::newRow("non-ASCII prefix")
            << prefix(QStringLiteral("ключ-")) << QStringList { QStringLiteral("ключ-2"), QStringLiteral("ключ-1") };
        QTest::newRow("prefix followed by U+10FFFF") << prefix(
            QStringLiteral("edge-")) << QStringList { QStringLiteral("edge-a"), QStringLiteral("edge-\U0010FFFF") };
        QTest::newRow("one status") << statuses({ QStringLiteral("failed") })
                                    << QStringList { QStringLiteral("ключ-2"), QStringLiteral("order%1"),
                                           QStringLiteral("xorder-1") };
        QTest::newRow("two statuses") << statuses({ QStringLiteral("in_progress"), QStringLiteral("failed") })
                                      << QStringList { QStringLiteral("ключи"), QStringLiteral("ключ-2"),
                                             QStringLiteral("order%1"), QStringLiteral("xorder-1"),
                                             QStringLiteral("order-2") };
        QTest::newRow("created between, from inclusive, to exclusive")
            << twoToFive
            << QStringList { QStringLiteral("ORDER-3"), QStringLiteral("orders-1"), QStringLiteral("order-2") };
        QTest::newRow("prefix, status and time") << combined
                                                 << QStringList { QStringLiteral("order_1"), QStringLiteral("orders-1"),
                                                        QStringLiteral("order-10"), QStringLiteral("order-1") };
    }

    void keyPages()
    {
        QFETCH(KeyFilter, filter);
        QFETCH(QStringList, keys);
        const QList<std::pair<QString, QString>> seed { { QStringLiteral("order-1"), QStringLiteral("completed") },
            { QStringLiteral("order-10"), QStringLiteral("completed") },
            { QStringLiteral("order-2"), QStringLiteral("in_progress") },
            { QStringLiteral("orders-1"), QStringLiteral("completed") },
            { QStringLiteral("ORDER-3"), QStringLiteral("completed") },
            { QStringLiteral("xorder-1"), QStringLiteral("failed") },
            { QStringLiteral("order%1"), QStringLiteral("failed") },
            { QStringLiteral("order_1"), QStringLiteral("completed") },
            { QStringLiteral("orderX1"), QStringLiteral("completed") },
            { QStringLiteral("ключ-1"), QStringLiteral("completed") },
            { QStringLiteral("ключ-2"), QStringLiteral("failed") },
            { QStringLiteral("ключи"), QStringLiteral("in_progress") },
            // The highest code point: a range whose upper bound is "prefix + U+10FFFF" misses this key.
            { QStringLiteral("edge-\U0010FFFF"), QStringLiteral("completed") },
            { QStringLiteral("edge-a"), QStringLiteral("completed") } };
        for (int hour = 0; hour < seed.size(); ++hour)
            addKey(seed.at(hour).first, seed.at(hour).second, hour);

        IdempotencyRepository repository(*m_session);
        QStringList listed;
        const QList<QList<qint64>> pages = walkPages(2, [&](qint64 cursor) {
            QList<qint64> ids;
            for (const IdempotencyRecord& record : repository.page(filter, 2, cursor)) {
                ids.append(record.id);
                listed.append(record.key);
            }
            return ids;
        });
        QVERIFY(strictlyDescending(flattened(pages)));
        QCOMPARE(listed, keys);
    }

    void keyLookups()
    {
        const qint64 orderId
            = m_db->scalar(QStringLiteral("INSERT INTO orders (customer, amount, currency) VALUES ('alice', 12.50, "
                                          "'EUR') RETURNING id"))
                  .toLongLong();
        const qint64 first = addKey(QStringLiteral("k-1"), QStringLiteral("completed"), 0, orderId);
        const qint64 second = addKey(QStringLiteral("k-2"), QStringLiteral("failed"), 1);
        const qint64 third = addKey(QStringLiteral("k-3"), QStringLiteral("in_progress"), 2);
        IdempotencyRepository repository(*m_session);

        const std::optional<IdempotencyRecord> byId = repository.findById(first);
        QVERIFY(byId);
        QCOMPARE(byId->key, QStringLiteral("k-1"));
        QCOMPARE(byId->scope, QStringLiteral("orders"));
        QCOMPARE(byId->status, QStringLiteral("completed"));
        QCOMPARE(byId->responseStatus, 201);
        QCOMPARE(byId->orderId, std::optional<qint64>(orderId));
        QCOMPARE(QJsonDocument::fromJson(byId->responseBody).object(),
            (QJsonObject { { QStringLiteral("key"), QStringLiteral("k-1") } }));
        QCOMPARE(byId->createdAt, utc(3, 1, 0));
        QVERIFY(!repository.findById(9999));

        const std::optional<IdempotencyRecord> byOrder = repository.findByOrder(orderId);
        QVERIFY(byOrder);
        QCOMPARE(byOrder->id, first);
        QVERIFY(!repository.findByOrder(orderId + 100));

        const QList<IdempotencyRecord> records = repository.recordsByIds({ first, 9999, third, second });
        QCOMPARE(records.size(), 3);
        QCOMPARE(records.at(0).id, third);
        QCOMPARE(records.at(1).id, second);
        QCOMPARE(records.at(2).id, first);
        QCOMPARE(records.at(1).failureRetryable, std::optional<bool>(false));
        QVERIFY(!records.at(0).failureRetryable);
        QVERIFY(records.at(0).lockedUntil.isValid());
        QVERIFY(records.at(2).responseBody.isEmpty()); // lists leave the heavy column out
    }

    void sessionInfoReflectsTheRole_data()
    {
        QTest::addColumn<QString>("groupRole"); // empty: the fixture's own (superuser) session
        QTest::addColumn<bool>("mayChange");
        QTest::newRow("fixture superuser") << QString() << true;
        QTest::newRow("viewer") << QStringLiteral("outbox_viewer") << false;
        QTest::newRow("operator") << QStringLiteral("outbox_operator") << true;
    }

    void sessionInfoReflectsTheRole()
    {
        QFETCH(QString, groupRole);
        QFETCH(bool, mayChange);
        std::unique_ptr<DbSession> roleSession;
        if (!groupRole.isEmpty()) {
            roleSession = std::make_unique<DbSession>(
                m_db->createLoginRole(uniqueLogin(QStringLiteral("session"), groupRole), groupRole),
                QStringLiteral("role"));
        }
        DbSession& session = roleSession ? *roleSession : *m_session;

        const SessionInfo info = SessionInfo::read(session);
        QCOMPARE(info.user, session.currentUser());
        QCOMPARE(info.database, m_db->name());
        QCOMPARE(info.schemaVersion, SchemaMigrator::latestVersion());
        QVERIFY(!info.server.isEmpty());
        QVERIFY(!info.serverVersion.isEmpty());
        QCOMPARE(info.mayChangeOutbox, mayChange);
        QCOMPARE(info.roleDescription(), mayChange ? QStringLiteral("operator") : QStringLiteral("read-only"));
        if (mayChange) {
            QVERIFY(info.readOnlyReason().isEmpty());
        } else {
            QVERIFY2(info.readOnlyReason().contains(info.user)
                    && info.readOnlyReason().contains(QStringLiteral("outbox_operator")),
                qPrintable(info.readOnlyReason()));
        }
    }

private:
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<DbSession> m_session;
};

QTEST_GUILESS_MAIN(TestConsoleQueries)
#include "tst_consolequeries.moc"
