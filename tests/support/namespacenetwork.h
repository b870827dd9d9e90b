// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "support/processtesting.h"

#include <QCoreApplication>
#include <QStringList>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <sched.h>
#include <unistd.h>

// Hosts on a network of their own: each host is a network namespace with a veth pair into a bridge that holds
// the server's address, as machines on a LAN. cut() takes a host's link down on the bridge's side without a
// reset: its packets vanish, and neither end learns it from the network, as with a pulled cable or a dead switch
// port. Needs root and `ip netns`; problem() says why the network could not be built. The names carry the test's
// pid, so parallel tests do not collide; the destructor removes everything.
class NamespaceNetwork final {
    Q_DISABLE_COPY_MOVE(NamespaceNetwork)
public:
    explicit NamespaceNetwork(int hosts)
        : m_hosts(hosts)
    {
        if (geteuid() != 0) {
            m_problem = QStringLiteral("the test needs root to create network namespaces");
            return;
        }
        tearDown(); // what an earlier test of the same pid suffix left behind when it was killed
        build();
    }

    ~NamespaceNetwork() { tearDown(); }

    // Empty once every host is up.
    const QString& problem() const { return m_problem; }

    // The server's address on the bridge, and the network a server lets its clients in from.
    QString serverAddress() const { return QStringLiteral("10.231.%1.1").arg(m_subnet); }
    QString clients() const { return QStringLiteral("10.231.%1.0/24").arg(m_subnet); }
    QString hostAddress(int host) const { return QStringLiteral("10.231.%1.%2").arg(m_subnet).arg(10 + host); }

    // Runs a program on `host`: put it before the program and its arguments (ip execs it: the pid stays the program's).
    QStringList launcher(int host) const
    {
        return { QStringLiteral("ip"), QStringLiteral("netns"), QStringLiteral("exec"), namespaceName(host) };
    }

    // Runs a program on `host` as a machine of its own would: as `user`, and as the first process of a PID namespace
    // of its own (with its own /proc), so that every process it starts dies with it; and the namespace's `unshare`
    // dies with this process. Put it before the program and its arguments: ip netns exec, setpriv and unshare each
    // exec the next (the pid stays unshare's, and killing it takes the whole namespace); the second setpriv asks for
    // the death signal again after it changed the user, which clears the one --kill-child set.
    QStringList machineLauncher(int host, const QString& user) const
    {
        return launcher(host)
            + QStringList { QStringLiteral("setpriv"), QStringLiteral("--pdeathsig"), QStringLiteral("KILL"),
                  QStringLiteral("unshare"), QStringLiteral("--pid"), QStringLiteral("--fork"),
                  QStringLiteral("--mount-proc"), QStringLiteral("--kill-child"), QStringLiteral("setpriv"),
                  QStringLiteral("--pdeathsig"), QStringLiteral("KILL"), QStringLiteral("--reuid=") + user,
                  QStringLiteral("--regid=") + user, QStringLiteral("--init-groups") };
    }

    // A second link to `host`, of its own (a management network): what cut() does not touch, for a test that talks
    // to a server on `host` while that host's other link is cut. Returns the host's address on it, or an empty
    // string (see problem()).
    QString addAccessLink(int host)
    {
        const QString outside = accessOutsideName(host);
        const QString inside = QStringLiteral("oa%1n%2").arg(m_suffix).arg(host);
        const QString hostSide = accessGateway(host);
        const QString hostAddress = QStringLiteral("10.232.%1.%2").arg(m_subnet).arg(4 * host + 2);
        const QStringList inNs { QStringLiteral("netns"), QStringLiteral("exec"), namespaceName(host),
            QStringLiteral("ip") };
        const bool built = ipOk({ QStringLiteral("link"), QStringLiteral("add"), outside, QStringLiteral("type"),
                               QStringLiteral("veth"), QStringLiteral("peer"), QStringLiteral("name"), inside })
            && ipOk(
                { QStringLiteral("link"), QStringLiteral("set"), inside, QStringLiteral("netns"), namespaceName(host) })
            && ipOk({ QStringLiteral("addr"), QStringLiteral("add"), hostSide + QStringLiteral("/30"),
                QStringLiteral("dev"), outside })
            && ipOk({ QStringLiteral("link"), QStringLiteral("set"), outside, QStringLiteral("up") })
            && ipOk(inNs
                + QStringList { QStringLiteral("addr"), QStringLiteral("add"), hostAddress + QStringLiteral("/30"),
                    QStringLiteral("dev"), inside })
            && ipOk(inNs + QStringList { QStringLiteral("link"), QStringLiteral("set"), inside, QStringLiteral("up") });
        return built ? hostAddress : QString();
    }

    // This side's address on the access link of `host`, where a server listens for that host alone. A /30 of its
    // own per host: .4h+1 on this side, .4h+2 on the host's.
    QString accessGateway(int host) const { return QStringLiteral("10.232.%1.%2").arg(m_subnet).arg(4 * host + 1); }
    bool cutAccessLink(int host)
    {
        return ipOk({ QStringLiteral("link"), QStringLiteral("set"), accessOutsideName(host), QStringLiteral("down") });
    }
    bool restoreAccessLink(int host)
    {
        return ipOk({ QStringLiteral("link"), QStringLiteral("set"), accessOutsideName(host), QStringLiteral("up") });
    }

    // Runs `body` with the calling thread on `host`: the threads it starts meanwhile are born there and stay (a
    // thread starts in its creator's namespace); the calling thread comes back afterwards, so that the `ip`
    // commands of this class still run on this side. For a test whose own threads, not a program it runs, are the
    // host's (the console's database workers). Threads started later from the calling thread (a thread pool's)
    // are born on this side. Keep `body` short: sockets it opens itself are the host's too. Unix sockets named by
    // path reach this machine from anywhere. False (see problem()) if the thread could not move; `body` did not
    // run then.
    bool startThreadsOn(int host, const std::function<void()>& body)
    {
        const auto failed = [this](const QString& step) {
            const int error = errno; // before anything else can change it
            m_problem = QStringLiteral("%1: %2").arg(step, QString::fromLocal8Bit(std::strerror(error)));
            return false;
        };
        const int here = ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
        if (here < 0)
            return failed(QStringLiteral("opening this thread's network namespace"));
        const QByteArray therePath = QStringLiteral("/run/netns/%1").arg(namespaceName(host)).toLocal8Bit();
        const int there = ::open(therePath.constData(), O_RDONLY | O_CLOEXEC);
        if (there < 0) {
            const bool result = failed(QStringLiteral("opening %1").arg(QString::fromLocal8Bit(therePath)));
            ::close(here);
            return result;
        }
        if (::setns(there, CLONE_NEWNET) != 0) {
            const bool result = failed(QStringLiteral("entering %1").arg(namespaceName(host)));
            ::close(there);
            ::close(here);
            return result;
        }
        ::close(there);
        body();
        if (::setns(here, CLONE_NEWNET) != 0)
            qFatal("could not come back from a network namespace: %s", std::strerror(errno));
        ::close(here);
        return true;
    }

    // Drops every packet to and from `host` from now on, without a reset, until restore().
    bool cut(int host)
    {
        return ipOk({ QStringLiteral("link"), QStringLiteral("set"), outsideName(host), QStringLiteral("down") });
    }
    bool restore(int host)
    {
        return ipOk({ QStringLiteral("link"), QStringLiteral("set"), outsideName(host), QStringLiteral("up") });
    }

private:
    static ProcessTesting::Run ip(const QStringList& arguments)
    {
        return ProcessTesting::run(QStringLiteral("ip"), arguments, QProcessEnvironment::systemEnvironment(), 30'000);
    }
    // Runs `ip ARGUMENTS`; on failure records the problem.
    bool ipOk(const QStringList& arguments)
    {
        const ProcessTesting::Run run = ip(arguments);
        if (run.exitCode == 0)
            return true;
        m_problem = QStringLiteral("ip %1: %2").arg(arguments.join(QLatin1Char(' ')), QString::fromLocal8Bit(run.err));
        return false;
    }

    QString bridgeName() const { return QStringLiteral("obr%1").arg(m_suffix); }
    QString namespaceName(int host) const { return QStringLiteral("outbox-%1-h%2").arg(m_suffix).arg(host); }
    QString outsideName(int host) const { return QStringLiteral("ov%1h%2").arg(m_suffix).arg(host); }
    QString accessOutsideName(int host) const { return QStringLiteral("oa%1h%2").arg(m_suffix).arg(host); }
    QString accessBridgeName(int host) const { return QStringLiteral("oab%1h%2").arg(m_suffix).arg(host); }

    // Everything of this suffix, whether built or not; errors (nothing to delete) do not matter.
    void tearDown()
    {
        for (int host = 1; host <= m_hosts; ++host) {
            ip({ QStringLiteral("netns"), QStringLiteral("delete"), namespaceName(host) }); // with the veths inside
            for (const QString& link : { outsideName(host), accessOutsideName(host), accessBridgeName(host) })
                ip({ QStringLiteral("link"), QStringLiteral("delete"), link });
        }
        ip({ QStringLiteral("link"), QStringLiteral("delete"), bridgeName() });
    }
    QString insideName(int host) const { return QStringLiteral("ov%1n%2").arg(m_suffix).arg(host); }

    void build()
    {
        if (!ipOk({ QStringLiteral("link"), QStringLiteral("add"), bridgeName(), QStringLiteral("type"),
                QStringLiteral("bridge") })
            || !ipOk({ QStringLiteral("addr"), QStringLiteral("add"), serverAddress() + QStringLiteral("/24"),
                QStringLiteral("dev"), bridgeName() })
            || !ipOk({ QStringLiteral("link"), QStringLiteral("set"), bridgeName(), QStringLiteral("up") }))
            return;
        for (int host = 1; host <= m_hosts; ++host) {
            const QString ns = namespaceName(host);
            const QStringList inNs { QStringLiteral("netns"), QStringLiteral("exec"), ns, QStringLiteral("ip") };
            if (!ipOk({ QStringLiteral("netns"), QStringLiteral("add"), ns })
                || !ipOk({ QStringLiteral("link"), QStringLiteral("add"), outsideName(host), QStringLiteral("type"),
                    QStringLiteral("veth"), QStringLiteral("peer"), QStringLiteral("name"), insideName(host) })
                || !ipOk(
                    { QStringLiteral("link"), QStringLiteral("set"), insideName(host), QStringLiteral("netns"), ns })
                || !ipOk({ QStringLiteral("link"), QStringLiteral("set"), outsideName(host), QStringLiteral("master"),
                    bridgeName() })
                || !ipOk({ QStringLiteral("link"), QStringLiteral("set"), outsideName(host), QStringLiteral("up") })
                || !ipOk(inNs
                    + QStringList { QStringLiteral("addr"), QStringLiteral("add"),
                        hostAddress(host) + QStringLiteral("/24"), QStringLiteral("dev"), insideName(host) })
                || !ipOk(inNs
                    + QStringList { QStringLiteral("link"), QStringLiteral("set"), insideName(host),
                        QStringLiteral("up") })
                || !ipOk(inNs
                    + QStringList {
                        QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("lo"), QStringLiteral("up") }))
                return;
        }
    }

    int m_hosts;
    int m_suffix = int(QCoreApplication::applicationPid() % 10'000);
    int m_subnet = 1 + int(QCoreApplication::applicationPid() % 250);
    QString m_problem;
};
