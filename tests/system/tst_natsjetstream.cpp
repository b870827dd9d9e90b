// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/natsconnection.h"
#include "broker/natsjetstreamsink.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "support/natscluster.h"
#include "support/processtesting.h"
#include "support/relayprocess.h"
#include "support/rowwriter.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QScopeGuard>
#include <QSet>
#include <QSqlQuery>
#include <QTest>
#include <algorithm>
#include <array>
#include <mutex>

// Every message published on a subject, as a plain NATS subscriber sees it (before JetStream drops a duplicate): how
// often each message id was sent. At most once each, so a server's loss may hide some, never add any.
struct PublishTap {
    std::mutex mutex;
    QHash<QString, int> copies;

    static void onMessage(natsConnection*, natsSubscription*, natsMsg* message, void* closure)
    {
        auto* tap = static_cast<PublishTap*>(closure);
        const char* id = nullptr;
        if (natsMsgHeader_Get(message, "Nats-Msg-Id", &id) == NATS_OK && id) {
            const std::lock_guard lock(tap->mutex);
            ++tap->copies[QString::fromUtf8(id)];
        }
        natsMsg_Destroy(message);
    }
    qint64 sentTwice()
    {
        const std::lock_guard lock(mutex);
        return std::count_if(copies.cbegin(), copies.cend(), [](int n) { return n > 1; });
    }
};

// Relays publishing into a real three-server NATS JetStream cluster (support/natscluster.h), into a stream of three
// replicas with a two-minute duplicate window: exactly once into the stream, through 20 SIGKILLs of two relays and a
// server killed and restarted mid-drain, and through the loss of the stream's leader. Also what a relay says when no
// stream takes its subjects, messages JetStream refuses or no stream takes, and outboxctl consume from a durable
// consumer. Needs Debian's nats-server: where the machine lacks it, the test fails saying so.
class TestNatsJetStream final : public QObject {
    Q_OBJECT

    static constexpr int Servers = 3;
    const QString Stream = QStringLiteral("OUTBOX");

    qint64 scalar(const QString& sql, const QVariantList& binds = {})
    {
        QSqlQuery& q = m_session->exec(sql, binds, QStringLiteral("probing"));
        return q.next() ? q.value(0).toLongLong() : -1;
    }
    qint64 published(const QString& keyPrefix)
    {
        return scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published' AND "
                                     "dedupe_key LIKE ? || '%'"),
            { keyPrefix });
    }
    void insertRows(const QString& keyPrefix, int rows, const QString& eventType = QStringLiteral("order.created"))
    {
        m_session->exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                       "dedupe_key) SELECT 'order', g::text, ?, jsonb_build_object('id', g), ? || g "
                                       "FROM generate_series(1, ?) g"),
            { eventType, keyPrefix, rows }, QStringLiteral("writing rows"));
    }

    QJsonObject jetStream(const QString& api, const QJsonObject& body = {})
    {
        NatsConnection connection(m_cluster->endpoint(), QStringLiteral("test"));
        return connection.jetStreamRequest(api, body, 5'000);
    }
    // Creates a stream, again until the cluster has the servers its replicas need (a server restarted by an earlier
    // test may not have rejoined yet). Empty on success, else JetStream's last answer.
    QString createStream(const QJsonObject& config)
    {
        QString last;
        const bool created = QTest::qWaitFor(
            [&] {
                try {
                    jetStream(
                        QStringLiteral("STREAM.CREATE.%1").arg(config.value(QLatin1String("name")).toString()), config);
                    return true;
                } catch (const OutboxError& error) {
                    last = error.message();
                    return false;
                }
            },
            30'000);
        return created ? QString() : last;
    }
    QJsonObject streamInfo() { return jetStream(QStringLiteral("STREAM.INFO.%1").arg(Stream)); }
    QString streamLeader()
    {
        return streamInfo().value(QLatin1String("cluster")).toObject().value(QLatin1String("leader")).toString();
    }

    // The message id (Nats-Msg-Id) of every message in the stream, in order, read one by one.
    QStringList messageIds()
    {
        NatsConnection connection(m_cluster->endpoint(), QStringLiteral("test reader"));
        const QJsonObject state = connection.jetStreamRequest(QStringLiteral("STREAM.INFO.%1").arg(Stream), {}, 5'000)
                                      .value(QLatin1String("state"))
                                      .toObject();
        QStringList ids;
        const qint64 first = state.value(QLatin1String("first_seq")).toInteger();
        const qint64 last = state.value(QLatin1String("last_seq")).toInteger();
        for (qint64 sequence = first; sequence <= last && first > 0; ++sequence) {
            const QJsonObject message = connection
                                            .jetStreamRequest(QStringLiteral("STREAM.MSG.GET.%1").arg(Stream),
                                                { { QStringLiteral("seq"), sequence } }, 5'000)
                                            .value(QLatin1String("message"))
                                            .toObject();
            const QByteArray headers
                = QByteArray::fromBase64(message.value(QLatin1String("hdrs")).toString().toLatin1());
            QString id;
            for (const QByteArray& line : headers.split('\n')) {
                if (line.startsWith("Nats-Msg-Id:"))
                    id = QString::fromUtf8(line.mid(12).trimmed());
            }
            ids.append(id);
        }
        return ids;
    }

    RelayProcess* startRelay(std::unique_ptr<RelayProcess>& slot, const QString& name, const QString& sink)
    {
        slot = std::make_unique<RelayProcess>(QStringLiteral(OUTBOXCTL_PATH),
            QStringList { QStringLiteral("relay"), QStringLiteral("--dsn"), m_database->dsn(), QStringLiteral("--name"),
                name, QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--batch"), QStringLiteral("50"),
                QStringLiteral("--lease-seconds"), QStringLiteral("3"), QStringLiteral("--backoff-max-ms"),
                QStringLiteral("2000"), QStringLiteral("--heartbeat-seconds"), QStringLiteral("1"),
                QStringLiteral("--sink"), sink });
        return slot.get();
    }

    std::unique_ptr<NatsCluster> m_cluster;
    std::unique_ptr<PrivateCluster> m_database;
    std::unique_ptr<DbSession> m_session;

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(QString::fromLatin1(NatsCluster::Program)),
            "nats-server is not installed: run the tests through .ci/test, which installs it");
        m_cluster = std::make_unique<NatsCluster>(Servers);
        const QString problem = m_cluster->start();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_database = std::make_unique<PrivateCluster>();
        m_database->start();
        m_session = std::make_unique<DbSession>(m_database->settings(), QStringLiteral("nats-jetstream"));
        SchemaMigrator(*m_session).migrate();
        // The operator's stream, as docs/relay.md describes it: every relay subject, three replicas, and a duplicate
        // window far longer than a lease and its rescue.
        QCOMPARE(createStream({ { QStringLiteral("name"), Stream },
                     { QStringLiteral("subjects"), QJsonArray { QStringLiteral("outbox.>") } },
                     { QStringLiteral("num_replicas"), Servers }, { QStringLiteral("storage"), QStringLiteral("file") },
                     { QStringLiteral("duplicate_window"), qint64(120) * 1'000'000'000 } }),
            QString());
        QTRY_VERIFY_WITH_TIMEOUT(!streamLeader().isEmpty(), 30'000);
    }

    void cleanupTestCase()
    {
        m_session.reset();
        m_database.reset();
        m_cluster.reset();
    }

    // A relay started before anyone created a stream for its subjects says so, and publishes nothing.
    void aRelayWithoutAStreamSaysSo()
    {
        insertRows(QStringLiteral("nostream:"), 3);
        std::unique_ptr<RelayProcess> relay;
        startRelay(relay, QStringLiteral("js-nostream"), m_cluster->uri(QStringLiteral("?subject_prefix=nostream")));
        QVERIFY2(relay->waitForLog("no JetStream stream takes the subjects nostream.>"), relay->story().constData());
        QCOMPARE(published(QStringLiteral("nostream:")), 0);
        QVERIFY2(relay->terminate(), relay->story().constData());
        m_session->exec(
            QStringLiteral("DELETE FROM outbox WHERE dedupe_key LIKE 'nostream:%'"), {}, QStringLiteral("cleaning up"));
    }

    // JetStream's refusal of one message (larger than the stream takes) is that row's failed attempt, in the
    // server's words, and so is a row of an event type no stream takes (the stream takes small.order.*); their
    // neighbours are published.
    void aMessageTheStreamRefusesFailsAlone()
    {
        QCOMPARE(
            createStream({ { QStringLiteral("name"), QStringLiteral("SMALL") },
                { QStringLiteral("subjects"), QJsonArray { QStringLiteral("small.order.*") } },
                { QStringLiteral("max_msg_size"), 200 }, { QStringLiteral("storage"), QStringLiteral("memory") } }),
            QString());
        m_session->exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                       "dedupe_key) VALUES ('order', '1', 'order.created', '{}', 'small:1'), "
                                       "('order', '2', 'order.created', jsonb_build_object('pad', repeat('x', 400)), "
                                       "'small:2'), ('order', '3', 'order.created', '{}', 'small:3'), "
                                       "('invoice', '4', 'invoice.sent', '{}', 'small:4')"),
            {}, QStringLiteral("writing rows"));
        std::unique_ptr<RelayProcess> relay;
        startRelay(relay, QStringLiteral("js-small"), m_cluster->uri(QStringLiteral("?subject_prefix=small")));
        QTRY_VERIFY2_WITH_TIMEOUT(published(QStringLiteral("small:")) == 2
                && scalar(QStringLiteral(
                       "SELECT count(*) FROM outbox_messages WHERE dedupe_key = 'small:2' AND attempts > 0 "
                       "AND last_error LIKE 'JetStream refused the message on small.order.created: "
                       "error 10054:%'"))
                    == 1
                && scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE dedupe_key = 'small:4' AND "
                                         "attempts > 0 AND last_error = 'no JetStream stream takes the subject "
                                         "small.invoice.sent'"))
                    == 1,
            relay->story().constData(), 30'000);
        QVERIFY2(relay->terminate(), relay->story().constData());
        m_session->exec(
            QStringLiteral("DELETE FROM outbox WHERE dedupe_key LIKE 'small:%'"), {}, QStringLiteral("cleaning up"));
    }

    // What a relay that died between a publish and its completion does: publish the rows again. The stream takes them
    // as duplicates, the sink reports them published, and each is in the stream once.
    void aRowPublishedAgainIsOneMessage()
    {
        NatsJetStreamSink sink(m_cluster->endpoint(QStringLiteral("?subject_prefix=outbox")));
        QList<OutboxMessage> batch;
        for (qint64 id = 1; id <= 3; ++id) {
            OutboxMessage row;
            row.id = id;
            row.eventType = QStringLiteral("order.created");
            row.dedupeKey = QStringLiteral("again:%1").arg(id);
            row.payload = QByteArrayLiteral("{}");
            row.headers = QByteArrayLiteral("{\"trace\": \"t1\"}");
            batch.append(row);
        }
        const auto messages = [this] {
            return streamInfo().value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger();
        };
        const qint64 before = messages();
        for (int round = 1; round <= 2; ++round) {
            const QList<PublishResult> results = sink.publish(batch);
            QCOMPARE(results.size(), batch.size());
            for (const PublishResult& result : results)
                QVERIFY2(result.ok, qPrintable(result.error));
            QCOMPARE(messages(), before + batch.size());
        }
        QVERIFY(m_cluster->nodeAt(sink.destination()) != 0);
    }

    // 20,000 rows arriving at 800 a second, two relays, each SIGKILLed ten times while it publishes (its rows taken
    // over by the other after the lease, some published already), and one server killed and restarted: every row in
    // the stream exactly once.
    void exactlyOnceThroughKilledRelaysAndAKilledServer()
    {
        constexpr int Rows = 20'000;
        constexpr int Kills = 20;
        const qint64 before
            = streamInfo().value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger();
        PublishTap tap;
        NatsConnection tapConnection(m_cluster->endpoint(), QStringLiteral("test tap"));
        natsSubscription* tapping = nullptr;
        QCOMPARE(natsConnection_Subscribe(&tapping, tapConnection.handle(), "outbox.>", &PublishTap::onMessage, &tap),
            NATS_OK);
        auto stopTapping = qScopeGuard([&] {
            natsSubscription_Unsubscribe(tapping);
            tapConnection.close();
            natsSubscription_Destroy(tapping);
        });
        RowWriter writer(m_database->settings(), QStringLiteral("nats:"), 20, std::chrono::milliseconds(25), Rows);
        const QString sink = m_cluster->uri(QStringLiteral("?subject_prefix=outbox"));
        std::array<std::unique_ptr<RelayProcess>, 2> relays;
        startRelay(relays[0], QStringLiteral("js-a"), sink);
        startRelay(relays[1], QStringLiteral("js-b"), sink);
        const auto stories = [&] { return QString::fromUtf8(relays[0]->story() + "\n---\n" + relays[1]->story()); };
        int killedServer = 0;
        for (int kill = 1; kill <= Kills; ++kill) {
            // While it publishes: its heartbeat (every second) counts rows it published.
            std::unique_ptr<RelayProcess>& victim = relays[size_t(kill % 2)];
            QTRY_VERIFY2_WITH_TIMEOUT(scalar(QStringLiteral("SELECT published FROM relay_nodes WHERE pid = ? AND "
                                                            "stopped_at IS NULL"),
                                          { victim->pid() })
                    >= 50,
                qPrintable(stories()), 60'000);
            victim->kill();
            startRelay(victim, kill % 2 ? QStringLiteral("js-b") : QStringLiteral("js-a"), sink);
            if (kill == Kills / 2) {
                killedServer = 1 + kill % Servers;
                m_cluster->kill(killedServer);
            } else if (kill == Kills / 2 + 3) {
                QCOMPARE(m_cluster->startNode(killedServer), QString());
            }
        }
        QTRY_COMPARE_WITH_TIMEOUT(writer.written(), qint64(Rows), 60'000);
        writer.stop();
        QVERIFY2(writer.problem().isEmpty(), qPrintable(writer.problem()));
        QTRY_VERIFY2_WITH_TIMEOUT(published(QStringLiteral("nats:")) == Rows, qPrintable(stories()), 180'000);
        for (auto& relay : relays)
            QVERIFY2(relay->terminate(), relay->story().constData());

        const QStringList ids = messageIds();
        QSet<QString> distinct;
        for (const QString& id : ids) {
            if (id.startsWith(QLatin1String("nats:")))
                distinct.insert(id);
        }
        const qint64 messages = qint64(ids.size()) - before;
        qInfo("%d rows through %d relay SIGKILLs and a server killed and restarted: %lld rows seen published more "
              "than once, %lld messages in the stream, %lld distinct ids",
            Rows, Kills, tap.sentTwice(), messages, qint64(distinct.size()));
        QCOMPARE(messages, qint64(Rows));
        QCOMPARE(distinct.size(), qsizetype(Rows));
        for (int row = 1; row <= Rows; ++row)
            QVERIFY2(distinct.contains(QStringLiteral("nats:%1").arg(row)), qPrintable(QString::number(row)));
    }

    // outboxctl consume reads a durable consumer of the stream through the inbox: every event applied once; a second
    // durable consumer reading the same messages into the same inbox applies none of them again.
    void consumeReadsADurableConsumerThroughTheInbox()
    {
        constexpr int Rows = 300;
        QCOMPARE(
            createStream({ { QStringLiteral("name"), QStringLiteral("CONSUMED") },
                { QStringLiteral("subjects"), QJsonArray { QStringLiteral("consumed.>") } },
                { QStringLiteral("num_replicas"), Servers }, { QStringLiteral("storage"), QStringLiteral("file") } }),
            QString());
        m_session->exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                       "dedupe_key) SELECT 'order', g::text, 'order.created', "
                                       "jsonb_build_object('customer', 'c' || g % 7), 'consumed:' || g "
                                       "FROM generate_series(1, ?) g"),
            { Rows }, QStringLiteral("writing rows"));
        const QString uri = m_cluster->uri(QStringLiteral("?subject_prefix=consumed"));
        std::unique_ptr<RelayProcess> relay;
        startRelay(relay, QStringLiteral("js-consumed"), uri);
        QTRY_VERIFY2_WITH_TIMEOUT(published(QStringLiteral("consumed:")) == Rows, relay->story().constData(), 60'000);
        QVERIFY2(relay->terminate(), relay->story().constData());

        const auto consume = [&](const QString& durable) {
            return ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH),
                { QStringLiteral("consume"), QStringLiteral("--dsn"), m_database->dsn(), QStringLiteral("--from"), uri,
                    QStringLiteral("--queue"), durable, QStringLiteral("--consumer"), QStringLiteral("billing"),
                    QStringLiteral("--max-messages"), QString::number(Rows) },
                QProcessEnvironment::systemEnvironment(), 60'000);
        };
        const ProcessTesting::Run first = consume(QStringLiteral("billing"));
        QVERIFY2(first.exitCode == 0, first.err.constData());
        QVERIFY2(first.err.contains("receiving from the durable consumer billing of the stream taking consumed.>"),
            first.err.constData());
        QCOMPARE(first.json().value(QLatin1String("received")).toInteger(), Rows);
        QCOMPARE(first.json().value(QLatin1String("applied")).toInteger(), Rows);
        QCOMPARE(
            scalar(QStringLiteral("SELECT sum(orders) FROM customer_order_counts WHERE consumer = 'billing'")), Rows);
        const ProcessTesting::Run again = consume(QStringLiteral("billing-replay"));
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(again.json().value(QLatin1String("applied")).toInteger(), 0);
        QCOMPARE(again.json().value(QLatin1String("duplicates")).toInteger(), Rows);
        QCOMPARE(
            scalar(QStringLiteral("SELECT sum(orders) FROM customer_order_counts WHERE consumer = 'billing'")), Rows);
    }

    // The server leading the stream killed while rows keep arriving (500 a second): another takes the lead, and nothing
    // is lost or doubled.
    void theStreamLeaderKilledLosesNothing()
    {
        RowWriter writer(m_database->settings(), QStringLiteral("leader:"), 10, std::chrono::milliseconds(20));
        std::unique_ptr<RelayProcess> relay;
        startRelay(relay, QStringLiteral("js-leader"), m_cluster->uri(QStringLiteral("?subject_prefix=outbox")));
        QTRY_VERIFY2_WITH_TIMEOUT(published(QStringLiteral("leader:")) >= 1'000, relay->story().constData(), 60'000);
        const QString leader = streamLeader();
        const int node = m_cluster->nodeNamed(leader);
        QVERIFY2(node != 0, qPrintable(leader));
        const qint64 atKill = published(QStringLiteral("leader:"));
        QElapsedTimer sinceKill;
        sinceKill.start();
        m_cluster->kill(node);
        // More than the batches in flight as the server went (2 workers x 50): the new leader took publishes.
        QTRY_VERIFY2_WITH_TIMEOUT(
            published(QStringLiteral("leader:")) > atKill + 2 * 50, relay->story().constData(), 60'000);
        const qint64 resumedMs = sinceKill.elapsed();
        const qint64 rows = writer.stop();
        QVERIFY2(writer.problem().isEmpty(), qPrintable(writer.problem()));
        QTRY_VERIFY2_WITH_TIMEOUT(published(QStringLiteral("leader:")) == rows, relay->story().constData(), 120'000);
        const QString newLeader = streamLeader();
        QVERIFY2(newLeader != leader && !newLeader.isEmpty(), qPrintable(newLeader));
        QVERIFY2(relay->terminate(), relay->story().constData());
        QCOMPARE(m_cluster->startNode(node), QString());

        QSet<QString> distinct;
        qint64 messages = 0;
        for (const QString& id : messageIds()) {
            if (id.startsWith(QLatin1String("leader:"))) {
                distinct.insert(id);
                ++messages;
            }
        }
        qInfo("%lld rows through the loss of the stream leader %s (now %s; publishing resumed after %.1f s): %lld "
              "messages, %lld distinct ids",
            rows, qPrintable(leader), qPrintable(newLeader), resumedMs / 1000.0, messages, qint64(distinct.size()));
        QCOMPARE(qint64(distinct.size()), rows);
        QCOMPARE(messages, rows);
    }
};

QTEST_GUILESS_MAIN(TestNatsJetStream)
#include "tst_natsjetstream.moc"
