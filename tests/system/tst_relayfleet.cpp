// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "support/namespacenetwork.h"
#include "support/processtesting.h"
#include "support/relayprocess.h"

#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

// Several relays on separate hosts: each relay process runs in a network namespace of its own and reaches
// PostgreSQL over a veth pair and a bridge, as relays on three machines would over a network. They drain 100,000
// rows together; the test reports the throughput of one relay and of three, and the share each took. Needs root
// and `ip netns`: where the machine has neither, the test fails saying so rather than skipping.
class TestRelayFleet final : public QObject {
    Q_OBJECT

    static constexpr int Rows = 100'000;
    static constexpr int Relays = 3;

    qint64 scalar(const QString& sql)
    {
        QSqlQuery& q = m_session->exec(sql, {}, QStringLiteral("probing"));
        return q.next() ? q.value(0).toLongLong() : -1;
    }

    void seed()
    {
        m_session->execScript(QStringLiteral("TRUNCATE outbox, outbox_attempts, relay_nodes RESTART IDENTITY; "
                                             "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                             "dedupe_key) SELECT 'order', g::text, 'order.created', "
                                             "jsonb_build_object('id', g), 'fleet:' || g "
                                             "FROM generate_series(1, %1) g")
                                  .arg(Rows),
            QStringLiteral("seeding the outbox"));
    }

    struct Drain {
        double rowsPerSecond = 0;
        QList<qint64> shares; // rows each relay published
        qint64 duplicates = 0;
        int clientAddresses = 0; // distinct addresses the relays' connections came from
    };

    // `relays` relays, relay i in namespace i, drain the seeded outbox over TCP; each publishes to a file of its own.
    void drain(int relays, Drain& result)
    {
        seed();
        QTemporaryDir sinks;
        std::vector<std::unique_ptr<RelayProcess>> processes;
        QElapsedTimer took;
        took.start();
        for (int relay = 1; relay <= relays; ++relay) {
            processes.push_back(std::make_unique<RelayProcess>(QStringLiteral(OUTBOXCTL_PATH),
                QStringList { QStringLiteral("relay"), QStringLiteral("--dsn"), m_cluster->tcpDsn(),
                    QStringLiteral("--name"), QStringLiteral("fleet-%1").arg(relay), QStringLiteral("--workers"),
                    QStringLiteral("2"), QStringLiteral("--batch"), QStringLiteral("200"), QStringLiteral("--sink"),
                    QStringLiteral("file:") + sinks.filePath(QStringLiteral("relay-%1.jsonl").arg(relay)) },
                m_network->launcher(relay)));
        }
        int addresses = 0;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                addresses = qMax<int>(addresses,
                    int(scalar(QStringLiteral("SELECT count(DISTINCT client_addr) FROM pg_stat_activity "
                                              "WHERE application_name = 'outbox-relay'"))));
                // Rows in the log are published by their lane's cursor (migration 0028): outbox_messages says.
                return scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'"))
                    == Rows;
            }(),
            180'000);
        result.rowsPerSecond = double(Rows) * 1000.0 / double(took.elapsed());
        result.clientAddresses = addresses;
        for (auto& process : processes)
            QVERIFY2(process->terminate(), process->story().constData());

        QHash<qint64, QSet<int>> relaysPerId;
        qint64 lines = 0;
        for (int relay = 1; relay <= relays; ++relay) {
            QFile file(sinks.filePath(QStringLiteral("relay-%1.jsonl").arg(relay)));
            QVERIFY(file.open(QIODevice::ReadOnly));
            qint64 share = 0;
            while (!file.atEnd()) {
                const QByteArray line = file.readLine().trimmed();
                if (line.isEmpty())
                    continue;
                relaysPerId[QJsonDocument::fromJson(line).object().value(QStringLiteral("id")).toInteger()].insert(
                    relay);
                ++share;
            }
            lines += share;
            result.shares.append(share);
        }
        QCOMPARE(relaysPerId.size(), Rows); // nothing lost
        result.duplicates = lines - Rows;
        // No relay publishes a row another one did, except a row whose lease was rescued.
        const qint64 rescued
            = scalar(QStringLiteral("SELECT count(*) FROM outbox_attempts WHERE error LIKE 'lease of % expired%'"));
        qint64 sharedRows = 0;
        for (const QSet<int>& publishers : std::as_const(relaysPerId))
            sharedRows += publishers.size() > 1 ? 1 : 0;
        QVERIFY2(sharedRows <= rescued,
            qPrintable(QStringLiteral("%1 rows published by two relays, %2 rescued").arg(sharedRows).arg(rescued)));
        QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM relay_nodes n WHERE relay_node_state(n) = 'stopped'")),
            qint64(relays));
    }

    std::unique_ptr<NamespaceNetwork> m_network;
    std::unique_ptr<PrivateCluster> m_cluster;
    std::unique_ptr<DbSession> m_session;

private slots:
    void initTestCase()
    {
        m_network = std::make_unique<NamespaceNetwork>(Relays);
        QVERIFY2(m_network->problem().isEmpty(),
            qPrintable(QStringLiteral("network namespaces are not available here: %1").arg(m_network->problem())));
        m_cluster = std::make_unique<PrivateCluster>();
        m_cluster->listenOnTcp(m_network->serverAddress(), 5432, m_network->clients());
        m_cluster->start();
        m_session = std::make_unique<DbSession>(m_cluster->settings(), QStringLiteral("fleet"));
        SchemaMigrator(*m_session).migrate();
    }

    void cleanupTestCase()
    {
        m_session.reset();
        m_cluster.reset();
        m_network.reset();
    }

    void threeRelaysOnThreeHostsShareTheDrain()
    {
        Drain one;
        drain(1, one);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(one.clientAddresses, 1);
        Drain three;
        drain(Relays, three);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(three.clientAddresses, Relays); // three hosts, as the server sees them
        for (const qint64 share : three.shares)
            QVERIFY2(share > 0, "a relay took no part in the drain");
        QCOMPARE(three.duplicates, 0LL);
        qInfo("%d rows: 1 relay %.0f rows/s; %d relays %.0f rows/s (%.2fx); shares %lld / %lld / %lld (%.1f / %.1f / "
              "%.1f %%)",
            Rows, one.rowsPerSecond, Relays, three.rowsPerSecond, three.rowsPerSecond / one.rowsPerSecond,
            three.shares.at(0), three.shares.at(1), three.shares.at(2), 100.0 * double(three.shares.at(0)) / Rows,
            100.0 * double(three.shares.at(1)) / Rows, 100.0 * double(three.shares.at(2)) / Rows);
    }
};

QTEST_GUILESS_MAIN(TestRelayFleet)
#include "tst_relayfleet.moc"
