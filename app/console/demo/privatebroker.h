// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// A private, throwaway RabbitMQ node for demos, the broker's counterpart of PrivateCluster: its own node name, Erlang
// cookie, port mapper (epmd), data and log directories in a temporary directory, and free loopback ports, so it clashes
// neither with a system RabbitMQ nor with another demo, and nothing outside the machine can reach it. It runs the
// server's own scripts from /usr/lib/rabbitmq/bin (Debian's wrappers would switch to the system node's home and
// cookie), as the `rabbitmq` user when the caller is root. stop() (also called by the destructor) stops the node and
// its port mapper and removes the directory.
class PrivateBroker final {
    Q_DISABLE_COPY_MOVE(PrivateBroker)
public:
    // Whether rabbitmq-server is installed; without it the demo publishes into the fault-injecting sink.
    static bool isInstalled();

    // Creates the temporary directory. Throws OutboxError (kind Other) naming what failed.
    PrivateBroker();
    ~PrivateBroker();

    // Also listens at the IPv4 `address` (on the port of uri()) and lets guest log in from there: for tests whose
    // clients sit in other network namespaces. Takes effect at the next start().
    void listenOnTcp(const QString& address) { m_extraAddress = address; }

    // Starts the node and waits until it accepts connections.
    void start();
    // Never throws: a node or port mapper already gone (stopped or killed by hand) is stopped, and one that will not
    // stop is said with qWarning; the directory is removed either way.
    void stop();
    // Stops and starts the broker application inside the running node: every AMQP connection is cut, as in an
    // outage, and the node's data stays.
    void stopApplication();
    void startApplication();
    // Holds the queue `queue` to `maxLength` messages with reject-publish overflow (a policy, so it can be changed
    // on a queue that exists): once full, the broker refuses further publishes with a basic.nack.
    void limitQueue(const QString& queue, int maxLength);

    bool isRunning() const { return m_running; }
    const QString& directory() const { return m_directory; }
    const QString& nodeName() const { return m_nodeName; }
    quint16 port() const { return m_port; }
    quint16 portMapperPort() const { return m_mapperPort; } // the node's own epmd
    // amqp://guest:guest@127.0.0.1:PORT/ (the guest user may log in from the loopback only).
    QString uri() const;
    // The same for a client that reaches the node at `address` (see listenOnTcp()).
    QString uri(const QString& address) const;
    // A rabbitmqctl command line that reaches this node, for the user to copy.
    QString controlCommand() const;

private:
    // One attempt at start(); abandon() cleans up after a failed one.
    void launch();
    void abandon();
    // Runs rabbitmqctl `arguments` against the node; throws with its output when it fails.
    void control(const QStringList& arguments, int timeoutMs = 60'000) const;
    void run(const QString& program, const QStringList& arguments, int timeoutMs) const;
    // Whether the node's port mapper still listens, whoever started or stopped it.
    bool isPortMapperRunning() const;

    QString m_directory;
    QString m_user; // the operating-system user the node runs as; empty: the caller
    QString m_nodeName;
    QString m_extraAddress;
    quint16 m_port = 0;
    quint16 m_distributionPort = 0;
    quint16 m_mapperPort = 0;
    QProcessEnvironment m_environment;
    bool m_running = false;
};
