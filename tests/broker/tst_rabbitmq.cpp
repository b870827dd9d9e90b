// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpconnection.h"
#include "broker/rabbitmqconsumer.h"
#include "broker/rabbitmqsink.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "operations/outboxoverview.h"
#include "operations/relayfleet.h"
#include "outbox/outboxfilter.h"
#include "outbox/outboxrepository.h"
#include "relay/outboxrelay.h"
#include "relay/sinks/faultinjectingsink.h"
#include "support/databasetestcase.h"
#include "support/processtesting.h"
#include "support/runningrelay.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>
#include <amqp_framing.h>
#include <csignal>

// The relay and the reference consumer against the real RabbitMQ that the test command starts; the broker is
// named by OUTBOX_TEST_AMQP_URI. Some functions stop the broker's AMQP listener or raise its memory alarm, so
// CTest runs this executable alone (RESOURCE_LOCK rabbitmq).
class TestRabbitMq final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestRabbitMq()
        : DatabaseTestCase(QStringLiteral("rabbitmq"))
    { }

private:
    // A fresh exchange and queue per test function, so leftovers of an earlier run never count.
    QString name(const char* what) const
    {
        return QStringLiteral("tst-%1-%2-%3").arg(QCoreApplication::applicationPid()).arg(m_round).arg(what);
    }
    AmqpEndpoint endpoint(const QString& exchange) const
    {
        AmqpEndpoint endpoint = m_broker;
        endpoint.exchange = exchange;
        return endpoint;
    }
    QString uri(const QString& exchange, const QString& extra = {}) const
    {
        return QStringLiteral("%1?exchange=%2%3").arg(m_uri, exchange, extra);
    }

    // A durable queue bound to a topic exchange with "#": every message published to the exchange lands in it.
    void bindQueue(const QString& exchange, const QString& queue)
    {
        AmqpConnection connection(endpoint(exchange), 0, 10'000);
        connection.declareExchange();
        connection.declareQueue(queue);
        connection.bindQueue(queue, exchange, QStringLiteral("#"));
    }

    qint64 messagesIn(const QString& queue)
    {
        AmqpConnection connection(m_broker, 0, 10'000);
        const QByteArray name = queue.toUtf8();
        const amqp_queue_declare_ok_t* ok = amqp_queue_declare(
            connection.state(), AmqpConnection::Channel, AmqpConnection::bytes(name), 1, 0, 0, 0, amqp_empty_table);
        connection.checkReply(QStringLiteral("counting messages"));
        return ok->message_count;
    }

    // Takes (and acknowledges) `count` messages; fewer if the queue runs dry for a while.
    QList<AmqpDelivery> take(const QString& queue, int count)
    {
        RabbitMqConsumer::Options options;
        options.queue = queue;
        options.prefetch = 500;
        RabbitMqConsumer consumer(m_broker, options);
        QList<AmqpDelivery> deliveries;
        while (deliveries.size() < count) {
            std::optional<AmqpDelivery> delivery = consumer.next(10'000);
            if (!delivery)
                break;
            consumer.ack(delivery->deliveryTag);
            deliveries.append(std::move(*delivery));
        }
        return deliveries;
    }

    static void rabbitmqctl(const QStringList& arguments)
    {
        QProcess ctl;
        ctl.setProcessChannelMode(QProcess::MergedChannels);
        ctl.start(QStringLiteral("rabbitmqctl"), arguments);
        QVERIFY2(ctl.waitForFinished(120'000), qPrintable(arguments.join(QLatin1Char(' '))));
        QVERIFY2(ctl.exitStatus() == QProcess::NormalExit && ctl.exitCode() == 0,
            qPrintable(QStringLiteral("rabbitmqctl %1: %2")
                           .arg(arguments.join(QLatin1Char(' ')), QString::fromLocal8Bit(ctl.readAll()))));
    }

    ProcessTesting::Run outboxctl(const QStringList& arguments)
    {
        return ProcessTesting::run(
            QStringLiteral(OUTBOXCTL_PATH), QStringList { QStringLiteral("--dsn"), db().dsn() } + arguments);
    }

    qint64 count(const QString& sql) { return db().scalar(sql).toLongLong(); }

    // The registry's judgment of the relay named `name`, as the console reads it.
    std::optional<RelayNode> fleetNode(const QString& name)
    {
        for (const RelayNode& node : RelayFleet(session()).recent()) {
            if (node.name == name)
                return node;
        }
        return std::nullopt;
    }
    RelayState fleetState(const QString& name)
    {
        const std::optional<RelayNode> node = fleetNode(name);
        return node ? node->state : RelayState::Stopped;
    }

    // `outboxctl relays --format json`: the state word and last error it prints for `name`.
    QJsonObject listedRelay(const QString& name)
    {
        const ProcessTesting::Run listed
            = outboxctl({ QStringLiteral("relays"), QStringLiteral("--format"), QStringLiteral("json") });
        if (listed.exitCode != 0)
            return {};
        for (const QJsonValue& relay : listed.json().value(QStringLiteral("relays")).toArray()) {
            if (relay.toObject().value(QStringLiteral("name")).toString() == name)
                return relay.toObject();
        }
        return {};
    }

    // Runs the reference consumer (`outboxctl consume`, consumer "order-counts") for `messages` deliveries and
    // returns its summary; an empty object if it failed.
    QJsonObject consume(const QString& exchange, const QString& queue, int messages)
    {
        const ProcessTesting::Run consumed = outboxctl({ QStringLiteral("consume"), QStringLiteral("--from"),
            uri(exchange), QStringLiteral("--queue"), queue, QStringLiteral("--consumer"),
            QStringLiteral("order-counts"), QStringLiteral("--max-messages"), QString::number(messages) });
        return consumed.exitCode == 0 ? consumed.json() : QJsonObject();
    }

    static RelayOptions relayOptions()
    {
        RelayOptions options;
        options.workers = 2;
        options.batchSize = 500;
        options.backoffBaseMs = 0;
        options.once = true;
        options.log = [](QtMsgType, const QString&) {};
        return options;
    }

    // `rows` order.created events for customers c-0 .. c-6 whose dedupe keys are ev-1 .. ev-N.
    void seedOrders(int rows)
    {
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                 "SELECT 'order', g::text, 'order.created', "
                                 "  jsonb_build_object('id', g, 'customer', 'c-' || (g % 7)), 'ev-' || g "
                                 "FROM generate_series(1, ?::int) AS g"),
            { rows });
    }

private slots:
    void initTestCase()
    {
        m_uri = qEnvironmentVariable("OUTBOX_TEST_AMQP_URI");
        QVERIFY2(!m_uri.isEmpty(),
            "OUTBOX_TEST_AMQP_URI is not set: run the tests through .ci/test, which starts "
            "RabbitMQ, or point it at a broker, e.g. amqp://guest:guest@127.0.0.1:5672/");
        m_broker = AmqpEndpoint::parse(m_uri);
        try {
            AmqpConnection probe(m_broker, 0, 10'000);
        } catch (const OutboxError& error) {
            QFAIL(qPrintable(QStringLiteral("no broker at OUTBOX_TEST_AMQP_URI: %1").arg(error.message())));
        }
        setUpDatabase();
    }
    void init()
    {
        ++m_round;
        db().reset();
    }

    void everyRowArrivesWithIdRoutingKeyHeadersAndBody()
    {
        constexpr int Rows = 10'000;
        const QString exchange = name("events");
        const QString queue = name("all");
        bindQueue(exchange, queue);
        db().exec(QStringLiteral(
                      "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, headers, dedupe_key) "
                      "SELECT 'order', g::text, (ARRAY['order.created', 'order.paid', 'order.shipped'])[g % 3 + 1], "
                      "  jsonb_build_object('n', g, 'note', 'a \"quoted\", unicode ü text'), "
                      "  jsonb_build_object('tenant', 't-' || (g % 5), 'seq', g, 'urgent', g % 2 = 0, "
                      "    'ratio', g + 0.5, 'trace', jsonb_build_array(g, 'x'), 'big', 9007199254740993 + g), "
                      "  'ev-' || g "
                      "FROM generate_series(1, ?::int) AS g"),
            { Rows });

        OutboxRelay relay(
            db().settings(), [endpoint = endpoint(exchange)] { return std::make_unique<RabbitMqSink>(endpoint); },
            relayOptions());
        const RelayTotals totals = relay.run();
        QCOMPARE(totals.published, qint64(Rows));
        QCOMPARE(
            count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")), qint64(Rows));

        QTRY_COMPARE_WITH_TIMEOUT(messagesIn(queue), qint64(Rows), 30'000);
        const QList<AmqpDelivery> deliveries = take(queue, Rows);
        QCOMPARE(deliveries.size(), Rows);
        QSet<QString> seen;
        static const QStringList types { QStringLiteral("order.created"), QStringLiteral("order.paid"),
            QStringLiteral("order.shipped") };
        for (const AmqpDelivery& delivery : deliveries) {
            QVERIFY2(delivery.messageId.startsWith(QLatin1String("ev-")), qPrintable(delivery.messageId));
            const int g = delivery.messageId.mid(3).toInt();
            QVERIFY(!seen.contains(delivery.messageId));
            seen.insert(delivery.messageId);
            QCOMPARE(delivery.routingKey, types.at(g % 3));
            QCOMPARE(delivery.eventType, types.at(g % 3));
            QCOMPARE(QJsonDocument::fromJson(delivery.body).object(),
                (QJsonObject { { QStringLiteral("n"), g },
                    { QStringLiteral("note"), QStringLiteral("a \"quoted\", unicode ü text") } }));
            QCOMPARE(delivery.headers,
                (QJsonObject { { QStringLiteral("tenant"), QStringLiteral("t-%1").arg(g % 5) },
                    { QStringLiteral("seq"), g }, { QStringLiteral("urgent"), g % 2 == 0 },
                    { QStringLiteral("ratio"), g + 0.5 }, { QStringLiteral("big"), qint64(9007199254740993) + g },
                    { QStringLiteral("trace"), QStringLiteral("[%1,\"x\"]").arg(g) } }));
        }
        QCOMPARE(seen.size(), Rows);
    }

    // The broker's AMQP listener goes away while the relay runs and comes back: rows written meanwhile stay
    // unpublished (nothing is marked published without a confirm), the relay hands its claims back without
    // charging an attempt, reconnects on its own, and publishes everything once the broker is back.
    void brokerOutageLosesNothing()
    {
        constexpr int Before = 500;
        constexpr int During = 1500;
        const QString exchange = name("events");
        const QString queue = name("all");
        bindQueue(exchange, queue);
        seedOrders(Before);

        RelayOptions options = relayOptions();
        options.once = false;
        options.batchSize = 50;
        options.idlePollMs = 50;
        options.workerName = name("outage-relay");
        options.registryHeartbeatMs = 200;
        OutboxRelay relay(
            db().settings(), [endpoint = endpoint(exchange)] { return std::make_unique<RabbitMqSink>(endpoint); },
            options);
        RunningRelay running(relay);
        const QString published = QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'");
        QTRY_COMPARE_WITH_TIMEOUT(count(published), qint64(Before), 30'000);

        rabbitmqctl({ QStringLiteral("stop_app") });
        auto restart = qScopeGuard([] { rabbitmqctl({ QStringLiteral("start_app") }); });
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                 "SELECT 'order', g::text, 'order.created', jsonb_build_object('id', g), 'ev-' || g "
                                 "FROM generate_series(?::int, ?::int) AS g"),
            { Before + 1, Before + During });
        // The relay notices the broker is gone (an idle relay too: it reads its connection at every poll), says so
        // on /healthz, and claims nothing while it is; a batch caught mid-publish would be handed back.
        QTRY_VERIFY_WITH_TIMEOUT(!relay.status().sinkUp, 30'000);
        QVERIFY(!relay.status().sinkProblem.isEmpty());
        // The registry and the Overview say so too: the relay is failing, and the waiting rows wait for the broker,
        // not for their turn.
        QTRY_COMPARE_WITH_TIMEOUT(fleetState(options.workerName), RelayState::Failing, 10'000);
        QVERIFY(relay.status().failing);
        {
            const OutboxOverview overview = OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs);
            QCOMPARE(int(overview.fleetCondition()), int(FleetCondition::AllFailing));
            QVERIFY(!overview.oldestUnpublished.isEmpty());
            for (const WaitingRow& waiting : overview.oldestUnpublished)
                QCOMPARE(int(waiting.cause), int(WaitCause::RelaysFailing));
            QVERIFY(overview.longestFailing());
            QVERIFY(!overview.longestFailing()->sinkUp);
        }
        QCOMPARE(count(published), qint64(Before));
        QCOMPARE(
            count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status <> 'published' AND attempts > 0")),
            0LL);
        restart.dismiss();
        rabbitmqctl({ QStringLiteral("start_app") });

        QTRY_COMPARE_WITH_TIMEOUT(count(published), qint64(Before + During), 120'000);
        QTRY_COMPARE_WITH_TIMEOUT(fleetState(options.workerName), RelayState::Alive, 10'000);
        QVERIFY(!relay.status().failing);
        // One successful publish per row and no failure on record: the outage cost no row an attempt.
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE attempts <> 1")), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_attempts")), 0LL);

        // Durable queue, persistent messages: what was confirmed before the outage is still there, and every
        // row is in the queue exactly once.
        QTRY_COMPARE_WITH_TIMEOUT(messagesIn(queue), qint64(Before + During), 30'000);
        const QList<AmqpDelivery> deliveries = take(queue, Before + During);
        QSet<QString> ids;
        for (const AmqpDelivery& delivery : deliveries)
            ids.insert(delivery.messageId);
        QCOMPARE(ids.size(), Before + During);
    }

    // A relay whose every publish the broker refuses is failing, not "alive · 0.0 /s": by the heartbeat after the
    // first refusal, in the registry and in `outboxctl relays`, with the broker's words as its current error; after
    // the repair, alive again at the heartbeat after a publish goes through, the error shown as past.
    void aRefusedRelayIsFailingUntilTheRepair_data()
    {
        QTest::addColumn<QString>("refusal");
        QTest::addColumn<QString>("error");
        QTest::newRow("no queue bound: 312 NO_ROUTE") << QStringLiteral("unroutable") << QStringLiteral("NO_ROUTE");
        QTest::newRow("queue full, reject-publish: basic.nack") << QStringLiteral("full") << QStringLiteral("nack");
    }

    void aRefusedRelayIsFailingUntilTheRepair()
    {
        QFETCH(QString, refusal);
        QFETCH(QString, error);
        const QString exchange = name("refused");
        const QString queue = name("refused-q");
        const QString policy = name("limit");
        bool limited = false;
        if (refusal == QLatin1String("full")) {
            // A queue that holds nothing and refuses what does not fit, as the demo's stopped consumer leaves it.
            rabbitmqctl({ QStringLiteral("set_policy"), policy, QStringLiteral("^%1$").arg(queue),
                QStringLiteral(R"({"max-length":0,"overflow":"reject-publish"})"), QStringLiteral("--apply-to"),
                QStringLiteral("queues") });
            limited = true;
            bindQueue(exchange, queue);
        }
        const auto clearPolicy = qScopeGuard([&] {
            if (limited)
                rabbitmqctl({ QStringLiteral("clear_policy"), policy });
        });
        seedOrders(20);

        RelayOptions options = relayOptions();
        options.once = false;
        options.batchSize = 10;
        options.idlePollMs = 50;
        options.backoffBaseMs = 50;
        options.backoffMaxMs = 200;
        options.maxAttempts = 1000; // they stay failed, never dead, until the repair
        options.registryHeartbeatMs = 1000;
        options.workerName = name("refused-relay");
        OutboxRelay relay(
            db().settings(), [endpoint = endpoint(exchange)] { return std::make_unique<RabbitMqSink>(endpoint); },
            options);
        RunningRelay running(relay);

        // The first refusal on record, then the first heartbeat after it (with a margin for the transaction that
        // recorded it to commit and be tallied): that heartbeat already says failing.
        QTRY_VERIFY_WITH_TIMEOUT(count(QStringLiteral("SELECT count(*) FROM outbox_attempts")) > 0, 30'000);
        const QString heartbeatAfterFirstFailure
            = QStringLiteral("SELECT n.last_seen > (SELECT min(created_at) FROM outbox_attempts) + interval '100 ms' "
                             "FROM relay_nodes n WHERE n.name = '%1'")
                  .arg(options.workerName);
        QTRY_VERIFY_WITH_TIMEOUT(db().scalar(heartbeatAfterFirstFailure).toBool(), 10'000);
        std::optional<RelayNode> failing = fleetNode(options.workerName);
        QVERIFY(failing);
        QCOMPARE(failing->state, RelayState::Failing);
        QVERIFY(failing->failingSince.isValid());
        QVERIFY2(failing->lastError.contains(error), qPrintable(failing->lastError));
        QCOMPARE(failing->published, 0LL);
        QVERIFY(relay.status().failing);
        QVERIFY2(relay.status().failingProblem.contains(error), qPrintable(relay.status().failingProblem));
        const QJsonObject listed = listedRelay(options.workerName);
        QCOMPARE(listed.value(QStringLiteral("state")).toString(), QStringLiteral("failing"));
        QVERIFY2(listed.value(QStringLiteral("last_error")).toString().contains(error),
            qPrintable(listed.value(QStringLiteral("last_error")).toString()));
        QVERIFY(!listed.value(QStringLiteral("failing_since")).toString().isEmpty());

        // The repair: a queue for the events, or room in the full one.
        if (limited) {
            limited = false;
            rabbitmqctl({ QStringLiteral("clear_policy"), policy });
        } else {
            bindQueue(exchange, queue);
        }
        QTRY_COMPARE_WITH_TIMEOUT(
            count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")), 20LL, 60'000);
        QTRY_COMPARE_WITH_TIMEOUT(fleetState(options.workerName), RelayState::Alive, 10'000);
        const RelayNode alive = *fleetNode(options.workerName);
        QVERIFY(!alive.failingSince.isValid());
        QVERIFY2(alive.lastError.contains(error), qPrintable(alive.lastError)); // kept, as past
        QVERIFY(alive.lastErrorAt.isValid());
        QVERIFY(!relay.status().failing);
        QCOMPARE(listedRelay(options.workerName).value(QStringLiteral("state")).toString(), QStringLiteral("alive"));
    }

    // A broker nobody can reach (connection refused): the relay is failing with the connection error, and the
    // rows wait behind it, as the Overview says.
    void rowsWaitingBehindAnUnreachableBrokerSayWhy()
    {
        seedOrders(5);
        AmqpEndpoint unreachable = m_broker;
        unreachable.nodes.first().port = 1; // nothing listens there: connection refused
        RelayOptions options = relayOptions();
        options.once = false;
        options.idlePollMs = 50;
        options.registryHeartbeatMs = 200;
        options.workerName = name("unreachable-relay");
        OutboxRelay relay(
            db().settings(), [unreachable] { return std::make_unique<RabbitMqSink>(unreachable); }, options);
        RunningRelay running(relay);
        QTRY_COMPARE_WITH_TIMEOUT(fleetState(options.workerName), RelayState::Failing, 10'000);
        const OutboxOverview overview = OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs);
        QCOMPARE(int(overview.fleetCondition()), int(FleetCondition::AllFailing));
        QCOMPARE(overview.oldestUnpublished.size(), 5);
        for (const WaitingRow& waiting : overview.oldestUnpublished)
            QCOMPARE(int(waiting.cause), int(WaitCause::RelaysFailing));
        const RelayNode* longest = overview.longestFailing();
        QVERIFY(longest);
        QCOMPARE(longest->name, options.workerName);
        QVERIFY(!longest->sinkUp);
        QVERIFY2(longest->lastError.contains(QStringLiteral("127.0.0.1:1/")), qPrintable(longest->lastError));
        // Nothing was ever published, and the rows have waited: "Nothing is publishing", whatever the states say.
        QVERIFY(overview.nothingPublishing(0));
        QVERIFY(!overview.nothingPublishing(3'600'000));
    }

    void unroutableMessageFailsWithTheBrokersReasonThenGoesDead()
    {
        const QString exchange = name("nowhere"); // declared by the sink, nothing bound
        OutboxRepository(*db().openSession())
            .enqueue({ QStringLiteral("order"), QStringLiteral("1"), QStringLiteral("order.created"), "{\"id\":1}",
                "{}", QStringLiteral("ev-1") });
        RelayOptions options = relayOptions();
        options.maxAttempts = 3;
        OutboxRelay relay(
            db().settings(), [endpoint = endpoint(exchange)] { return std::make_unique<RabbitMqSink>(endpoint); },
            options);
        const RelayTotals totals = relay.run();
        QCOMPARE(totals.published, 0LL);
        QCOMPARE(totals.dead, 1LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT status FROM outbox_messages")).toString(), QStringLiteral("dead"));
        QCOMPARE(count(QStringLiteral("SELECT attempts FROM outbox_messages")), 3LL);
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_attempts")), 3LL);
        const QString error = db().scalar(QStringLiteral("SELECT last_error FROM outbox_messages")).toString();
        QVERIFY2(error.contains(QLatin1String("312 NO_ROUTE")), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("routing key 'order.created'")), qPrintable(error));
    }

    // A message AMQP cannot carry (a routing key over 255 bytes) fails by itself and goes dead; it is not
    // mistaken for an outage, and its neighbours in the batch are published.
    void unencodableMessageFailsAloneAndGoesDead()
    {
        const QString exchange = name("events");
        const QString queue = name("all");
        bindQueue(exchange, queue);
        seedOrders(3);
        db().exec(QStringLiteral("UPDATE outbox SET event_type = repeat('x', 300) WHERE dedupe_key = 'ev-2'"));
        RelayOptions options = relayOptions();
        options.maxAttempts = 2;
        OutboxRelay relay(
            db().settings(), [endpoint = endpoint(exchange)] { return std::make_unique<RabbitMqSink>(endpoint); },
            options);
        const RelayTotals totals = relay.run();
        QCOMPARE(totals.published, 2LL);
        QCOMPARE(totals.dead, 1LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT status FROM outbox_messages WHERE dedupe_key = 'ev-2'")).toString(),
            QStringLiteral("dead"));
        const QString error
            = db().scalar(QStringLiteral("SELECT last_error FROM outbox_messages WHERE dedupe_key = 'ev-2'"))
                  .toString();
        QVERIFY2(error.contains(QLatin1String("at most 255")), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(messagesIn(queue), 2LL, 30'000);
    }

    void brokerThatCannotBeReachedStopsAOneShotRelayWithItsReason()
    {
        OutboxRepository(*db().openSession())
            .enqueue({ QStringLiteral("order"), QStringLiteral("1"), QStringLiteral("order.created"), "{}", "{}",
                QStringLiteral("ev-1") });
        AmqpEndpoint wrong = endpoint(name("events"));
        wrong.password = QStringLiteral("not-the-password");
        OutboxRelay relay(
            db().settings(), [wrong] { return std::make_unique<RabbitMqSink>(wrong); }, relayOptions());
        try {
            relay.run();
            QFAIL("the relay ran without a broker");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::Broker);
            QVERIFY2(error.message().contains(QLatin1String("ACCESS_REFUSED")), qPrintable(error.message()));
        }
        // The claim was handed back: the row is as it was, not charged an attempt.
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT status FROM outbox_messages")).toString(), QStringLiteral("pending"));
        QCOMPARE(count(QStringLiteral("SELECT attempts FROM outbox_messages")), 0LL);
        // outboxctl says so in one line, without the password, and exits 10.
        const ProcessTesting::Run cli
            = outboxctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink"),
                QStringLiteral("amqp://%1:not-the-password@%2:%3/?exchange=e")
                    .arg(wrong.user, wrong.nodes.first().host)
                    .arg(wrong.nodes.first().port) });
        QCOMPARE(cli.exitCode, 10);
        QVERIFY2(cli.err.contains("ACCESS_REFUSED"), cli.err.constData());
        QVERIFY2(!cli.err.contains("not-the-password"), cli.err.constData());
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT status FROM outbox_messages")).toString(), QStringLiteral("pending"));
    }

    // Issue 23 through the real broker: 3,000 events of 10 keys (one customer each), 4 workers of batch 10, 5 % of
    // publishes failing before they reach RabbitMQ. A queue's consumer sees each key's events in id order (the
    // first delivery of each; the inbox drops repeats), and the reference consumer's counts are the published ones.
    void aKeysEventsReachTheConsumerInOrder()
    {
        constexpr int Rows = 3'000;
        constexpr int Keys = 10;
        const QString exchange = name("events");
        const QString ordered = name("ordered");
        const QString counted = name("counted");
        bindQueue(exchange, ordered);
        bindQueue(exchange, counted);
        db().exec(
            QStringLiteral("SELECT outbox_enqueue('customer', 'c-' || (g % ?::int), 'order.created', "
                           "  jsonb_build_object('customer', 'c-' || (g % ?::int)), jsonb_build_object('seq', g), "
                           "  'ev-' || g) "
                           "FROM generate_series(1, ?::int) AS g"),
            { Keys, Keys, Rows });
        RelayOptions options = relayOptions();
        options.workers = 4;
        options.batchSize = 10;
        options.maxAttempts = 1'000;
        auto published = std::make_shared<std::atomic<qint64>>(0);
        OutboxRelay relay(
            db().settings(),
            [endpoint = endpoint(exchange), published] {
                FaultInjectingSink::Options faults;
                faults.failureRate = 0.05;
                return std::make_unique<FaultInjectingSink>(
                    faults, published, std::make_unique<RabbitMqSink>(endpoint));
            },
            options);
        const RelayTotals totals = relay.run();
        QCOMPARE(totals.published, qint64(Rows));
        QVERIFY2(totals.failed > 50, qPrintable(QString::number(totals.failed))); // the faults did happen

        QTRY_COMPARE_WITH_TIMEOUT(messagesIn(ordered), qint64(Rows), 30'000);
        QHash<QString, qint64> lastSeq;
        QSet<QString> seen;
        qint64 inversions = 0;
        for (const AmqpDelivery& delivery : take(ordered, Rows)) {
            if (seen.contains(delivery.messageId))
                continue;
            seen.insert(delivery.messageId);
            const QString customer
                = QJsonDocument::fromJson(delivery.body).object().value(QStringLiteral("customer")).toString();
            const qint64 seq = delivery.headers.value(QStringLiteral("seq")).toInteger();
            inversions += seq < lastSeq.value(customer) ? 1 : 0;
            lastSeq[customer] = std::max(lastSeq.value(customer), seq);
        }
        QCOMPARE(seen.size(), Rows);
        QCOMPARE(lastSeq.size(), Keys);
        QCOMPARE(inversions, 0LL);

        const QJsonObject summary = consume(exchange, counted, Rows);
        QCOMPARE(summary.value(QStringLiteral("applied")).toInt(), Rows);
        for (int key = 0; key < Keys; ++key) {
            const QString customer = QStringLiteral("c-%1").arg(key);
            QCOMPARE(db().scalar(QStringLiteral("SELECT orders FROM customer_order_counts "
                                                "WHERE consumer = 'order-counts' AND customer = ?::text"),
                             { customer })
                         .toLongLong(),
                db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published' "
                                           "AND ordering_key = ?::text"),
                        { QStringLiteral("customer:") + customer })
                    .toLongLong());
        }
    }

    // Every message delivered twice: the reference consumer applies each once and counts the rest as duplicates.
    void consumerAppliesRedeliveredMessagesOnce()
    {
        constexpr int Messages = 300;
        const QString exchange = name("events");
        const QString queue = name("orders");
        bindQueue(exchange, queue);
        QList<OutboxMessage> batch;
        QHash<QString, qint64> expected;
        for (int i = 1; i <= Messages; ++i) {
            const QString customer = QStringLiteral("c-%1").arg(i % 7);
            batch.append({ i, 1, QStringLiteral("order"), QString::number(i), QStringLiteral("order.created"),
                QStringLiteral("ev-%1").arg(i),
                QJsonDocument(QJsonObject { { QStringLiteral("customer"), customer } }).toJson(QJsonDocument::Compact),
                "{}", 1, QDateTime::currentDateTimeUtc(), QString() });
            ++expected[customer];
        }
        RabbitMqSink sink(endpoint(exchange));
        for (int round = 0; round < 2; ++round) {
            const QList<PublishResult> results = sink.publish(batch);
            QCOMPARE(results.size(), Messages);
            for (const PublishResult& result : results)
                QVERIFY2(result.ok, qPrintable(result.error));
        }

        const QJsonObject summary = consume(exchange, queue, 2 * Messages);
        QCOMPARE(summary.value(QStringLiteral("applied")).toInt(), Messages);
        QCOMPARE(summary.value(QStringLiteral("duplicates")).toInt(), Messages);
        QCOMPARE(summary.value(QStringLiteral("rejected")).toInt(), 0);
        for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
            QCOMPARE(db().scalar(QStringLiteral("SELECT orders FROM customer_order_counts "
                                                "WHERE consumer = 'order-counts' AND customer = ?::text"),
                             { it.key() })
                         .toLongLong(),
                it.value());
        }
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM inbox WHERE consumer = 'order-counts'")), qint64(Messages));
        QCOMPARE(count(QStringLiteral("SELECT sum(consumed) FROM metric_rollups")), qint64(Messages));
        QCOMPARE(count(QStringLiteral("SELECT sum(consumer_duplicates) FROM metric_rollups")), qint64(Messages));
        QCOMPARE(messagesIn(queue), 0LL); // all acknowledged
    }

    // The relay dies after the broker confirmed but before the rows were marked published. After the lease
    // expires another relay publishes them again (at-least-once), and the consumer's inbox drops the copies.
    void relayKilledBeforeRecordingConfirmsRepublishesAndTheInboxDropsTheCopies()
    {
        constexpr int Rows = 5;
        const QString exchange = name("events");
        const QString queue = name("orders");
        bindQueue(exchange, queue);
        seedOrders(Rows);

        // The memory alarm blocks publishers, so the relay holds its claimed rows while it waits for confirms. One
        // worker per row: consecutive unkeyed rows are in different lanes of the log, and a claim takes one lane.
        rabbitmqctl({ QStringLiteral("set_vm_memory_high_watermark"), QStringLiteral("0") });
        auto lowerAlarm = qScopeGuard([] {
            rabbitmqctl({ QStringLiteral("set_vm_memory_high_watermark"), QStringLiteral("0.4") });
        });
        QProcess relay;
        relay.setProcessChannelMode(QProcess::ForwardedChannels);
        relay.start(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("--dsn"), db().dsn(), QStringLiteral("relay"), QStringLiteral("--sink"),
                uri(exchange, QStringLiteral("&confirm_timeout_ms=120000")), QStringLiteral("--lease-seconds"),
                QStringLiteral("2"), QStringLiteral("--workers"), QString::number(Rows) });
        QVERIFY(relay.waitForStarted());
        const auto killRelay = qScopeGuard([&relay] {
            relay.kill();
            relay.waitForFinished();
        });
        QTRY_COMPARE_WITH_TIMEOUT(
            count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'in_flight'")), qint64(Rows),
            30'000);

        // Lock the claimed rows and their lanes (rows of the log are published by settling their lane, migration
        // 0028): once the broker confirms, the relay's completion waits for us.
        auto locker = db().openSession(QStringLiteral("locker"));
        UnitOfWork lock(*locker);
        locker->exec(
            QStringLiteral("SELECT id FROM outbox WHERE status = 'in_flight' FOR UPDATE"), {}, QStringLiteral("test"));
        locker->exec(QStringLiteral("SELECT lane FROM outbox_lanes WHERE claimed_through IS NOT NULL FOR UPDATE"), {},
            QStringLiteral("test"));
        lowerAlarm.dismiss();
        rabbitmqctl({ QStringLiteral("set_vm_memory_high_watermark"), QStringLiteral("0.4") });
        QTRY_COMPARE_WITH_TIMEOUT(messagesIn(queue), qint64(Rows), 30'000);
        // The broker has every message; the relay cannot mark a row published behind our lock (its lease heartbeat
        // waits there too), so a kill now is a kill between the confirm and the completion.
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")), 0LL);
        ::kill(pid_t(relay.processId()), SIGKILL);
        QVERIFY(relay.waitForFinished());
        lock.rollback();
        QCOMPARE(
            count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'in_flight'")), qint64(Rows));

        QTRY_COMPARE_WITH_TIMEOUT(count(QStringLiteral("SELECT count(*) FROM outbox_messages "
                                                       "WHERE status = 'in_flight' AND lease_expires_at < now()")),
            qint64(Rows), 30'000);
        const ProcessTesting::Run second = outboxctl({ QStringLiteral("relay"), QStringLiteral("--once"),
            QStringLiteral("--sink"), uri(exchange), QStringLiteral("--backoff-base-ms"), QStringLiteral("0") });
        QCOMPARE(second.exitCode, 0);
        QCOMPARE(
            count(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")), qint64(Rows));
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox_attempts WHERE error LIKE '%lease%expired%'")),
            qint64(Rows));
        QTRY_COMPARE_WITH_TIMEOUT(messagesIn(queue), qint64(2 * Rows), 30'000);

        const QJsonObject summary = consume(exchange, queue, 2 * Rows);
        QCOMPARE(summary.value(QStringLiteral("applied")).toInt(), Rows);
        QCOMPARE(summary.value(QStringLiteral("duplicates")).toInt(), Rows);
        QCOMPARE(count(QStringLiteral("SELECT sum(orders) FROM customer_order_counts")), qint64(Rows));
    }

private:
    QString m_uri;
    AmqpEndpoint m_broker;
    int m_round = 0;
};

QTEST_GUILESS_MAIN(TestRabbitMq)
#include "tst_rabbitmq.moc"
