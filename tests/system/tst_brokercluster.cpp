// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpconnection.h"
#include "broker/rabbitmqconsumer.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "support/namespacenetwork.h"
#include "support/rabbitmqcluster.h"
#include "support/relayprocess.h"
#include "support/rowwriter.h"

#include <QElapsedTimer>
#include <QHash>
#include <QScopeGuard>
#include <QSqlQuery>
#include <QTest>

// A relay publishing to a real three-node RabbitMQ cluster (support/rabbitmqcluster.h) into a quorum queue, given
// every node in its URI, while the node it publishes to is SIGKILLed, stopped cleanly, and cut off without a reset.
// Rows keep arriving throughout. Each time publishing resumes on another node within 10 s, the registry stops naming
// the lost node, the relay says so once, and in the end every row is in the queue: none lost, duplicates counted.
// Needs root, `ip netns` and rabbitmq-server: where the machine lacks them, the test fails saying so.
class TestBrokerCluster final : public QObject {
    Q_OBJECT

    static constexpr int Nodes = 3;
    static constexpr int Workers = 2;
    static constexpr int Batch = 50;
    static constexpr qint64 ResumeBoundMs = 10'000; // issue 51
    static constexpr int RowsPerTick = 5; // every 50 ms: 100 rows a second
    const QString Exchange = QStringLiteral("cluster-events");
    const QString Queue = QStringLiteral("cluster-orders");

    enum class Fault { Kill, Stop, Cut };

    qint64 scalar(const QString& sql, const QVariantList& binds = {})
    {
        QSqlQuery& q = m_session->exec(sql, binds, QStringLiteral("probing"));
        return q.next() ? q.value(0).toLongLong() : -1;
    }
    QString text(const QString& sql)
    {
        QSqlQuery& q = m_session->exec(sql, {}, QStringLiteral("probing"));
        return q.next() ? q.value(0).toString() : QString();
    }
    qint64 published()
    {
        return scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'"));
    }
    // Where the relay's heartbeat says it publishes: host:port of one node, or several, or nothing.
    QString publishingTo()
    {
        return text(QStringLiteral("SELECT publishing_to FROM relay_nodes WHERE stopped_at IS NULL"));
    }

    // Whether `holds`; if not, the relay's lines about its sink, one warning each (QTest cuts a long failure message
    // short), for the failure that follows.
    static bool holdsElseShowSinkLines(RelayProcess& relay, bool holds)
    {
        if (holds)
            return true;
        for (const QByteArray& line : relay.story().split('\n')) {
            if (line.contains("sink") || line.contains("failing") || line.contains("exited") || line.contains("killed"))
                qWarning("relay: %s", line.left(300).constData());
        }
        return false;
    }

    std::unique_ptr<NamespaceNetwork> m_network;
    std::unique_ptr<RabbitMqCluster> m_broker;
    std::unique_ptr<PrivateCluster> m_database;
    std::unique_ptr<DbSession> m_session;

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(QStringLiteral("/usr/lib/rabbitmq/bin/rabbitmq-server")),
            "rabbitmq-server is not installed: run the tests through .ci/test, which installs it");
        m_network = std::make_unique<NamespaceNetwork>(Nodes);
        QVERIFY2(m_network->problem().isEmpty(),
            qPrintable(QStringLiteral("network namespaces are not available here: %1").arg(m_network->problem())));
        m_broker = std::make_unique<RabbitMqCluster>(*m_network, Nodes);
        const QString problem = m_broker->start();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_database = std::make_unique<PrivateCluster>();
        m_database->start();
        m_session = std::make_unique<DbSession>(m_database->settings(), QStringLiteral("broker-cluster"));
        SchemaMigrator(*m_session).migrate();
        // What docs/relay.md tells consumers to bind: a quorum queue, replicated to every node.
        AmqpEndpoint endpoint = AmqpEndpoint::parse(m_broker->uri(QStringLiteral("?queue_type=quorum")));
        endpoint.exchange = Exchange;
        AmqpConnection connection(endpoint, 0, 10'000);
        connection.declareExchange();
        connection.declareQueue(Queue);
        connection.bindQueue(Queue, Exchange, QStringLiteral("#"));
    }

    void cleanupTestCase()
    {
        m_session.reset();
        m_database.reset();
        m_broker.reset();
        m_network.reset();
    }

    void aRelayMovesToAnotherNodeAndLosesNothing()
    {
        // Rows keep arriving, 100 a second, so that every fault lands mid-drain.
        RowWriter writer(
            m_database->settings(), QStringLiteral("cluster:"), RowsPerTick, std::chrono::milliseconds(50));

        RelayProcess relay(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("relay"), QStringLiteral("--dsn"), m_database->dsn(), QStringLiteral("--name"),
                QStringLiteral("clustered"), QStringLiteral("--workers"), QString::number(Workers),
                QStringLiteral("--batch"), QString::number(Batch), QStringLiteral("--heartbeat-seconds"),
                QStringLiteral("1"), QStringLiteral("--sink"),
                m_broker->uri(QStringLiteral("?exchange=%1").arg(Exchange)) });

        const QList<std::pair<Fault, const char*>> faults { { Fault::Kill, "SIGKILL" }, { Fault::Stop, "clean stop" },
            { Fault::Cut, "link cut" } };
        for (const auto& [fault, name] : faults) {
            // Mid-drain: the relay publishes to one node, and has published for a while.
            const qint64 before = published();
            QTRY_VERIFY2_WITH_TIMEOUT(published() > before + 200 && m_broker->nodeAt(publishingTo()) != 0,
                qPrintable(QStringLiteral("%1\n%2").arg(QString::fromUtf8(relay.story()), publishingTo())), 60'000);
            const int node = m_broker->nodeAt(publishingTo());
            const int outagesBefore = relay.count("sink unavailable: ");
            const int recoveriesBefore = relay.count("sink available again after ");
            const qint64 atFault = published();
            QElapsedTimer sinceFault;
            sinceFault.start();
            switch (fault) {
            case Fault::Kill:
                m_broker->kill(node);
                break;
            case Fault::Stop:
                QCOMPARE(m_broker->stop(node), QString());
                break;
            case Fault::Cut:
                QVERIFY2(m_network->cut(node), qPrintable(m_network->problem()));
                break;
            }
            auto restore = qScopeGuard([&] { m_network->restore(node); });
            // More than the batches that may have been confirmed as the fault struck: another node took publishes.
            QTRY_VERIFY2_WITH_TIMEOUT(published() > atFault + Workers * Batch, relay.story().constData(), 60'000);
            const qint64 resumedMs = sinceFault.elapsed();
            // The registry stops naming the lost node: the fleet view and `outboxctl relays` say where it went.
            QTRY_VERIFY2_WITH_TIMEOUT(m_broker->nodeAt(publishingTo()) != 0 && m_broker->nodeAt(publishingTo()) != node,
                qPrintable(publishingTo()), 10'000);
            qInfo("%s of the node the relay published to (%s): publishing resumed on %s after %.1f s", name,
                qPrintable(m_broker->address(node)), qPrintable(publishingTo()), resumedMs / 1000.0);
            QVERIFY2(
                holdsElseShowSinkLines(relay, resumedMs <= ResumeBoundMs), "publishing did not resume within 10 s");
            // Said once, naming the node, and its end said too.
            QVERIFY2(holdsElseShowSinkLines(relay,
                         QTest::qWaitFor(
                             [&] { return relay.count("sink available again after ") > recoveriesBefore; }, 20'000)),
                "the relay did not say that the sink is available again");
            QVERIFY2(holdsElseShowSinkLines(relay,
                         relay.count("sink unavailable: ") == outagesBefore + 1
                             && relay.count("sink available again after ") == recoveriesBefore + 1),
                "the relay did not say the outage once");
            // That one line names the lost node, and no other.
            const QByteArray log = relay.log();
            const qsizetype outage = log.lastIndexOf("sink unavailable: ");
            const QByteArray outageLine = log.mid(outage, log.indexOf('\n', outage) - outage);
            bool namesOnlyTheLostNode = true;
            for (int other = 1; other <= Nodes; ++other)
                namesOnlyTheLostNode
                    = namesOnlyTheLostNode && outageLine.contains(m_broker->address(other).toUtf8()) == (other == node);
            QVERIFY2(holdsElseShowSinkLines(relay, namesOnlyTheLostNode), "the relay did not name the node it lost");

            // The node comes back and rejoins, for the next fault.
            if (fault == Fault::Cut) {
                restore.dismiss();
                QVERIFY2(m_network->restore(node), qPrintable(m_network->problem()));
            } else {
                QCOMPARE(m_broker->startNode(node), QString());
            }
            // Asked of another node: a node cut off pauses itself (pause_minority) and takes a while to rejoin.
            QCOMPARE(m_broker->waitUntilClustered(node % Nodes + 1), QString());
        }

        const qint64 rows = writer.stop();
        QVERIFY2(writer.problem().isEmpty(), qPrintable(writer.problem()));
        QTRY_VERIFY2_WITH_TIMEOUT(published() == rows, relay.story().constData(), 120'000);
        // Nothing more said of the sink while the nodes rejoined and the rest drained: one outage per fault.
        QVERIFY2(holdsElseShowSinkLines(relay,
                     relay.count("sink unavailable: ") == faults.size()
                         && relay.count("sink available again after ") == faults.size()),
            "the relay said more than one outage per fault");
        QVERIFY2(relay.terminate(), relay.story().constData());

        // Every row is in the quorum queue; a row published but not confirmed before its node failed is there twice.
        RabbitMqConsumer::Options options;
        options.queue = Queue;
        options.prefetch = 1'000;
        AmqpEndpoint endpoint = AmqpEndpoint::parse(m_broker->uri(QStringLiteral("?queue_type=quorum")));
        endpoint.exchange = Exchange;
        RabbitMqConsumer consumer(endpoint, options);
        QHash<QString, int> copies;
        qint64 messages = 0;
        while (const std::optional<AmqpDelivery> delivery = consumer.next(5'000)) {
            ++copies[delivery->messageId];
            ++messages;
            consumer.ack(delivery->deliveryTag);
        }
        qInfo("%lld rows through three node failures: %lld messages in the quorum queue, %lld distinct, %lld "
              "duplicates",
            rows, messages, qint64(copies.size()), messages - qint64(copies.size()));
        QCOMPARE(qint64(copies.size()), rows);
        for (qint64 id = 1; id <= rows; ++id)
            QVERIFY2(copies.contains(QStringLiteral("cluster:%1").arg(id)), qPrintable(QString::number(id)));
        // At most the batches unconfirmed at each fault come again.
        QVERIFY2(messages - rows <= qint64(faults.size()) * Workers * Batch, qPrintable(QString::number(messages)));
    }
};

QTEST_GUILESS_MAIN(TestBrokerCluster)
#include "tst_brokercluster.moc"
