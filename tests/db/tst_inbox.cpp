// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "inbox/inboxprocessor.h"
#include "inbox/inboxrepository.h"
#include "metrics/metricsrecorder.h"
#include "operations/retentionpurger.h"
#include "orders/customerordercounter.h"
#include "support/databasetestcase.h"

#include <QTest>
#include <future>

// The consumer-side inbox: a message id is applied once per consumer, whatever the broker redelivers.
class TestInbox final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestInbox()
        : DatabaseTestCase(QStringLiteral("inbox"))
    { }

private:
    qint64 count(const QString& sql) { return db().scalar(sql).toLongLong(); }

    static QByteArray orderCreated(const QString& customer)
    {
        return QStringLiteral("{\"id\": 1, \"customer\": \"%1\"}").arg(customer).toUtf8();
    }

private slots:
    void aMessageIsAppliedOncePerConsumer()
    {
        MetricsRecorder metrics;
        InboxProcessor billing(session(), QStringLiteral("billing"), &metrics);
        InboxProcessor shipping(session(), QStringLiteral("shipping"), &metrics);
        int applied = 0;
        const auto apply = [&applied](DbSession&) { ++applied; };
        QCOMPARE(billing.process(QStringLiteral("m-1"), apply), InboxProcessor::Outcome::Applied);
        QCOMPARE(billing.process(QStringLiteral("m-1"), apply), InboxProcessor::Outcome::Duplicate);
        QCOMPARE(billing.process(QStringLiteral("m-2"), apply), InboxProcessor::Outcome::Applied);
        // Another consumer has an inbox of its own.
        QCOMPARE(shipping.process(QStringLiteral("m-1"), apply), InboxProcessor::Outcome::Applied);
        QCOMPARE(applied, 3);
        metrics.flush(session());
        QCOMPARE(count(QStringLiteral("SELECT sum(consumed) FROM metric_rollups")), 3LL);
        QCOMPARE(count(QStringLiteral("SELECT sum(consumer_duplicates) FROM metric_rollups")), 1LL);
    }

    // The inbox row and the consumer's changes commit together: a failure leaves neither, so the redelivery
    // is applied.
    void aFailedApplyRecordsNothing()
    {
        InboxProcessor inbox(session(), QStringLiteral("counts"));
        CustomerOrderCounter counter(session(), QStringLiteral("counts"));
        QVERIFY_THROWS_EXCEPTION(OutboxError, inbox.process(QStringLiteral("m-1"), [&](DbSession&) {
            counter.apply(QStringLiteral("order.created"), orderCreated(QStringLiteral("c-1")));
            throw OutboxError(OutboxError::Kind::Transient, QStringLiteral("simulated failure after the change"));
        }));
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM inbox")), 0LL);
        QCOMPARE(counter.orders(QStringLiteral("c-1")), 0LL);
        QCOMPARE(inbox.process(QStringLiteral("m-1"),
                     [&](DbSession&) {
                         counter.apply(QStringLiteral("order.created"), orderCreated(QStringLiteral("c-1")));
                     }),
            InboxProcessor::Outcome::Applied);
        QCOMPARE(counter.orders(QStringLiteral("c-1")), 1LL);
    }

    // Two deliveries of one message processed at the same time: the second waits for the first transaction
    // and then sees the duplicate.
    void concurrentDeliveriesApplyOnce()
    {
        UnitOfWork first(session());
        QVERIFY(InboxRepository(session()).record(QStringLiteral("counts"), QStringLiteral("m-1")));
        // A connection is used only by the thread that opened it.
        auto second = std::async(std::launch::async, [settings = db().settings()] {
            DbSession other(settings, QStringLiteral("second consumer"));
            return InboxRepository(other).record(QStringLiteral("counts"), QStringLiteral("m-1"));
        });
        // The second insert blocks on the first one's uncommitted row.
        QTRY_COMPARE(count(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                          "AND wait_event_type = 'Lock'")),
            1LL);
        first.commit();
        QCOMPARE(second.get(), false);
    }

    void badInputIsRefusedByName_data()
    {
        QTest::addColumn<QString>("consumer");
        QTest::addColumn<QString>("messageId");
        QTest::addColumn<QString>("message");
        QTest::newRow("no consumer") << QString() << QStringLiteral("m-1") << QStringLiteral("consumer name");
        QTest::newRow("no message id") << QStringLiteral("c") << QString() << QStringLiteral("no message id");
    }
    void badInputIsRefusedByName()
    {
        QFETCH(QString, consumer);
        QFETCH(QString, messageId);
        QFETCH(QString, message);
        try {
            InboxRepository(session()).record(consumer, messageId);
            QFAIL("accepted");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
            QVERIFY2(error.message().contains(message), qPrintable(error.message()));
        }
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM inbox")), 0LL);
    }

    void counterIgnoresOtherEventsAndRefusesAPayloadWithoutCustomer()
    {
        CustomerOrderCounter counter(session(), QStringLiteral("counts"));
        counter.apply(QStringLiteral("order.shipped"), orderCreated(QStringLiteral("c-1")));
        QCOMPARE(counter.orders(QStringLiteral("c-1")), 0LL);
        QVERIFY_THROWS_EXCEPTION(
            OutboxError, counter.apply(QStringLiteral("order.created"), QByteArrayLiteral("{\"id\": 3}")));
        counter.apply(QStringLiteral("order.created"), orderCreated(QStringLiteral("c-1")));
        counter.apply(QStringLiteral("order.created"), orderCreated(QStringLiteral("c-1")));
        QCOMPARE(counter.orders(QStringLiteral("c-1")), 2LL);
        // Counts are per consumer.
        QCOMPARE(CustomerOrderCounter(session(), QStringLiteral("other")).orders(QStringLiteral("c-1")), 0LL);
    }

    void retentionPurgesOnlyOldRowsInBatches()
    {
        db().exec(QStringLiteral("INSERT INTO inbox (consumer, message_id, received_at) "
                                 "SELECT 'counts', 'old-' || g, now() - interval '8 days' "
                                 "FROM generate_series(1, 25) AS g"));
        db().exec(QStringLiteral("INSERT INTO inbox (consumer, message_id) "
                                 "SELECT 'counts', 'new-' || g FROM generate_series(1, 5) AS g"));
        RetentionPurger purger(session(), 10);
        QCOMPARE(purger.purgeInbox(7LL * 24 * 3600 * 1000), 25LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM inbox")), 5LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM inbox WHERE message_id LIKE 'old-%'")), 0LL);
    }
};

QTEST_GUILESS_MAIN(TestInbox)
#include "tst_inbox.moc"
