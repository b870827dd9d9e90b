// SPDX-License-Identifier: GPL-3.0-or-later
#include "idempotency/idempotencyrepository.h"
#include "support/databasetestcase.h"
#include "support/querytesting.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace QueryTesting;

// The idempotency-key queries behind the console's Keys tab: keyset pages under every filter and the look-ups
// of one key.
class TestKeyQueries final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestKeyQueries()
        : DatabaseTestCase(QStringLiteral("keyqueries"))
    { }

private:
    // One key of scope "orders", created `hour` hours after 2024-03-01T00:00Z, with what its status requires.
    qint64 addKey(const QString& key, const QString& status, int hour, std::optional<qint64> orderId = {})
    {
        return db()
            .scalar(
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

private slots:
    void keyPages_data()
    {
        QTest::addColumn<KeyFilter>("filter");
        QTest::addColumn<QStringList>("keys"); // newest first
        const auto prefix = [](const QString& text) { return with<KeyFilter>([&](auto& f) { f.keyPrefix = text; }); };
        const auto statuses
            = [](const QStringList& list) { return with<KeyFilter>([&](auto& f) { f.statuses = keyStatuses(list); }); };
        const auto twoToFive = with<KeyFilter>([](auto& f) {
            f.createdFrom = utc(3, 1, 2);
            f.createdTo = utc(3, 1, 5);
        });
        const auto combined = with<KeyFilter>([](auto& f) {
            f.keyPrefix = QStringLiteral("order");
            f.statuses = { KeyStatus::Completed };
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

        IdempotencyRepository repository(session());
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
            = db().scalar(QStringLiteral("INSERT INTO orders (customer, amount, currency) VALUES ('alice', 12.50, "
                                         "'EUR') RETURNING id"))
                  .toLongLong();
        const qint64 first = addKey(QStringLiteral("k-1"), QStringLiteral("completed"), 0, orderId);
        const qint64 second = addKey(QStringLiteral("k-2"), QStringLiteral("failed"), 1);
        const qint64 third = addKey(QStringLiteral("k-3"), QStringLiteral("in_progress"), 2);
        IdempotencyRepository repository(session());

        const std::optional<IdempotencyRecord> byId = repository.findById(first);
        QVERIFY(byId);
        QCOMPARE(byId->key, QStringLiteral("k-1"));
        QCOMPARE(byId->scope, QStringLiteral("orders"));
        QCOMPARE(byId->status, KeyStatus::Completed);
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
};

QTEST_GUILESS_MAIN(TestKeyQueries)
#include "tst_keyqueries.moc"
