// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "demo/privatecluster.h"

#include <QObject>
#include <QProcess>
#include <QSet>
#include <QThreadPool>
#include <QUrl>
#include <functional>
#include <memory>

class CancellationFeed;
class PrivateBroker;

// The whole system on one machine, for `outbox-console --demo`: a private PostgreSQL and, when rabbitmq-server is
// installed, a private RabbitMQ; the orders service; a relay publishing with confirms into a topic exchange; the
// reference consumer applying order.created events through the inbox; a second producer cancelling orders, whose
// order.cancelled events no queue is bound for (the broker returns them: the failures to repair); and a load
// generator sending duplicate-heavy traffic. Without RabbitMQ the relay publishes into a sink that fails a quarter of
// the publishes instead. stop() (and the destructor) end every process and remove the private servers.
class DemoSystem final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoSystem)
public:
    struct Programs {
        QString ordersService;
        QString outboxctl;
    };

    // Finds the programs next to `applicationDir` (an installed bin directory) or in a build tree beside it.
    static Programs locate(const QString& applicationDir);

    static const QString Exchange; // where the relay publishes
    static const QString CountsQueue; // the consumer's queue, bound for order.created
    static const QString CancellationsQueue; // bound for order.cancelled by fixRouting()
    // Messages the consumer's queue holds before the broker refuses publishes (reject-publish: basic.nack): about a
    // minute of traffic with the consumer stopped, and room for the bursts after the other faults.
    static constexpr int DefaultQueueLimit = 1'000;

    DemoSystem(Programs programs, const QString& keepDir = {}, QObject* parent = nullptr);
    ~DemoSystem() final override;

    // Whether to run a private RabbitMQ when rabbitmq-server is installed (the default); false publishes into the
    // fault-injecting sink as when it is not. Before start().
    void setUseRabbitMq(bool use) { m_useRabbitMq = use; }
    // The consumer queue's limit (DefaultQueueLimit). Before start().
    void setQueueLimit(int messages) { m_queueLimit = messages; }

    // Starts everything without holding up the caller's thread: the servers and the schema on the demo's own thread,
    // then the processes. stage() says each step as it begins; serversStarted() follows once PostgreSQL (migrated)
    // and the broker are up, ready() once the service listens and traffic flows, or startFailed() naming what could
    // not start.
    void start();
    // Ends every process and removes the private servers, saying each step through stage(); waits for a start in
    // progress first. Never throws: a process or server already gone (stopped or killed by hand) is stopped.
    void stop();

    ConnectionSettings settings() const { return m_cluster.settings(); }
    const QUrl& serviceUrl() const { return m_serviceUrl; }
    const PrivateCluster& cluster() const { return m_cluster; }
    // The private RabbitMQ, or nullptr when the demo runs on the fault-injecting sink.
    const PrivateBroker* broker() const { return m_broker.get(); }
    // Why there is no broker (empty when there is one).
    const QString& brokerAbsence() const { return m_brokerAbsence; }
    // One line per component, "demo: NAME ADDRESS", for the user to point psql, rabbitmqctl, curl or a second
    // console at; printed on stdout when the service listens.
    QStringList components() const;

    // The operator's repair of the unroutable events: a second consumer declares a queue bound for order.cancelled,
    // so they route from now on (dead rows need a Retry). Only with the broker.
    void fixRouting();

    // Faults to practise on (the console's Demo menu). Each returns at once and says what it did through injected();
    // the slow ones (rabbitmqctl, pg_ctl) run on a thread of their own.
    void stopBrokerFor(int ms); // every AMQP connection is cut; the broker comes back after `ms`
    static constexpr int RelayRestartMs = 5'000; // how long the demo, as the relay's supervisor, waits to restart it
    void killRelay(); // SIGKILL, as a crash; the demo restarts it like a supervisor would
    void restartDatabase(); // pg_ctl stop -m immediate, then start: every connection is cut
    void stopConsumer(); // the queue fills to its limit, then the broker refuses publishes (basic.nack)
    void startConsumer();
    bool isConsumerRunning() const;
    void raiseQueueLimit(); // the repair of those refusals: a limit of 100,000
    // Whether a repair was made (each is made once: a second would change nothing); repairsChanged() tells.
    bool isRoutingFixed() const { return m_routingFixed; }
    bool isQueueLimitRaised() const { return m_queueLimitRaised; }

signals:
    // A step of start() or stop() beginning: "Starting PostgreSQL…".
    void stage(const QString& what);
    void serversStarted();
    void startFailed(const QString& why);
    void ready();
    // The consumer of the counts queue started or ended (also on its own).
    void consumerRunningChanged(bool running);
    // fixRouting() or raiseQueueLimit() was made.
    void repairsChanged();
    // A demo process ended on its own (not through stop() or a fault); `output` is its last lines.
    void processFailed(const QString& program, const QString& output);
    // What a fault or a repair did, for the status bar.
    void injected(const QString& what);

private:
    // What start() does on the demo's thread: the servers and the schema. Throws OutboxError.
    void startServers();
    // The rest of start(), back on the caller's thread.
    void startProcesses();
    // Calls stage() on the caller's thread, from the demo's.
    void sayFromServerThread(const QString& what);
    QProcess* launch(const QString& program, const QStringList& arguments);
    // Calls `then` once `process` prints a line starting with `prefix` (first time only).
    void onLine(QProcess* process, const QString& prefix, std::function<void(const QString& line)> then);
    QProcess* launchConsumer(const QString& queue, const QString& bindingKey);
    void startRelay();
    void startClients();
    // Stops `process` on purpose (SIGTERM): its exit is not a failure.
    void end(QProcess* process);
    void superviseRelay(const QString& howItEnded);
    // Runs `fault` on the fault thread, then says `done`.
    void inject(std::function<void()> fault, const QString& done);

    Programs m_programs;
    PrivateCluster m_cluster;
    std::unique_ptr<PrivateBroker> m_broker;
    QString m_brokerAbsence;
    std::unique_ptr<CancellationFeed> m_cancellations;
    QUrl m_serviceUrl;
    QList<QProcess*> m_processes;
    QSet<QProcess*> m_endedOnPurpose;
    QProcess* m_relay = nullptr;
    QProcess* m_consumer = nullptr;
    QThreadPool m_faults; // one thread: initdb, rabbitmqctl and pg_ctl wait for their work
    bool m_useRabbitMq = true;
    int m_queueLimit = DefaultQueueLimit;
    bool m_routingFixed = false;
    bool m_queueLimitRaised = false;
    bool m_relayKilled = false; // by killRelay(), so its end is told as what it was
    bool m_stopping = false;
};
