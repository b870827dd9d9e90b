// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "support/processtesting.h"
#include "support/relayprocess.h"

#include <QCoreApplication>
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
#include <unistd.h>

// Several relays on separate hosts: each relay process runs in a network namespace of its own and reaches
// PostgreSQL over a veth pair and a bridge, as relays on three machines would over a network. They drain 100,000
// rows together; the test reports the throughput of one relay and of three, and the share each took. Needs root
// and `ip netns`: where the machine has neither, the test fails saying so rather than skipping.
class TestRelayFleet final : public QObject {
    Q_OBJECT

    static constexpr int Rows = 100'000;
    static constexpr int Relays = 3;

    static ProcessTesting::Run ip(const QStringList& arguments)
    {
        return ProcessTesting::run(QStringLiteral("ip"), arguments, QProcessEnvironment::systemEnvironment(), 30'000);
    }
    // Runs `ip ARGUMENTS`; on failure records the problem in m_setupProblem.
    bool ipOk(const QStringList& arguments)
    {
        const ProcessTesting::Run run = ip(arguments);
        if (run.exitCode == 0)
            return true;
        m_setupProblem
            = QStringLiteral("ip %1: %2").arg(arguments.join(QLatin1Char(' ')), QString::fromLocal8Bit(run.err));
        return false;
    }

    QString namespaceName(int relay) const { return QStringLiteral("outbox-%1-r%2").arg(m_suffix).arg(relay); }
    QString hostAddress() const { return QStringLiteral("10.231.%1.1").arg(m_subnet); }

    bool buildNetwork()
    {
        if (geteuid() != 0) {
            m_setupProblem = QStringLiteral("the test needs root to create network namespaces");
            return false;
        }
        const QString bridge = QStringLiteral("obr%1").arg(m_suffix);
        if (!ipOk({ QStringLiteral("link"), QStringLiteral("add"), bridge, QStringLiteral("type"),
                QStringLiteral("bridge") })
            || !ipOk({ QStringLiteral("addr"), QStringLiteral("add"), hostAddress() + QStringLiteral("/24"),
                QStringLiteral("dev"), bridge })
            || !ipOk({ QStringLiteral("link"), QStringLiteral("set"), bridge, QStringLiteral("up") }))
            return false;
        for (int relay = 1; relay <= Relays; ++relay) {
            const QString ns = namespaceName(relay);
            const QString outside = QStringLiteral("ov%1h%2").arg(m_suffix).arg(relay);
            const QString inside = QStringLiteral("ov%1n%2").arg(m_suffix).arg(relay);
            const QStringList inNs { QStringLiteral("netns"), QStringLiteral("exec"), ns, QStringLiteral("ip") };
            if (!ipOk({ QStringLiteral("netns"), QStringLiteral("add"), ns })
                || !ipOk({ QStringLiteral("link"), QStringLiteral("add"), outside, QStringLiteral("type"),
                    QStringLiteral("veth"), QStringLiteral("peer"), QStringLiteral("name"), inside })
                || !ipOk({ QStringLiteral("link"), QStringLiteral("set"), inside, QStringLiteral("netns"), ns })
                || !ipOk({ QStringLiteral("link"), QStringLiteral("set"), outside, QStringLiteral("master"), bridge })
                || !ipOk({ QStringLiteral("link"), QStringLiteral("set"), outside, QStringLiteral("up") })
                || !ipOk(inNs
                    + QStringList { QStringLiteral("addr"), QStringLiteral("add"),
                        QStringLiteral("10.231.%1.%2/24").arg(m_subnet).arg(10 + relay), QStringLiteral("dev"),
                        inside })
                || !ipOk(
                    inNs + QStringList { QStringLiteral("link"), QStringLiteral("set"), inside, QStringLiteral("up") })
                || !ipOk(inNs
                    + QStringList {
                        QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("lo"), QStringLiteral("up") }))
                return false;
        }
        return true;
    }

    void tearDownNetwork()
    {
        for (int relay = 1; relay <= Relays; ++relay)
            ip({ QStringLiteral("netns"), QStringLiteral("delete"),
                namespaceName(relay) }); // takes its veth pair along
        ip({ QStringLiteral("link"), QStringLiteral("delete"), QStringLiteral("obr%1").arg(m_suffix) });
    }

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
                QStringList {
                    QStringLiteral("ip"), QStringLiteral("netns"), QStringLiteral("exec"), namespaceName(relay) }));
        }
        int addresses = 0;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                addresses = qMax<int>(addresses,
                    int(scalar(QStringLiteral("SELECT count(DISTINCT client_addr) FROM pg_stat_activity "
                                              "WHERE application_name = 'outbox-relay'"))));
                return scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'published'")) == Rows;
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

    int m_suffix = int(QCoreApplication::applicationPid() % 10'000);
    int m_subnet = 1 + int(QCoreApplication::applicationPid() % 250);
    QString m_setupProblem;
    std::unique_ptr<PrivateCluster> m_cluster;
    std::unique_ptr<DbSession> m_session;

private slots:
    void initTestCase()
    {
        const bool built = buildNetwork();
        QVERIFY2(
            built, qPrintable(QStringLiteral("network namespaces are not available here: %1").arg(m_setupProblem)));
        m_cluster = std::make_unique<PrivateCluster>();
        m_cluster->listenOnTcp(hostAddress(), 5432, QStringLiteral("10.231.%1.0/24").arg(m_subnet));
        m_cluster->start();
        m_session = std::make_unique<DbSession>(m_cluster->settings(), QStringLiteral("fleet"));
        SchemaMigrator(*m_session).migrate();
    }

    void cleanupTestCase()
    {
        m_session.reset();
        m_cluster.reset();
        tearDownNetwork();
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
