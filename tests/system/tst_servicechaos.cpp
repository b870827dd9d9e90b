// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpconnection.h"
#include "broker/amqpendpoint.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "support/databaseprobe.h"
#include "support/httptesting.h"
#include "support/relayprocess.h"

#include <QCoreApplication>
#include <QNetworkProxy>
#include <QProcess>
#include <QTest>
#include <memory>

// The other long-running processes under the same faults as the relay: `outboxctl consume` while PostgreSQL
// crashes (`pg_ctl stop -m immediate`) and while the broker stops, orders-service while PostgreSQL crashes. Each
// keeps running, logs each outage once as it begins and once as it ends, and loses nothing; orders-service also
// leaves a server that turned read-only under it for the writable one of its multi-host DSN. Stops the broker's
// application, so CTest runs it alone with the broker tests (RESOURCE_LOCK rabbitmq).
class TestServiceChaos final : public QObject {
    Q_OBJECT

    static qint64 scalar(const PrivateCluster& cluster, const QString& sql)
    {
        return DatabaseProbe::scalar(cluster.settings(), sql);
    }

    static void rabbitmqctl(const QString& command)
    {
        QProcess ctl;
        ctl.setProcessChannelMode(QProcess::MergedChannels);
        ctl.start(QStringLiteral("rabbitmqctl"), { command });
        QVERIFY2(ctl.waitForFinished(120'000) && ctl.exitCode() == 0, ctl.readAll().constData());
    }

    static std::unique_ptr<RelayProcess> outboxctl(const PrivateCluster& cluster, const QStringList& arguments)
    {
        return std::make_unique<RelayProcess>(QStringLiteral(OUTBOXCTL_PATH),
            QStringList { arguments.first(), QStringLiteral("--dsn"), cluster.dsn() } + arguments.mid(1));
    }

    // POSTs new orders to orders-service at `base`, each under a key of its own, and counts those created.
    struct OrderPoster {
        QNetworkAccessManager& network;
        QUrl base;
        int key = 0;
        qint64 created = 0;

        int post()
        {
            const int status = HttpTesting::postOrder(network, base, QByteArray::number(++key)).status;
            created += status == 201 ? 1 : 0;
            return status;
        }
    };

    QString m_uri;
    QNetworkAccessManager m_network;

private slots:
    void initTestCase()
    {
        m_uri = qEnvironmentVariable("OUTBOX_TEST_AMQP_URI");
        QVERIFY2(!m_uri.isEmpty(), "OUTBOX_TEST_AMQP_URI is not set: run the tests through .ci/test");
        m_network.setProxy(QNetworkProxy::NoProxy);
    }

    // 3,000 order events flow relay -> RabbitMQ -> consumer; PostgreSQL crashes mid-way, then the broker stops.
    // Both processes ride it out and every event is counted exactly once (the inbox drops redeliveries).
    void consumerSurvivesTheDatabaseAndTheBroker()
    {
        constexpr int Events = 3'000;
        const QString suffix = QString::number(QCoreApplication::applicationPid());
        const QString exchange = QStringLiteral("chaos-events-") + suffix;
        const QString queue = QStringLiteral("chaos-orders-") + suffix;
        {
            AmqpEndpoint endpoint = AmqpEndpoint::parse(m_uri);
            endpoint.exchange = exchange;
            AmqpConnection connection(endpoint, 0, 10'000);
            connection.declareExchange();
            connection.declareQueue(queue);
            connection.bindQueue(queue, exchange, QStringLiteral("#"));
        }
        PrivateCluster cluster;
        cluster.start();
        {
            DbSession session(cluster.settings(), QStringLiteral("chaos-seed"));
            SchemaMigrator(session).migrate();
            session.execScript(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                              "dedupe_key) SELECT 'order', g::text, 'order.created', "
                                              "jsonb_build_object('id', g, 'customer', 'c-' || (g % 7)), 'ev-' || g "
                                              "FROM generate_series(1, %1) g")
                                   .arg(Events),
                QStringLiteral("seeding the outbox"));
        }
        const QString broker = QStringLiteral("%1?exchange=%2").arg(m_uri, exchange);
        // A slow sink, so that the faults land mid-stream.
        const auto relay = outboxctl(cluster,
            { QStringLiteral("relay"), QStringLiteral("--batch"), QStringLiteral("10"), QStringLiteral("--sink"),
                broker });
        const auto consumer = outboxctl(cluster,
            { QStringLiteral("consume"), QStringLiteral("--from"), broker, QStringLiteral("--queue"), queue,
                QStringLiteral("--consumer"), QStringLiteral("counts"), QStringLiteral("--prefetch"),
                QStringLiteral("10") });
        const QString counted = QStringLiteral("SELECT coalesce(sum(orders), 0) FROM customer_order_counts");
        QTRY_VERIFY2_WITH_TIMEOUT(scalar(cluster, counted) > 0, consumer->story().constData(), 30'000);

        cluster.crash();
        QVERIFY2(consumer->waitForLog("database unavailable: "), consumer->story().constData());
        QVERIFY2(relay->waitForLog("database unavailable: "), relay->story().constData());
        cluster.start();
        QVERIFY2(consumer->waitForLog("database available again after ", 60'000), consumer->story().constData());

        rabbitmqctl(QStringLiteral("stop_app"));
        auto restart = qScopeGuard([] { rabbitmqctl(QStringLiteral("start_app")); });
        QVERIFY2(consumer->waitForLog("broker unavailable: "), consumer->story().constData());
        QVERIFY2(relay->waitForLog("sink unavailable: "), relay->story().constData());
        restart.dismiss();
        rabbitmqctl(QStringLiteral("start_app"));

        QTRY_COMPARE_WITH_TIMEOUT(scalar(cluster, counted), qint64(Events), 120'000);
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT count(*) FROM inbox")), qint64(Events));
        QVERIFY2(consumer->waitForLog("broker available again after "), consumer->story().constData());
        for (RelayProcess* process : { relay.get(), consumer.get() }) {
            QVERIFY2(process->isRunning(), process->story().constData());
            QVERIFY2(process->count("database unavailable: ") == 1, process->story().constData());
        }
        QVERIFY2(consumer->count("broker unavailable: ") == 1, consumer->story().constData());
        QVERIFY2(consumer->terminate(), consumer->story().constData());
        QVERIFY2(relay->terminate(), relay->story().constData());
    }

    // orders-service answers 503 while its database is gone, says so once, and serves again when it is back.
    void ordersServiceSurvivesTheDatabase()
    {
        PrivateCluster cluster;
        cluster.start();
        {
            DbSession session(cluster.settings(), QStringLiteral("chaos-seed"));
            SchemaMigrator(session).migrate();
        }
        RelayProcess service(QStringLiteral(ORDERS_SERVICE_PATH),
            { QStringLiteral("--dsn"), cluster.dsn(), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0") });
        const QUrl base = service.announcedUrl("listening on");
        QVERIFY2(base.isValid(), service.story().constData());
        OrderPoster orders { m_network, base };
        const auto post = [&orders] { return orders.post(); };
        QCOMPARE(post(), 201);

        cluster.crash();
        for (int attempt = 0; attempt < 5; ++attempt)
            QCOMPARE(post(), 503);
        QVERIFY2(service.count("database unavailable: ") == 1, service.story().constData());
        cluster.start();
        QTRY_COMPARE_WITH_TIMEOUT(post(), 201, 30'000);
        QVERIFY2(service.waitForLog("database available again after "), service.story().constData());
        QVERIFY2(service.isRunning(), service.story().constData());
        QCOMPARE(scalar(cluster, QStringLiteral("SELECT count(*) FROM orders")), orders.created); // no 503 left a row
        QVERIFY2(service.terminate(), service.story().constData());
    }

    // The server orders-service writes to turns read-only under it (demoted in place: its sessions stay open and
    // each write fails with SQLSTATE 25006) while another, named next in a multi-host DSN with
    // target_session_attrs=read-write, takes writes. The service drops the connections that failed and opens new
    // ones, which reach the writable server: without a restart, and said once.
    void ordersServiceLeavesAServerThatTurnedReadOnly()
    {
        PrivateCluster first;
        PrivateCluster second;
        for (PrivateCluster* cluster : { &first, &second }) {
            cluster->start();
            DbSession session(cluster->settings(), QStringLiteral("chaos-seed"));
            SchemaMigrator(session).migrate();
        }
        // Both servers use the port number; their sockets live in their own directories.
        RelayProcess service(QStringLiteral(ORDERS_SERVICE_PATH),
            { QStringLiteral("--dsn"),
                QStringLiteral("host=%1,%2 port=5432 user=postgres dbname=postgres target_session_attrs=read-write")
                    .arg(first.directory(), second.directory()),
                QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--db-connections=2") });
        const QUrl base = service.announcedUrl("listening on");
        QVERIFY2(base.isValid(), service.story().constData());
        OrderPoster orders { m_network, base };
        const auto post = [&orders] { return orders.post(); };
        QCOMPARE(post(), 201);
        QCOMPARE(post(), 201);
        QCOMPARE(scalar(first, QStringLiteral("SELECT count(*) FROM orders")), 2LL);

        {
            DbSession admin(first.settings(), QStringLiteral("chaos-admin"));
            // Two statements: ALTER SYSTEM refuses to run in the implicit transaction of a multi-statement query.
            admin.execScript(QStringLiteral("ALTER SYSTEM SET default_transaction_read_only = on"),
                QStringLiteral("making the server read-only"));
            admin.execScript(QStringLiteral("SELECT pg_reload_conf()"), QStringLiteral("reloading"));
        }
        // A session takes the setting at its next command after the server's reload: the first orders may still
        // be written there. A connection moves when a request on it fails; requests go to whichever is free, so
        // orders go on until the service has no session left on the first server.
        const QString servicesSessions
            = QStringLiteral("SELECT count(*) FROM pg_stat_activity "
                             "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
        QTRY_VERIFY_WITH_TIMEOUT(post() != 0 && scalar(first, servicesSessions) == 0, 30'000);
        // Every connection on the second server: the next orders are all created, there.
        const qint64 onFirst = scalar(first, QStringLiteral("SELECT count(*) FROM orders"));
        for (int order = 0; order < 4; ++order)
            QCOMPARE(post(), 201);
        QCOMPARE(scalar(first, QStringLiteral("SELECT count(*) FROM orders")), onFirst);
        // Each order answered 201 is on one of them, and nothing else is.
        QCOMPARE(onFirst + scalar(second, QStringLiteral("SELECT count(*) FROM orders")), orders.created);
        // Said once each way: the requests that failed were an outage, however short.
        QVERIFY2(service.count("database unavailable: ") == 1, service.story().constData());
        QVERIFY2(service.count("database available again after ") == 1, service.story().constData());
        QVERIFY2(service.terminate(), service.story().constData());
    }
};

QTEST_GUILESS_MAIN(TestServiceChaos)
#include "tst_servicechaos.moc"
