// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/demosystem.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "demo/cancellationfeed.h"
#include "demo/privatebroker.h"

#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QStandardPaths>
#include <QTimer>
#include <memory>
#include <utility>

namespace {

constexpr int StopTimeoutMs = 10'000;

QString findProgram(const QString& applicationDir, const QString& name)
{
    const QDir dir(applicationDir);
    for (const QString& candidate : { dir.filePath(name), dir.filePath(QStringLiteral("../%1/%1").arg(name)),
             dir.filePath(QStringLiteral("../app/%1/%1").arg(name)) }) {
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    }
    QString onPath = QStandardPaths::findExecutable(name);
    if (onPath.isEmpty())
        throw OutboxError(OutboxError::Kind::Other, QStringLiteral("demo: cannot find the program %1").arg(name));
    return onPath;
}

} // namespace

const QString DemoSystem::Exchange = QStringLiteral("demo-events");
const QString DemoSystem::CountsQueue = QStringLiteral("order-counts");
const QString DemoSystem::CancellationsQueue = QStringLiteral("order-cancellations");

DemoSystem::Programs DemoSystem::locate(const QString& applicationDir)
{
    return Programs { findProgram(applicationDir, QStringLiteral("orders-service")),
        findProgram(applicationDir, QStringLiteral("outboxctl")) };
}

DemoSystem::DemoSystem(Programs programs, const QString& keepDir, QObject* parent)
    : QObject(parent)
    , m_programs(std::move(programs))
    , m_cluster(keepDir)
{
    m_faults.setMaxThreadCount(1);
}

DemoSystem::~DemoSystem()
{
    stop();
}

QProcess* DemoSystem::launch(const QString& program, const QStringList& arguments)
{
    auto* process = new QProcess(this);
    process->setProcessChannelMode(QProcess::MergedChannels);
    m_processes.append(process);
    connect(process, &QProcess::finished, this, [this, process, program] {
        if (m_stopping || m_endedOnPurpose.remove(process))
            return;
        const QString output = QString::fromLocal8Bit(process->readAll()).trimmed().section(QLatin1Char('\n'), -5);
        if (process != m_relay) {
            emit processFailed(QFileInfo(program).fileName(), output);
            return;
        }
        // A process ended by a signal said nothing about it: what it printed last may be minutes old, so only an
        // exit is quoted, as what it was.
        const bool killedHere = std::exchange(m_relayKilled, false);
        if (process->exitStatus() == QProcess::CrashExit)
            superviseRelay(killedHere ? tr("killed with SIGKILL from the Demo menu") : tr("killed by a signal"));
        else
            superviseRelay(tr("exit code %1; its last line: %2")
                               .arg(process->exitCode())
                               .arg(output.section(QLatin1Char('\n'), -1)));
    });
    process->start(program, arguments);
    return process;
}

void DemoSystem::onLine(QProcess* process, const QString& prefix, std::function<void(const QString& line)> then)
{
    auto seen = std::make_shared<bool>(false);
    connect(process, &QProcess::readyRead, this, [this, process, prefix, then = std::move(then), seen] {
        // stop() reads a process's last output while it waits for it to end: nothing may start then.
        while (!m_stopping && !*seen && process->canReadLine()) {
            const QString line = QString::fromLocal8Bit(process->readLine()).trimmed();
            if (line.contains(prefix)) {
                *seen = true;
                then(line);
            }
        }
    });
}

void DemoSystem::start()
{
    emit stage(tr("Starting PostgreSQL…"));
    QPointer<DemoSystem> self(this);
    // Until startProcesses() runs, only this thread touches the cluster and the broker: the menu that injects faults
    // into them is built on serversStarted(), and stop() waits for this thread first.
    m_faults.start([this, self] {
        QString failure;
        try {
            startServers();
        } catch (const OutboxError& error) {
            failure = error.message();
        }
        QMetaObject::invokeMethod(
            self,
            [this, failure] {
                if (m_stopping)
                    return;
                if (!failure.isEmpty()) {
                    emit startFailed(failure);
                    return;
                }
                startProcesses();
            },
            Qt::QueuedConnection);
    });
}

void DemoSystem::sayFromServerThread(const QString& what)
{
    // m_stopping is read where it is written: a step begun before the stop is not said after it.
    QMetaObject::invokeMethod(
        this,
        [this, what] {
            if (!m_stopping)
                emit stage(what);
        },
        Qt::QueuedConnection);
}

void DemoSystem::startServers()
{
    m_cluster.start();
    sayFromServerThread(tr("Creating the schema…"));
    {
        DbSession session(m_cluster.settings(), QStringLiteral("demo-setup"));
        SchemaMigrator migrator(session);
        migrator.migrate();
        migrator.grantRoles();
    }
    if (!m_useRabbitMq) {
        m_brokerAbsence = tr("started without RabbitMQ: the relay publishes into a fault-injecting sink");
    } else if (!PrivateBroker::isInstalled()) {
        m_brokerAbsence = tr("rabbitmq-server is not installed: the relay publishes into a fault-injecting sink");
    } else {
        sayFromServerThread(tr("Starting RabbitMQ…"));
        try {
            m_broker = std::make_unique<PrivateBroker>();
            m_broker->start();
            m_broker->limitQueue(CountsQueue, m_queueLimit);
        } catch (const OutboxError& error) {
            // A demo without its broker still shows the rest; the reason is on stdout and in the status bar.
            m_broker.reset();
            m_brokerAbsence = tr("RabbitMQ did not start (%1): the relay publishes into a fault-injecting sink")
                                  .arg(error.message());
        }
    }
}

void DemoSystem::startProcesses()
{
    emit stage(m_broker ? tr("Starting the orders service, the consumer, the relay and the traffic…")
                        : tr("Starting the orders service, the relay and the traffic…"));
    emit serversStarted();
    const QString dsn = m_cluster.dsn();
    QProcess* service = launch(m_programs.ordersService,
        { QStringLiteral("--dsn"), dsn, QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0") });
    // The service announces its address on its first line; traffic starts once it listens.
    onLine(service, QStringLiteral("listening on "), [this](const QString& line) {
        m_serviceUrl = QUrl(line.mid(line.indexOf(QLatin1String("http://"))));
        startClients();
        emit ready();
    });
    if (!m_broker) {
        startRelay();
        return;
    }
    startConsumer();
    m_cancellations = std::make_unique<CancellationFeed>(m_cluster.settings(), 4'000);
}

QProcess* DemoSystem::launchConsumer(const QString& queue, const QString& bindingKey)
{
    return launch(m_programs.outboxctl,
        { QStringLiteral("consume"), QStringLiteral("--dsn"), m_cluster.dsn(), QStringLiteral("--from"),
            m_broker->uri() + QStringLiteral("?exchange=") + Exchange, QStringLiteral("--queue"), queue,
            QStringLiteral("--consumer"), queue, QStringLiteral("--bind"), bindingKey });
}

void DemoSystem::startRelay()
{
    // Few attempts and a short backoff, so the operator sees retries, lag and dead rows within a minute. Without a
    // broker, one that fails a quarter of the publishes.
    const QString sink
        = m_broker ? m_broker->uri() + QStringLiteral("?exchange=") + Exchange : QStringLiteral("fault:0.25,20");
    m_relay = launch(m_programs.outboxctl,
        { QStringLiteral("relay"), QStringLiteral("--dsn"), m_cluster.dsn(), QStringLiteral("--workers"),
            QStringLiteral("2"), QStringLiteral("--batch"), QStringLiteral("50"), QStringLiteral("--sink"), sink,
            QStringLiteral("--max-attempts"), QStringLiteral("4"), QStringLiteral("--backoff-base-ms"),
            QStringLiteral("2000") });
}

void DemoSystem::fixRouting()
{
    if (!m_broker || m_routingFixed)
        return;
    m_routingFixed = true;
    emit repairsChanged();
    launchConsumer(CancellationsQueue, QStringLiteral("order.cancelled"));
    emit injected(tr("Routing fixed: queue %1 is bound for order.cancelled; retry the dead rows to publish them")
                      .arg(CancellationsQueue));
}

void DemoSystem::end(QProcess* process)
{
    if (!process || process->state() == QProcess::NotRunning)
        return;
    m_endedOnPurpose.insert(process);
    process->terminate();
}

void DemoSystem::inject(std::function<void()> fault, const QString& done)
{
    QPointer<DemoSystem> self(this);
    m_faults.start([self, fault = std::move(fault), done] {
        QString said = done;
        try {
            fault();
        } catch (const OutboxError& error) {
            said = error.message();
        }
        QMetaObject::invokeMethod(
            self, [self, said] { emit self->injected(said); }, Qt::QueuedConnection);
    });
}

void DemoSystem::stopBrokerFor(int ms)
{
    if (!m_broker)
        return;
    PrivateBroker* broker = m_broker.get();
    inject([broker] { broker->stopApplication(); },
        tr("Broker stopped for %n second(s): rows wait, and drain when it is back", nullptr, ms / 1000));
    QTimer::singleShot(ms, this, [this, broker] {
        if (!m_stopping)
            inject([broker] { broker->startApplication(); }, tr("Broker back after the outage"));
    });
}

void DemoSystem::killRelay()
{
    if (!m_relay || m_relay->state() == QProcess::NotRunning)
        return;
    m_relayKilled = true;
    m_relay->kill(); // a crash: the supervisor below restarts it
}

// What systemd's Restart=on-failure does for a relay host: a relay that ended (killed, or unable to register while
// the database was away) is started again after a pause.
void DemoSystem::superviseRelay(const QString& howItEnded)
{
    emit injected(
        tr("The relay ended (%1); it is restarted in %n second(s)", nullptr, RelayRestartMs / 1000).arg(howItEnded));
    QTimer::singleShot(RelayRestartMs, this, [this] {
        if (m_stopping)
            return;
        startRelay();
        emit injected(tr("Relay restarted: it takes over the leases of the one before when they expire"));
    });
}

void DemoSystem::restartDatabase()
{
    emit injected(tr("PostgreSQL stopped with -m immediate; every connection is cut"));
    PrivateCluster* cluster = &m_cluster;
    inject(
        [cluster] {
            cluster->crash();
            cluster->start();
        },
        tr("PostgreSQL is back after crash recovery"));
}

void DemoSystem::raiseQueueLimit()
{
    if (!m_broker || m_queueLimitRaised)
        return;
    m_queueLimitRaised = true;
    emit repairsChanged();
    PrivateBroker* broker = m_broker.get();
    inject([broker] { broker->limitQueue(CountsQueue, 100'000); },
        tr("Queue %1 may hold 100,000 messages now; retry the refused rows").arg(CountsQueue));
}

bool DemoSystem::isConsumerRunning() const
{
    return m_consumer && m_consumer->state() != QProcess::NotRunning;
}

void DemoSystem::stopConsumer()
{
    if (!isConsumerRunning())
        return;
    end(m_consumer);
    emit injected(tr("Consumer stopped: order.created events wait in queue %1; past %2 the broker refuses them")
                      .arg(CountsQueue)
                      .arg(m_queueLimit));
}

void DemoSystem::startConsumer()
{
    if (!m_broker || isConsumerRunning())
        return;
    const bool first = m_consumer == nullptr;
    m_consumer = launchConsumer(CountsQueue, QStringLiteral("order.created"));
    // The consumer declares its queue and binds it; the relay starts once one says so, or every first event would be
    // unroutable. Any consumer's word will do: the first may be stopped before it said it.
    onLine(m_consumer, QStringLiteral("receiving from queue"), [this](const QString&) {
        if (!m_relay)
            startRelay();
    });
    // Told at once, so that a menu never offers to start it twice; an end of its own is told when it happens.
    connect(m_consumer, &QProcess::finished, this, [this] {
        if (!m_stopping)
            emit consumerRunningChanged(false);
    });
    emit consumerRunningChanged(true);
    if (!first) {
        emit injected(
            tr("Consumer started: it drains queue %1, and its inbox drops what it applied before").arg(CountsQueue));
    }
}

QStringList DemoSystem::components() const
{
    QStringList lines { QStringLiteral("demo: postgresql %1").arg(m_cluster.dsn()) };
    if (m_broker) {
        lines << QStringLiteral("demo: rabbitmq %1 (exchange %2; rabbitmqctl: %3)")
                     .arg(m_broker->uri(), Exchange, m_broker->controlCommand());
    } else {
        lines << QStringLiteral("demo: rabbitmq none (%1)").arg(m_brokerAbsence);
    }
    if (!m_serviceUrl.isEmpty())
        lines << QStringLiteral("demo: orders-service %1").arg(m_serviceUrl.toString());
    return lines;
}

void DemoSystem::startClients()
{
    launch(m_programs.outboxctl,
        { QStringLiteral("loadgen"), QStringLiteral("--url"), m_serviceUrl.toString(), QStringLiteral("--rate"),
            QStringLiteral("15"), QStringLiteral("--duplicates"), QStringLiteral("0.25"),
            QStringLiteral("--mismatches"), QStringLiteral("0.03"), QStringLiteral("--timeout-ms"),
            QStringLiteral("1500") });
}

void DemoSystem::stop()
{
    if (m_stopping)
        return;
    m_stopping = true;
    emit stage(tr("Stopping the demo's processes…"));
    m_faults.waitForDone(); // a start or a fault in progress (rabbitmqctl, pg_ctl) ends first
    // Clients first, then the service and the relay (which finish what is in hand), then the database.
    // A copy: waiting for a process to finish delivers its signals, and a handler must not change the list
    // under our feet.
    const QList<QProcess*> processes = m_processes;
    for (auto it = processes.crbegin(); it != processes.crend(); ++it) {
        QProcess* process = *it;
        if (process->state() == QProcess::NotRunning)
            continue;
        process->terminate();
        if (!process->waitForFinished(StopTimeoutMs)) {
            process->kill();
            process->waitForFinished();
        }
    }
    qDeleteAll(m_processes);
    m_processes.clear();
    m_cancellations.reset();
    if (m_broker) {
        emit stage(tr("Stopping RabbitMQ…"));
        m_broker->stop();
    }
    emit stage(tr("Stopping PostgreSQL…"));
    m_cluster.stop();
}
