// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "support/namespacenetwork.h"
#include "support/processtesting.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <memory>
#include <vector>

// A real RabbitMQ cluster, as services run their broker: `nodes` nodes of Debian's rabbitmq-server, node m (from 1)
// on host m of `network` (so that a test can cut its link without a reset), each with its own node name
// (rabbit@ADDRESS, long names), data and log directory and port mapper, all with one Erlang cookie, and with
// pause_minority partition handling (a node cut off from the others stops serving rather than diverge). Nodes 2 and up
// join node 1's cluster when first started and rejoin it by themselves after a restart. As PatroniCluster does with
// its members, each node runs (as the rabbitmq user) as the first process of a PID namespace of its own, which dies
// with this process: a crashed test leaves no node or port mapper running. Needs root, `ip netns` and `unshare`.
class RabbitMqCluster final {
    Q_DISABLE_COPY_MOVE(RabbitMqCluster)
public:
    static constexpr int AmqpPort = 5672;

    RabbitMqCluster(NamespaceNetwork& network, int nodes)
        : m_network(network)
        , m_nodes(nodes)
        , m_cookie(QByteArray::number(QRandomGenerator::global()->generate64(), 36).toUpper())
    {
        m_processes.resize(size_t(nodes));
    }

    ~RabbitMqCluster()
    {
        for (int node = 1; node <= m_nodes; ++node)
            kill(node);
    }

    // Starts every node and forms the cluster. Empty on success, else the problem, with the nodes' logs.
    QString start()
    {
        if (!m_directory.isValid())
            return QStringLiteral("no temporary directory");
        // The nodes, running as the rabbitmq user, find their homes in it.
        QFile::setPermissions(m_directory.path(),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup
                | QFile::ReadOther | QFile::ExeOther);
        for (int node = 1; node <= m_nodes; ++node) {
            if (const QString problem = prepare(node); !problem.isEmpty())
                return problem;
            if (const QString problem = startNode(node); !problem.isEmpty())
                return problem;
        }
        for (int node = 2; node <= m_nodes; ++node) {
            for (const QStringList& step : { QStringList { QStringLiteral("stop_app") },
                     QStringList { QStringLiteral("join_cluster"), nodeName(1) },
                     QStringList { QStringLiteral("start_app") } }) {
                if (const ProcessTesting::Run run = control(node, step); run.exitCode != 0)
                    return QStringLiteral("rabbitmqctl %1 on %2: %3\n%4")
                        .arg(step.join(QLatin1Char(' ')), nodeName(node), QString::fromLocal8Bit(run.err + run.out),
                            logs());
            }
        }
        return waitUntilClustered(1);
    }

    int nodes() const { return m_nodes; }
    QString nodeName(int node) const { return QStringLiteral("rabbit@%1").arg(m_network.hostAddress(node)); }
    // host:port, as a client's node list and MessageSink::destination() name it.
    QString address(int node) const { return QStringLiteral("%1:%2").arg(m_network.hostAddress(node)).arg(AmqpPort); }
    // The node whose address is `address`; 0 for none.
    int nodeAt(const QString& address) const
    {
        for (int node = 1; node <= m_nodes; ++node) {
            if (this->address(node) == address)
                return node;
        }
        return 0;
    }

    // The URI a client uses: every node, guest (allowed in from other hosts here), then `query`.
    QString uri(const QString& query = {}) const
    {
        QStringList hosts;
        for (int node = 1; node <= m_nodes; ++node)
            hosts.append(address(node));
        return QStringLiteral("amqp://guest:guest@%1/%2").arg(hosts.join(QLatin1Char(',')), query);
    }

    // (Re)starts a node and waits until it serves.
    QString startNode(int node)
    {
        auto process = std::make_unique<QProcess>();
        process->setProcessChannelMode(QProcess::MergedChannels);
        process->setStandardOutputFile(logPath(node), QIODevice::Append);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        const QString home = this->home(node);
        const std::pair<const char*, QString> variables[] = {
            { "HOME", home },
            { "RABBITMQ_NODENAME", nodeName(node) },
            { "RABBITMQ_USE_LONGNAME", QStringLiteral("true") },
            { "RABBITMQ_CONFIG_FILE", home + QStringLiteral("/rabbitmq.conf") },
            { "RABBITMQ_ENABLED_PLUGINS_FILE", home + QStringLiteral("/enabled_plugins") },
            { "RABBITMQ_MNESIA_BASE", home + QStringLiteral("/mnesia") },
            { "RABBITMQ_LOG_BASE", home + QStringLiteral("/log") },
            { "RABBITMQ_PID_FILE", pidFile(node) },
            { "RABBITMQ_LOGS", QStringLiteral("-") },
        };
        for (const auto& [name, value] : variables)
            environment.insert(QString::fromLatin1(name), value);
        process->setProcessEnvironment(environment);
        QFile::remove(pidFile(node));
        const QStringList launcher = m_network.machineLauncher(node, QStringLiteral("rabbitmq"));
        process->start(launcher.first(),
            launcher.mid(1) + QStringList { QStringLiteral("/usr/lib/rabbitmq/bin/rabbitmq-server") });
        if (!process->waitForStarted())
            return QStringLiteral("%1 did not start: %2").arg(nodeName(node), process->errorString());
        m_processes[size_t(node - 1)] = std::move(process);
        const ProcessTesting::Run wait = control(node,
            { QStringLiteral("wait"), pidFile(node), QStringLiteral("--timeout"), QStringLiteral("120") }, 150'000);
        if (wait.exitCode != 0)
            return QStringLiteral("%1 did not come up: %2\n%3")
                .arg(nodeName(node), QString::fromLocal8Bit(wait.err + wait.out), logs());
        return {};
    }

    // Waits until `node` sees every node of the cluster running. Empty on success.
    QString waitUntilClustered(int node)
    {
        const ProcessTesting::Run run = control(node,
            { QStringLiteral("await_online_nodes"), QString::number(m_nodes), QStringLiteral("--timeout"),
                QStringLiteral("120000") },
            150'000);
        return run.exitCode == 0
            ? QString()
            : QStringLiteral("the cluster did not form: %1\n%2").arg(QString::fromLocal8Bit(run.err + run.out), logs());
    }

    // The node gone at once, as a machine that lost its power: SIGKILL to its PID namespace.
    void kill(int node)
    {
        QProcess* process = m_processes[size_t(node - 1)].get();
        if (process && process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished();
        }
    }

    // A clean stop (rabbitmqctl stop): the node closes its clients' connections, tells the others, and exits.
    QString stop(int node)
    {
        // Not `stop PIDFILE`: the pid in the file is the node's own PID namespace's. The process ends with the node.
        const ProcessTesting::Run run = control(node, { QStringLiteral("stop") }, 120'000);
        if (run.exitCode != 0)
            return QStringLiteral("rabbitmqctl stop %1: %2")
                .arg(nodeName(node), QString::fromLocal8Bit(run.err + run.out));
        QProcess* process = m_processes[size_t(node - 1)].get();
        return process->waitForFinished(30'000) ? QString() : QStringLiteral("%1 did not exit").arg(nodeName(node));
    }

    // `rabbitmqctl ARGUMENTS` against `node`, run on its host (so that it works while the node is cut off).
    ProcessTesting::Run control(int node, const QStringList& arguments, int timeoutMs = 60'000) const
    {
        return ProcessTesting::run(QStringLiteral("ip"),
            m_network.launcher(node).mid(1)
                + QStringList { QStringLiteral("setpriv"), QStringLiteral("--reuid=rabbitmq"),
                    QStringLiteral("--regid=rabbitmq"), QStringLiteral("--init-groups"), QStringLiteral("env"),
                    QStringLiteral("HOME=") + home(node), QStringLiteral("/usr/lib/rabbitmq/bin/rabbitmqctl"),
                    QStringLiteral("--longnames"), QStringLiteral("-q"), QStringLiteral("-n"), nodeName(node) }
                + arguments,
            QProcessEnvironment::systemEnvironment(), timeoutMs);
    }

    // Every node's log (its end), for failure messages.
    QString logs() const
    {
        QString all;
        for (int node = 1; node <= m_nodes; ++node) {
            QFile log(logPath(node));
            all += QStringLiteral("--- %1\n").arg(nodeName(node))
                + (log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll().right(4'000)) : QString());
        }
        return all;
    }

private:
    QString home(int node) const { return m_directory.filePath(QStringLiteral("node%1").arg(node)); }
    QString pidFile(int node) const { return home(node) + QStringLiteral("/node.pid"); }
    QString logPath(int node) const { return m_directory.filePath(QStringLiteral("node%1.log").arg(node)); }

    // The node's home: the shared cookie, its configuration (AMQP on its host's address, guest allowed from other
    // hosts, no plugins), owned by the rabbitmq user.
    QString prepare(int node)
    {
        const QString home = this->home(node);
        if (!QDir().mkpath(home))
            return QStringLiteral("cannot create %1").arg(home);
        const QString configuration = QStringLiteral("listeners.tcp.1 = %1\n"
                                                     "loopback_users = none\n"
                                                     "cluster_partition_handling = pause_minority\n"
                                                     "net_ticktime = 4\n")
                                          .arg(address(node));
        const std::pair<QString, QByteArray> files[] = {
            { QStringLiteral("/.erlang.cookie"), m_cookie },
            { QStringLiteral("/rabbitmq.conf"), configuration.toUtf8() },
            { QStringLiteral("/enabled_plugins"), QByteArrayLiteral("[].") },
        };
        for (const auto& [name, content] : files) {
            QFile file(home + name);
            if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
                return QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString());
        }
        QFile::setPermissions(home + QStringLiteral("/.erlang.cookie"), QFile::ReadOwner);
        const ProcessTesting::Run chown = ProcessTesting::run(
            QStringLiteral("chown"), { QStringLiteral("-R"), QStringLiteral("rabbitmq:rabbitmq"), home });
        return chown.exitCode == 0 ? QString()
                                   : QStringLiteral("chown %1: %2").arg(home, QString::fromLocal8Bit(chown.err));
    }

    NamespaceNetwork& m_network;
    int m_nodes;
    QByteArray m_cookie;
    QTemporaryDir m_directory { QDir::tempPath() + QStringLiteral("/outbox-rabbitmq-cluster-XXXXXX") };
    std::vector<std::unique_ptr<QProcess>> m_processes;
};
