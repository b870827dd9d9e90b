// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "support/namespacenetwork.h"
#include "support/processtesting.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <memory>
#include <vector>

// A real HA cluster, as services run PostgreSQL in production: etcd and `members` Patroni members (Debian's
// patroni and etcd-server), each member's PostgreSQL 15 a streaming replica of the leader's, in Patroni's
// synchronous mode (a commit is acknowledged once one standby has it). Member m (from 1) runs on host m of
// `network`, so that a test can cut its link without a reset; etcd runs on this side, on the network's server
// address. Each member is a machine of its own as far as processes go: Patroni runs (as the postgres user, since
// PostgreSQL refuses root) as the first process of a PID namespace of its own, whose every process, its PostgreSQL
// too, dies with it; that namespace's `unshare` and etcd die with this process (`setpriv --pdeathsig KILL`). So a
// test that crashes, or that CTest kills at its timeout, leaves nothing running. Needs root, `ip netns`,
// `unshare`, patroni and etcd.
class PatroniCluster final {
    Q_DISABLE_COPY_MOVE(PatroniCluster)
public:
    // Patroni's timing (bootstrap.dcs): the leader key lives `Ttl` seconds; a member looks every `LoopWait`; a
    // leader that cannot reach etcd for `RetryTimeout` demotes itself. Patroni wants loop_wait + 2 × retry_timeout
    // ≤ ttl. A failover takes about a TTL: the leader key must expire before a standby may take it.
    static constexpr int TtlSeconds = 10;
    static constexpr int LoopWaitSeconds = 1;
    static constexpr int RetryTimeoutSeconds = 4;

    PatroniCluster(NamespaceNetwork& network, int members)
        : m_network(network)
        , m_members(members)
        , m_scope(QStringLiteral("outbox-ha-%1").arg(QCoreApplication::applicationPid()))
    {
        m_http.setProxy(QNetworkProxy::NoProxy);
    }

    ~PatroniCluster()
    {
        // Every member goes down as a machine does: its PID namespace with it. Its data goes with the directory.
        for (const auto& member : m_patroni) {
            if (member && member->state() != QProcess::NotRunning) {
                member->kill();
                member->waitForFinished();
            }
        }
        if (m_etcd) {
            m_etcd->terminate();
            if (!m_etcd->waitForFinished(10'000)) {
                m_etcd->kill();
                m_etcd->waitForFinished();
            }
        }
    }

    // Starts etcd and every member and waits until they form the cluster (leader, synchronous standby, the rest
    // streaming). Empty on success, else the problem, with the members' logs.
    QString start()
    {
        if (!m_directory.isValid())
            return QStringLiteral("no temporary directory");
        if (const QString problem = chownToPostgres(m_directory.path()); !problem.isEmpty())
            return problem;
        m_etcd = std::make_unique<QProcess>();
        m_etcd->setProcessChannelMode(QProcess::MergedChannels);
        m_etcd->setStandardOutputFile(path(QStringLiteral("etcd.log")));
        const QString client = QStringLiteral("http://%1:2379").arg(m_network.serverAddress());
        const QString peer = QStringLiteral("http://%1:2380").arg(m_network.serverAddress());
        m_etcd->start(QStringLiteral("setpriv"),
            { QStringLiteral("--pdeathsig"), QStringLiteral("KILL"), QStringLiteral("etcd"), QStringLiteral("--name"),
                QStringLiteral("e1"), QStringLiteral("--data-dir"), path(QStringLiteral("etcd")),
                QStringLiteral("--listen-client-urls"), client, QStringLiteral("--advertise-client-urls"), client,
                QStringLiteral("--listen-peer-urls"), peer, QStringLiteral("--initial-advertise-peer-urls"), peer,
                QStringLiteral("--initial-cluster"), QStringLiteral("e1=") + peer,
                QStringLiteral("--enable-v2=true") }); // Patroni 3.0's etcd client speaks the v2 API
        if (!m_etcd->waitForStarted())
            return QStringLiteral("etcd did not start: %1").arg(m_etcd->errorString());
        if (!QTest::qWaitFor([&] { return !etcdGet(QStringLiteral("/health")).isEmpty(); }, 30'000))
            return QStringLiteral("etcd did not answer within 30 s:\n") + logOf(QStringLiteral("etcd.log"));
        m_patroni.resize(size_t(m_members));
        for (int member = 1; member <= m_members; ++member) {
            if (const QString problem = writeConfiguration(member); !problem.isEmpty())
                return problem;
            if (const QString problem = startMember(member); !problem.isEmpty())
                return problem;
        }
        return waitUntilHealthy(120'000);
    }

    int members() const { return m_members; }
    QString name(int member) const { return QStringLiteral("m%1").arg(member); }
    QString address(int member) const { return m_network.hostAddress(member); }

    // The DSN a service uses: every member, and libpq keeps to the one that takes writes. connect_timeout: a member
    // whose link is cut costs each new connection that long before libpq tries the next.
    QString dsn(const QString& database = QStringLiteral("postgres")) const
    {
        QStringList hosts;
        for (int member = 1; member <= m_members; ++member)
            hosts.append(address(member));
        return QStringLiteral("host=%1 port=5432 user=postgres password=pw dbname=%2 target_session_attrs=read-write "
                              "connect_timeout=2")
            .arg(hosts.join(QLatin1Char(',')), database);
    }
    // One member, whatever its role.
    QString memberDsn(int member, const QString& database = QStringLiteral("postgres")) const
    {
        return QStringLiteral("host=%1 port=5432 user=postgres password=pw dbname=%2 connect_timeout=2")
            .arg(address(member), database);
    }

    // The member that holds the leader key in etcd; 0 when none does (a failover under way).
    int leader()
    {
        const QJsonObject key = QJsonDocument::fromJson(etcdGet(keyPath(QStringLiteral("leader")))).object();
        const QString holder = key.value(QStringLiteral("node")).toObject().value(QStringLiteral("value")).toString();
        for (int member = 1; member <= m_members; ++member) {
            if (holder == name(member))
                return member;
        }
        return 0;
    }
    // The member Patroni keeps as the synchronous standby; 0 when none.
    int synchronousStandby()
    {
        const QJsonObject key = QJsonDocument::fromJson(etcdGet(keyPath(QStringLiteral("sync")))).object();
        const QJsonObject sync = QJsonDocument::fromJson(
            key.value(QStringLiteral("node")).toObject().value(QStringLiteral("value")).toString().toUtf8())
                                     .object();
        const QString standby = sync.value(QStringLiteral("sync_standby")).toString();
        for (int member = 1; member <= m_members; ++member) {
            if (standby == name(member))
                return member;
        }
        return 0;
    }

    // A leader whose PostgreSQL takes writes and streams to every other member, one of them synchronously, as etcd
    // says. Empty
    // once so, else what was last seen (with the members' logs).
    QString waitUntilHealthy(int timeoutMs)
    {
        QString seen;
        const bool healthy = QTest::qWaitFor(
            [&] {
                const int current = leader();
                if (current == 0) {
                    seen = QStringLiteral("no leader");
                    return false;
                }
                const ProcessTesting::Run replication = psql(current,
                    QStringLiteral("SELECT pg_is_in_recovery(), count(*) FILTER (WHERE state = 'streaming'), "
                                   "string_agg(application_name, ',') FILTER (WHERE sync_state = 'sync') "
                                   "FROM pg_stat_replication"));
                const int standby = synchronousStandby();
                seen = QStringLiteral("leader %1 (recovery|streaming|sync): %2; synchronous standby in etcd: %3")
                           .arg(name(current), QString::fromUtf8(replication.out.trimmed()),
                               standby ? name(standby) : QStringLiteral("none"));
                // Patroni names the synchronous standby in etcd once PostgreSQL has it: both, and the same.
                return replication.exitCode == 0 && standby != 0
                    && replication.out.trimmed()
                    == QStringLiteral("f|%1|%2").arg(m_members - 1).arg(name(standby)).toUtf8();
            },
            timeoutMs);
        return healthy ? QString() : QStringLiteral("the cluster is not healthy: %1\n%2").arg(seen, logs());
    }

    // Waits until a member other than `former` holds the leader key and takes writes; that member, or 0.
    int waitForNewLeader(int former, int timeoutMs)
    {
        int current = 0;
        (void)QTest::qWaitFor(
            [&] {
                current = leader();
                return current != 0 && current != former
                    && psql(current, QStringLiteral("SELECT pg_is_in_recovery()")).out.trimmed() == "f";
            },
            timeoutMs);
        return current != former ? current : 0;
    }

    // The member's Patroni and PostgreSQL gone at once, as a machine that lost its power: SIGKILL to its PID
    // namespace. (Its clients do learn it at once, since the kernel that closes their sockets lives on: a machine
    // that vanished from the network is cut().)
    void kill(int member)
    {
        QProcess& machine = *m_patroni[size_t(member - 1)];
        machine.kill(); // unshare: its --kill-child takes Patroni, and Patroni, the first process there, the rest
        machine.waitForFinished();
    }

    // (Re)starts the member's Patroni, which starts its PostgreSQL (rewinding it to the leader if it must).
    QString startMember(int member)
    {
        auto patroni = std::make_unique<QProcess>();
        patroni->setProcessChannelMode(QProcess::MergedChannels);
        patroni->setStandardOutputFile(path(name(member) + QStringLiteral(".log")), QIODevice::Append);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOME"), path(name(member)));
        for (const QString& libpq : { QStringLiteral("PGHOST"), QStringLiteral("PGPORT"), QStringLiteral("PGUSER"),
                 QStringLiteral("PGPASSWORD"), QStringLiteral("PGDATABASE") })
            environment.remove(libpq); // the test cluster's, which Patroni's own connections must not pick up
        patroni->setProcessEnvironment(environment);
        // Patroni finds its PostgreSQL by pid in the namespace's own /proc.
        const QStringList launcher = m_network.machineLauncher(member, QStringLiteral("postgres"));
        patroni->start(
            launcher.first(), launcher.mid(1) + QStringList { QStringLiteral("patroni"), configuration(member) });
        if (!patroni->waitForStarted())
            return QStringLiteral("patroni %1 did not start: %2").arg(name(member), patroni->errorString());
        m_patroni[size_t(member - 1)] = std::move(patroni);
        return {};
    }

    // A planned switchover from the leader `from` to `to` (in synchronous mode, the synchronous standby), through
    // patronictl, which returns once `to` leads.
    ProcessTesting::Run switchover(int from, int to) const
    {
        return patronictl({ QStringLiteral("switchover"), QStringLiteral("--leader"), name(from),
            QStringLiteral("--candidate"), name(to), QStringLiteral("--force") });
    }

    // `patronictl ARGUMENTS` with member 1's configuration (it talks to etcd and the members' REST APIs).
    ProcessTesting::Run patronictl(const QStringList& arguments) const
    {
        return ProcessTesting::run(QStringLiteral("patronictl"),
            QStringList { QStringLiteral("-c"), configuration(1) } + arguments,
            QProcessEnvironment::systemEnvironment(), 60'000);
    }

    // `sql` on one member through psql (unaligned, tuples only), whatever its role; a cut member times out.
    ProcessTesting::Run psql(int member, const QString& sql) const
    {
        return ProcessTesting::run(QStringLiteral("psql"),
            { QStringLiteral("-XAtq"), QStringLiteral("-d"), memberDsn(member), QStringLiteral("-c"), sql },
            QProcessEnvironment::systemEnvironment(), 10'000);
    }

    // etcd's and every member's log, for failure messages.
    QString logs() const
    {
        QString all = QStringLiteral("--- etcd\n") + logOf(QStringLiteral("etcd.log")).right(2'000);
        for (int member = 1; member <= m_members; ++member)
            all += QStringLiteral("--- %1\n").arg(name(member))
                + logOf(name(member) + QStringLiteral(".log")).right(6'000);
        return all;
    }

private:
    QString path(const QString& relative) const { return m_directory.filePath(relative); }
    QString configuration(int member) const { return path(name(member) + QStringLiteral(".yml")); }
    QString keyPath(const QString& key) const { return QStringLiteral("/v2/keys/service/%1/%2").arg(m_scope, key); }
    QString logOf(const QString& file) const
    {
        QFile log(path(file));
        return log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll()) : QString();
    }

    static QString chownToPostgres(const QString& directory)
    {
        const ProcessTesting::Run run = ProcessTesting::run(
            QStringLiteral("chown"), { QStringLiteral("-R"), QStringLiteral("postgres:postgres"), directory });
        return run.exitCode == 0 ? QString()
                                 : QStringLiteral("chown %1: %2").arg(directory, QString::fromLocal8Bit(run.err));
    }

    // The body of a GET from etcd's client API; empty if it did not answer within 2 s.
    QByteArray etcdGet(const QString& apiPath)
    {
        QNetworkRequest request(QUrl(QStringLiteral("http://%1:2379%2").arg(m_network.serverAddress(), apiPath)));
        request.setTransferTimeout(2'000);
        QNetworkReply* reply = m_http.get(request);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const QByteArray body = reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
        reply->deleteLater();
        return body;
    }

    QString writeConfiguration(int member)
    {
        const QString home = path(name(member));
        if (!QDir().mkpath(home))
            return QStringLiteral("cannot create %1").arg(home);
        const QString clients = m_network.clients();
        const QString yaml = QStringLiteral("scope: %1\n"
                                            "name: %2\n"
                                            "restapi:\n"
                                            "  listen: %3:8008\n"
                                            "  connect_address: %3:8008\n"
                                            "etcd:\n"
                                            "  host: %4:2379\n"
                                            "bootstrap:\n"
                                            "  dcs:\n"
                                            "    ttl: %5\n"
                                            "    loop_wait: %6\n"
                                            "    retry_timeout: %7\n"
                                            "    maximum_lag_on_failover: 1048576\n"
                                            "    synchronous_mode: true\n"
                                            "    postgresql:\n"
                                            "      use_pg_rewind: true\n"
                                            "      parameters:\n"
                                            "        wal_level: replica\n"
                                            "        hot_standby: 'on'\n"
                                            "        max_wal_senders: 10\n"
                                            "        max_replication_slots: 10\n"
                                            "        wal_log_hints: 'on'\n"
                                            "        max_connections: 100\n"
                                            "  initdb:\n"
                                            "  - encoding: UTF8\n"
                                            "  - data-checksums\n"
                                            "  pg_hba:\n"
                                            "  - local all all trust\n"
                                            "  - host replication replicator %8 trust\n"
                                            "  - host all all %8 trust\n"
                                            "postgresql:\n"
                                            "  listen: %3:5432\n"
                                            "  connect_address: %3:5432\n"
                                            "  data_dir: %9/data\n"
                                            "  bin_dir: /usr/lib/postgresql/15/bin\n"
                                            "  pgpass: %9/pgpass\n"
                                            "  authentication:\n"
                                            "    superuser:\n"
                                            "      username: postgres\n"
                                            "      password: pw\n"
                                            "    replication:\n"
                                            "      username: replicator\n"
                                            "      password: rep\n"
                                            "    rewind:\n"
                                            "      username: postgres\n"
                                            "      password: pw\n"
                                            "  parameters:\n"
                                            "    unix_socket_directories: '%9'\n")
                                 .arg(m_scope, name(member), address(member), m_network.serverAddress())
                                 .arg(TtlSeconds)
                                 .arg(LoopWaitSeconds)
                                 .arg(RetryTimeoutSeconds)
                                 .arg(clients, home);
        QFile file(configuration(member));
        if (!file.open(QIODevice::WriteOnly) || file.write(yaml.toUtf8()) != yaml.toUtf8().size())
            return QStringLiteral("cannot write %1").arg(file.fileName());
        file.close();
        return chownToPostgres(m_directory.path());
    }

    NamespaceNetwork& m_network;
    int m_members;
    QString m_scope;
    QTemporaryDir m_directory;
    QNetworkAccessManager m_http;
    std::unique_ptr<QProcess> m_etcd;
    std::vector<std::unique_ptr<QProcess>> m_patroni;
};
