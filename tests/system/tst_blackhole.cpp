// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpconnection.h"
#include "broker/amqpendpoint.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "db/sqlvalues.h"
#include "db/unitofwork.h"
#include "demo/privatebroker.h"
#include "demo/privatecluster.h"
#include "support/httptesting.h"
#include "support/namespacenetwork.h"
#include "support/relayprocess.h"

#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

// Links that drop every packet without a reset, for a minute, between programs on hosts of their own (network
// namespaces, see NamespaceNetwork) and PostgreSQL. A reset, as after SIGKILL or an immediate shutdown, tells both
// ends at once; a blackhole tells neither, and only timeouts can: without them a relay hangs in a read for two
// hours while the server keeps its session, idle in a transaction, holding the locks of rows another relay would
// rescue. Needs root and `ip netns`: where the machine has neither, the test fails saying so rather than skipping.
class TestBlackhole final : public QObject {
    Q_OBJECT

    static constexpr int CutRelayHost = 1;
    static constexpr int RescuerHost = 2;
    static constexpr int ServiceHost = 3;
    static constexpr int BrokerRelayHost = 4; // reaches RabbitMQ over its access link, PostgreSQL over the bridge
    static constexpr qint64 CutMs = 60'000;
    static constexpr qint64 NoticeBoundMs = 15'000; // issue 24: a cut peer is noticed within 15 s
    static constexpr int Rows = 2'000;
    static constexpr int Workers = 2;
    static constexpr int Batch = 50;
    static constexpr qint64 LeaseMs = 5'000;
    static constexpr qint64 RescueIntervalMs = 5'000; // RelayOptions' default

    qint64 scalar(const QString& sql, const QVariantList& binds = {})
    {
        QSqlQuery& q = m_session->exec(sql, binds, QStringLiteral("probing"));
        return q.next() ? q.value(0).toLongLong() : -1;
    }

    // The server's sessions of the clients on `host`.
    qint64 sessionsFrom(int host)
    {
        return scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE client_addr = ?::inet"),
            { m_network->hostAddress(host) });
    }

    QStringList relayArguments(const QString& name, const QString& sink) const
    {
        return { QStringLiteral("relay"), QStringLiteral("--dsn"), m_cluster->tcpDsn(), QStringLiteral("--name"), name,
            QStringLiteral("--workers"), QString::number(Workers), QStringLiteral("--batch"), QString::number(Batch),
            QStringLiteral("--lease-seconds"), QString::number(LeaseMs / 1000), QStringLiteral("--heartbeat-seconds"),
            QStringLiteral("1"), QStringLiteral("--sink"), sink };
    }

    void seed(int rows)
    {
        m_session->execScript(QStringLiteral("TRUNCATE outbox, outbox_attempts, relay_nodes, inbox RESTART IDENTITY; "
                                             "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                             "dedupe_key) SELECT 'order', g::text, 'order.created', "
                                             "jsonb_build_object('id', g, 'customer', 'c-' || (g % 7)), "
                                             "'blackhole:' || g FROM generate_series(1, %1) g")
                                  .arg(rows),
            QStringLiteral("seeding the outbox"));
    }

    // Every line of the JSON-lines files, by outbox id: how often each row was published.
    static QHash<qint64, int> publications(const QStringList& files)
    {
        QHash<qint64, int> times;
        for (const QString& path : files) {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                continue;
            while (!file.atEnd()) {
                const QByteArray line = file.readLine().trimmed();
                if (!line.isEmpty())
                    ++times[QJsonDocument::fromJson(line).object().value(QStringLiteral("id")).toInteger()];
            }
        }
        return times;
    }

    std::unique_ptr<NamespaceNetwork> m_network;
    std::unique_ptr<PrivateCluster> m_cluster;
    std::unique_ptr<DbSession> m_session;
    QNetworkAccessManager m_http;

private slots:
    void initTestCase()
    {
        m_network = std::make_unique<NamespaceNetwork>(4);
        QVERIFY2(m_network->problem().isEmpty(),
            qPrintable(QStringLiteral("network namespaces are not available here: %1").arg(m_network->problem())));
        m_cluster = std::make_unique<PrivateCluster>();
        m_cluster->listenOnTcp(m_network->serverAddress(), 5432, m_network->clients());
        m_cluster->start();
        m_session = std::make_unique<DbSession>(m_cluster->settings(), QStringLiteral("blackhole"));
        SchemaMigrator(*m_session).migrate();
    }

    void cleanupTestCase()
    {
        m_session.reset();
        m_cluster.reset();
        m_network.reset();
    }

    // The worst moment for a cut: the relay's completion is inside its transaction. The test holds the locks of
    // the rows the relay has in flight, so its completion waits for them; the link is cut; the test lets go, the
    // server runs the completion and sends its answer into the void, and its session is left idle in a
    // transaction, holding those rows. The server must end it (idle_in_transaction_session_timeout, keepalives)
    // before the rows' lease runs out, so that another relay rescues them; the cut relay must notice on its own.
    // The seeded rows are in the log (migration 0028): a batch of them is leased, and settled, by its lane's row of
    // outbox_lanes, not by the rows, so the locks held (by the test, then by the cut relay's session) are those of
    // the lanes of the batches in flight, and the rows' state is read from outbox_messages.
    void aRelayCutOffFromPostgresLetsGoOfItsRowsAndRecovers()
    {
        seed(Rows);
        QTemporaryDir sinks;
        const QString cutSink = sinks.filePath(QStringLiteral("cut.jsonl"));
        const QString rescuerSink = sinks.filePath(QStringLiteral("rescuer.jsonl"));
        // A second per batch in the sink: the test has time to lock the rows between the claim and the completion.
        RelayProcess cut(QStringLiteral(OUTBOXCTL_PATH),
            relayArguments(QStringLiteral("cut"), QStringLiteral("fault:0,1000>file:") + cutSink),
            m_network->launcher(CutRelayHost));
        QTRY_VERIFY2_WITH_TIMEOUT(scalar(QStringLiteral("SELECT count(*) FROM outbox_messages "
                                                        "WHERE status = 'in_flight' AND lease_owner LIKE 'cut/%'"))
                > 0,
            cut.story().constData(), 20'000);

        auto locker = std::make_unique<DbSession>(m_cluster->settings(), QStringLiteral("locker"));
        auto lock = std::make_unique<UnitOfWork>(*locker);
        QList<qint64> lanes;
        QSqlQuery& lockedLanes = locker->exec(QStringLiteral("SELECT lane FROM outbox_lanes "
                                                             "WHERE lease_owner LIKE 'cut/%' FOR UPDATE"),
            {}, QStringLiteral("locking the relay's lanes"));
        while (lockedLanes.next())
            lanes.append(lockedLanes.value(0).toLongLong());
        QVERIFY(!lanes.isEmpty());
        const QString laneList = SqlValues::bigintArray(lanes);
        // The rows of the locked lanes' batches: the relay can neither settle nor extend them while the test holds
        // the lanes.
        QSet<qint64> held;
        QSqlQuery& locked = locker->exec(QStringLiteral("SELECT id FROM outbox_messages WHERE status = 'in_flight' "
                                                        "AND lease_owner LIKE 'cut/%' "
                                                        "AND outbox_lane(ordering_key, id) = ANY (?::bigint[])"),
            { laneList }, QStringLiteral("reading the relay's rows"));
        while (locked.next())
            held.insert(locked.value(0).toLongLong());
        QVERIFY(!held.isEmpty());
        const QString heldList = SqlValues::bigintArray(held.values());
        // The worker's completion is waiting, not only the lease keeper's extension (which waits for the same rows):
        // the completion's statement is not the first of its transaction. (The statements show as EXECUTE.)
        QTRY_VERIFY2_WITH_TIMEOUT(scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE client_addr = "
                                                        "?::inet AND wait_event_type = 'Lock' "
                                                        "AND xact_start < query_start"),
                                      { m_network->hostAddress(CutRelayHost) })
                > 0,
            cut.story().constData(), 20'000);

        QVERIFY2(m_network->cut(CutRelayHost), qPrintable(m_network->problem()));
        QElapsedTimer sinceCut;
        sinceCut.start();
        auto restore = qScopeGuard([this] { m_network->restore(CutRelayHost); });
        // When the rows' lease runs out, by the server's clock: the relay cannot extend it any more.
        const qint64 leaseEndMs = scalar(
            QStringLiteral("SELECT max(epoch_ms(lease_expires_at)) FROM outbox_messages WHERE id = ANY (?::bigint[])"),
            { heldList });
        lock->commit();
        lock.reset();
        // The lanes another session holds: a probe that locks what it can (for the length of its statement) skips
        // them.
        const auto lockedByOthers = [&] {
            return qint64(lanes.size())
                - scalar(QStringLiteral("SELECT count(*) FROM (SELECT lane FROM outbox_lanes "
                                        "WHERE lane = ANY (?::bigint[]) FOR UPDATE SKIP LOCKED) free"),
                    { laneList });
        };
        // The server ran the completion: the cut relay's session holds the lanes, waiting for a COMMIT that cannot
        // come (the idle timeout gives it half the lease, 2.5 s).
        qint64 heldByTheCutRelay = 0;
        QTRY_VERIFY_WITH_TIMEOUT((heldByTheCutRelay = lockedByOthers()) > 0, 2'000);
        RelayProcess rescuer(QStringLiteral(OUTBOXCTL_PATH),
            relayArguments(QStringLiteral("rescuer"), QStringLiteral("file:") + rescuerSink),
            m_network->launcher(RescuerHost));

        qint64 locksGoneMs = -1;
        qint64 locksGoneAtMs = -1; // by the server's clock
        qint64 sessionsGoneMs = -1;
        qint64 rescuedMs = -1;
        qint64 noticedMs = -1;
        qint64 staleMs = -1;
        QTRY_VERIFY2_WITH_TIMEOUT(
            [&] {
                const qint64 now = sinceCut.elapsed();
                if (locksGoneMs < 0 && lockedByOthers() == 0) {
                    locksGoneMs = now;
                    locksGoneAtMs = scalar(QStringLiteral("SELECT epoch_ms(clock_timestamp())"));
                }
                if (sessionsGoneMs < 0 && sessionsFrom(CutRelayHost) == 0)
                    sessionsGoneMs = now;
                if (rescuedMs < 0
                    && scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE id = ANY (?::bigint[]) "
                                             "AND status = 'in_flight' AND lease_owner LIKE 'cut/%'"),
                           { heldList })
                        == 0)
                    rescuedMs = now;
                if (noticedMs < 0 && cut.log().contains("database unavailable: "))
                    noticedMs = now;
                if (staleMs < 0
                    && scalar(QStringLiteral("SELECT count(*) FROM relay_nodes n WHERE name = 'cut' "
                                             "AND relay_node_state(n) = 'stale'"))
                        == 1)
                    staleMs = now;
                return locksGoneMs >= 0 && sessionsGoneMs >= 0 && rescuedMs >= 0 && noticedMs >= 0 && staleMs >= 0;
            }(),
            qPrintable(QStringLiteral("%1 s after the cut: locks gone %2, sessions gone %3, rescued %4, noticed %5, "
                                      "stale %6\n%7")
                           .arg(sinceCut.elapsed() / 1000)
                           .arg(locksGoneMs)
                           .arg(sessionsGoneMs)
                           .arg(rescuedMs)
                           .arg(noticedMs)
                           .arg(staleMs)
                           .arg(QString::fromUtf8(cut.story()))),
            int(CutMs - 5'000));
        qInfo("a blackhole between a relay and PostgreSQL, %lld rows locked by the cut relay's session idle in a "
              "transaction: the server let go of them after %.1f s (%.1f s before their lease ran out) and of every "
              "session after %.1f s; the rescuer had them after %.1f s (lease %lld s); the cut relay noticed after "
              "%.1f s; the registry called it stale after %.1f s",
            heldByTheCutRelay, locksGoneMs / 1000.0, (leaseEndMs - locksGoneAtMs) / 1000.0, sessionsGoneMs / 1000.0,
            rescuedMs / 1000.0, LeaseMs / 1000, noticedMs / 1000.0, staleMs / 1000.0);
        QVERIFY2(locksGoneAtMs < leaseEndMs, "the server kept the vanished relay's rows locked past their lease");
        QVERIFY2(noticedMs <= NoticeBoundMs, "the cut relay did not notice the blackhole within 15 s");
        QVERIFY2(rescuedMs <= LeaseMs + RescueIntervalMs + 5'000, "the rows were not rescued soon after their lease");

        // The rescuer drains the rest while the link is still down.
        QTRY_COMPARE_WITH_TIMEOUT(
            scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")), qint64(Rows),
            int(CutMs));
        QTRY_VERIFY_WITH_TIMEOUT(sinceCut.elapsed() >= CutMs, int(CutMs));
        restore.dismiss();
        QVERIFY2(m_network->restore(CutRelayHost), qPrintable(m_network->problem()));
        QVERIFY2(cut.waitForLog("database available again after ", 60'000), cut.story().constData());
        QTRY_COMPARE_WITH_TIMEOUT(scalar(QStringLiteral("SELECT count(*) FROM relay_nodes n WHERE name = 'cut' "
                                                        "AND relay_node_state(n) = 'alive'")),
            1LL, 10'000);
        QVERIFY2(cut.count("database unavailable: ") == 1, cut.story().constData());
        QVERIFY2(cut.terminate(), cut.story().constData()); // its sign-off needs the database
        QVERIFY2(rescuer.terminate(), rescuer.story().constData());

        const QHash<qint64, int> published = publications({ cutSink, rescuerSink });
        QCOMPARE(published.size(), Rows); // nothing lost
        int duplicates = 0;
        for (const int times : published)
            duplicates += times - 1;
        qInfo("%d duplicates (the batches the cut relay had published but could not mark)", duplicates);
        QVERIFY2(duplicates <= Workers * Batch, "more duplicates than one batch per worker of the cut relay");
    }

    // orders-service on a host whose link to PostgreSQL is cut (the test reaches it over a second link): every
    // request is answered, 503 within the bound instead of hanging, /healthz says the database is the problem,
    // the server drops the service's sessions, and the service serves again once the link is back.
    void ordersServiceCutOffFromPostgresAnswers503AndRecovers()
    {
        const QString access = m_network->addAccessLink(ServiceHost);
        QVERIFY2(!access.isEmpty(), qPrintable(m_network->problem()));
        RelayProcess service(QStringLiteral(ORDERS_SERVICE_PATH),
            { QStringLiteral("--dsn"), m_cluster->tcpDsn(), QStringLiteral("--listen"), access + QStringLiteral(":0"),
                QStringLiteral("--db-connections"), QStringLiteral("2") },
            m_network->launcher(ServiceHost));
        const QUrl base = service.announcedUrl("listening on");
        QVERIFY2(base.isValid(), service.story().constData());
        int key = 0;
        qint64 created = 0;
        const auto post = [&] {
            const HttpTesting::HttpReply reply
                = HttpTesting::postOrder(m_http, base, "blackhole-" + QByteArray::number(++key));
            created += reply.status == 201 ? 1 : 0;
            return reply;
        };
        QCOMPARE(post().status, 201);
        QTRY_VERIFY(sessionsFrom(ServiceHost) > 0);

        QVERIFY2(m_network->cut(ServiceHost), qPrintable(m_network->problem()));
        QElapsedTimer sinceCut;
        sinceCut.start();
        auto restore = qScopeGuard([this] { m_network->restore(ServiceHost); });
        qint64 slowestMs = 0;
        for (int request = 0; request < 3; ++request) {
            QElapsedTimer took;
            took.start();
            const HttpTesting::HttpReply reply = post();
            slowestMs = qMax(slowestMs, took.elapsed());
            QVERIFY2(reply.status == 503, reply.body.constData());
        }
        QElapsedTimer took;
        took.start();
        const HttpTesting::HttpReply health = HttpTesting::get(m_http, base.resolved(QUrl(QStringLiteral("/healthz"))));
        const qint64 healthMs = took.elapsed();
        QCOMPARE(health.status, 503);
        QVERIFY2(health.body.contains("database") || health.body.contains("PostgreSQL"), health.body.constData());
        qint64 sessionsGoneMs = -1;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                if (sessionsFrom(ServiceHost) == 0)
                    sessionsGoneMs = sinceCut.elapsed();
                return sessionsGoneMs >= 0;
            }(),
            30'000);
        qInfo("orders-service cut off from PostgreSQL: requests answered 503 after %.1f s at most, /healthz after "
              "%.1f s; the server dropped the service's sessions %.1f s after the cut",
            slowestMs / 1000.0, healthMs / 1000.0, sessionsGoneMs / 1000.0);
        QVERIFY2(slowestMs <= NoticeBoundMs, "a request waited longer than 15 s for a blackholed database");
        QVERIFY2(healthMs <= NoticeBoundMs, "/healthz waited longer than 15 s for a blackholed database");
        QVERIFY2(service.count("database unavailable: ") == 1, service.story().constData());

        QTRY_VERIFY_WITH_TIMEOUT(sinceCut.elapsed() >= CutMs, int(CutMs));
        restore.dismiss();
        QVERIFY2(m_network->restore(ServiceHost), qPrintable(m_network->problem()));
        QTRY_COMPARE_WITH_TIMEOUT(post().status, 201, 60'000);
        QVERIFY2(service.waitForLog("database available again after "), service.story().constData());
        QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM orders")), created); // no 503 left a row
        QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM idempotency_keys WHERE status = 'in_progress'")), 0LL);
        QVERIFY2(service.terminate(), service.story().constData());
    }

    // A relay whose link to RabbitMQ is cut mid-drain (its link to PostgreSQL stays up): the publish waiting for
    // confirms fails within the bound, the unconfirmed rows are handed back rather than marked published, nothing
    // is marked published while the broker is unreachable, and once the link is back every row reaches the queue.
    void aRelayCutOffFromRabbitMqHandsBackAndRecovers()
    {
        QVERIFY2(PrivateBroker::isInstalled(), "rabbitmq-server is not installed");
        const QString access = m_network->addAccessLink(BrokerRelayHost);
        QVERIFY2(!access.isEmpty(), qPrintable(m_network->problem()));
        PrivateBroker broker;
        broker.listenOnTcp(m_network->accessGateway(BrokerRelayHost));
        broker.start();
        const QString exchange = QStringLiteral("blackhole-events");
        const QString queue = QStringLiteral("blackhole-orders");
        {
            AmqpEndpoint endpoint = AmqpEndpoint::parse(broker.uri());
            endpoint.exchange = exchange;
            AmqpConnection connection(endpoint, 0, 10'000);
            connection.declareExchange();
            connection.declareQueue(queue);
            connection.bindQueue(queue, exchange, QStringLiteral("#"));
        }
        constexpr int Events = 600;
        seed(Events);
        const QString published = QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'");
        // A fifth of a second per batch in front of the broker, so that the cut lands mid-drain.
        RelayProcess relay(QStringLiteral(OUTBOXCTL_PATH),
            relayArguments(QStringLiteral("broker-cut"),
                QStringLiteral("fault:0,200>%1?exchange=%2")
                    .arg(broker.uri(m_network->accessGateway(BrokerRelayHost)), exchange)),
            m_network->launcher(BrokerRelayHost));
        QTRY_VERIFY2_WITH_TIMEOUT(scalar(published) > 0, relay.story().constData(), 30'000);

        QVERIFY2(m_network->cutAccessLink(BrokerRelayHost), qPrintable(m_network->problem()));
        QElapsedTimer sinceCut;
        sinceCut.start();
        auto restore = qScopeGuard([this] { m_network->restoreAccessLink(BrokerRelayHost); });
        QVERIFY2(relay.waitForLog("sink unavailable: ", int(CutMs)), relay.story().constData());
        const qint64 noticedMs = sinceCut.elapsed();
        const qint64 publishedWhenNoticed = scalar(published);
        QTRY_VERIFY_WITH_TIMEOUT(sinceCut.elapsed() >= CutMs, int(CutMs));
        const qint64 publishedDuringTheCut = scalar(published) - publishedWhenNoticed;
        const qint64 inFlight
            = scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'in_flight'"));
        restore.dismiss();
        QVERIFY2(m_network->restoreAccessLink(BrokerRelayHost), qPrintable(m_network->problem()));
        qInfo("a blackhole between a relay and RabbitMQ: noticed after %.1f s; %lld rows marked published from then "
              "to the end of the cut, %lld in flight at its end",
            noticedMs / 1000.0, publishedDuringTheCut, inFlight);
        QVERIFY2(noticedMs <= NoticeBoundMs, "the relay did not notice the blackholed broker within 15 s");
        QCOMPARE(publishedDuringTheCut, 0LL);

        QTRY_COMPARE_WITH_TIMEOUT(scalar(published), qint64(Events), 120'000);
        QVERIFY2(relay.waitForLog("sink available again after "), relay.story().constData());
        QVERIFY2(relay.count("sink unavailable: ") == 1, relay.story().constData());
        QVERIFY2(relay.terminate(), relay.story().constData());
        // Every row reached the queue: the reference consumer records each message id once.
        RelayProcess consumer(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("consume"), QStringLiteral("--dsn"), m_cluster->dsn(), QStringLiteral("--from"),
                QStringLiteral("%1?exchange=%2").arg(broker.uri(), exchange), QStringLiteral("--queue"), queue,
                QStringLiteral("--consumer"), QStringLiteral("counts") });
        QTRY_COMPARE_WITH_TIMEOUT(scalar(QStringLiteral("SELECT count(*) FROM inbox")), qint64(Events), 60'000);
        QVERIFY2(consumer.terminate(), consumer.story().constData());
    }
};

QTEST_GUILESS_MAIN(TestBlackhole)
#include "tst_blackhole.moc"
