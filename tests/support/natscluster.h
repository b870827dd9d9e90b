// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/natsconnection.h"
#include "db/outboxerror.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <memory>
#include <sys/prctl.h>
#include <vector>

// A real NATS JetStream cluster, as services run it: `nodes` servers of Debian's nats-server on loopback, server m
// (from 1) named "n<m>", each with its own client and route ports and its own store directory, all routed to each
// other in one cluster. Each server dies with this process (PR_SET_PDEATHSIG): a crashed test leaves none running.
// Killed servers restart with their store, as a machine does after losing its power.
class NatsCluster final {
    Q_DISABLE_COPY_MOVE(NatsCluster)
public:
    static constexpr const char* Program = "/usr/sbin/nats-server";

    explicit NatsCluster(int nodes)
        : m_nodes(nodes)
    {
        for (int node = 1; node <= nodes; ++node) {
            m_clientPorts.push_back(freePort());
            m_routePorts.push_back(freePort());
        }
        m_processes.resize(size_t(nodes));
    }

    ~NatsCluster()
    {
        for (int node = 1; node <= m_nodes; ++node)
            kill(node);
    }

    // Starts every server and waits until JetStream answers (its cluster has a meta leader). Empty on success, else
    // the problem, with the servers' logs.
    QString start()
    {
        if (!m_directory.isValid())
            return QStringLiteral("no temporary directory");
        for (int node = 1; node <= m_nodes; ++node) {
            if (const QString problem = startNode(node); !problem.isEmpty())
                return problem;
        }
        return waitForJetStream();
    }

    QString startNode(int node)
    {
        const QString configuration = m_directory.filePath(QStringLiteral("n%1.conf").arg(node));
        QStringList routes;
        for (int other = 1; other <= m_nodes; ++other) {
            if (other != node)
                routes.append(QStringLiteral("nats-route://127.0.0.1:%1").arg(m_routePorts[size_t(other - 1)]));
        }
        QFile file(configuration);
        if (!file.open(QIODevice::WriteOnly))
            return QStringLiteral("cannot write %1").arg(configuration);
        file.write(QStringLiteral("server_name: %1\n"
                                  "listen: 127.0.0.1:%2\n"
                                  "jetstream { store_dir: \"%3\", max_memory_store: 64MB, max_file_store: 2GB }\n"
                                  "cluster { name: outbox-test, listen: 127.0.0.1:%4, routes: [%5] }\n")
                       .arg(serverName(node))
                       .arg(m_clientPorts[size_t(node - 1)])
                       .arg(m_directory.filePath(serverName(node)))
                       .arg(m_routePorts[size_t(node - 1)])
                       .arg(routes.join(QStringLiteral(", ")))
                       .toUtf8());
        file.close();
        auto process = std::make_unique<QProcess>();
        process->setProcessChannelMode(QProcess::MergedChannels);
        process->setStandardOutputFile(logPath(node), QIODevice::Append);
        process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        process->start(QString::fromLatin1(Program), { QStringLiteral("-c"), configuration });
        if (!process->waitForStarted())
            return QStringLiteral("%1 did not start: %2").arg(QString::fromLatin1(Program), process->errorString());
        m_processes[size_t(node - 1)] = std::move(process);
        return {};
    }

    // Waits until JetStream answers an account request from every running server. Empty on success.
    QString waitForJetStream()
    {
        QString last;
        const bool ready = QTest::qWaitFor(
            [&] {
                try {
                    NatsConnection connection(endpoint(), QStringLiteral("test fixture"));
                    connection.jetStreamRequest(QStringLiteral("INFO"), {}, 2'000);
                    return true;
                } catch (const OutboxError& error) {
                    last = error.message();
                    return false;
                }
            },
            60'000);
        return ready ? QString() : QStringLiteral("JetStream did not come up: %1\n%2").arg(last, logs());
    }

    // The server gone at once, as a machine that lost its power.
    void kill(int node)
    {
        QProcess* process = m_processes[size_t(node - 1)].get();
        if (process && process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished();
        }
    }

    int nodes() const { return m_nodes; }
    static QString serverName(int node) { return QStringLiteral("n%1").arg(node); }
    // The node of a server named by JetStream ("n2"), or 0.
    int nodeNamed(const QString& name) const
    {
        for (int node = 1; node <= m_nodes; ++node) {
            if (serverName(node) == name)
                return node;
        }
        return 0;
    }
    // The node listening for clients on `address` (127.0.0.1:PORT), or 0.
    int nodeAt(const QString& address) const
    {
        for (int node = 1; node <= m_nodes; ++node) {
            if (address == QStringLiteral("127.0.0.1:%1").arg(m_clientPorts[size_t(node - 1)]))
                return node;
        }
        return 0;
    }

    // nats://127.0.0.1:P1,127.0.0.1:P2,.../`query`
    QString uri(const QString& query = {}) const
    {
        QStringList hosts;
        for (int port : m_clientPorts)
            hosts.append(QStringLiteral("127.0.0.1:%1").arg(port));
        return QStringLiteral("nats://%1/%2").arg(hosts.join(QLatin1Char(',')), query);
    }
    NatsEndpoint endpoint(const QString& query = {}) const { return NatsEndpoint::parse(uri(query)); }

    // Every server's log (its end), for failure messages.
    QString logs() const
    {
        QString all;
        for (int node = 1; node <= m_nodes; ++node) {
            QFile log(logPath(node));
            all += QStringLiteral("--- %1\n").arg(serverName(node))
                + (log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll().right(3'000)) : QString());
        }
        return all;
    }

private:
    QString logPath(int node) const { return m_directory.filePath(QStringLiteral("n%1.log").arg(node)); }

    static int freePort()
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        return probe.serverPort();
    }

    int m_nodes;
    std::vector<int> m_clientPorts;
    std::vector<int> m_routePorts;
    QTemporaryDir m_directory;
    std::vector<std::unique_ptr<QProcess>> m_processes;
};
