// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/demosystem.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

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

DemoSystem::Programs DemoSystem::locate(const QString& applicationDir)
{
    return Programs { findProgram(applicationDir, QStringLiteral("orders-service")),
        findProgram(applicationDir, QStringLiteral("outboxctl")) };
}

DemoSystem::DemoSystem(Programs programs, const QString& keepDir, QObject* parent)
    : QObject(parent)
    , m_programs(std::move(programs))
    , m_cluster(keepDir)
{ }

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
        if (!m_stopping) {
            const QString output = QString::fromLocal8Bit(process->readAll()).trimmed().section(QLatin1Char('\n'), -5);
            emit processFailed(QFileInfo(program).fileName(), output);
        }
    });
    process->start(program, arguments);
    return process;
}

void DemoSystem::start()
{
    m_cluster.start();
    {
        DbSession session(m_cluster.settings(), QStringLiteral("demo-setup"));
        SchemaMigrator migrator(session);
        migrator.migrate();
        migrator.grantRoles();
    }
    const QString dsn = m_cluster.dsn();
    QProcess* service = launch(m_programs.ordersService,
        { QStringLiteral("--dsn"), dsn, QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0") });
    // The service announces its address on its first line; traffic starts once it listens.
    connect(service, &QProcess::readyRead, this, [this, service] {
        // stop() reads the service's last output while it waits for it to end: no clients then.
        if (m_stopping || !m_serviceUrl.isEmpty() || !service->canReadLine())
            return;
        const QString line = QString::fromLocal8Bit(service->readLine()).trimmed();
        if (!line.startsWith(QLatin1String("listening on ")))
            return;
        m_serviceUrl = QUrl(line.mid(13));
        startClients();
        emit ready();
    });
    // A broker that fails a quarter of the publishes, with a short backoff and few attempts, so the operator
    // sees retries, lag and dead rows within a minute.
    launch(m_programs.outboxctl,
        { QStringLiteral("relay"), QStringLiteral("--dsn"), dsn, QStringLiteral("--workers"), QStringLiteral("2"),
            QStringLiteral("--batch"), QStringLiteral("50"), QStringLiteral("--sink"), QStringLiteral("fault:0.25,20"),
            QStringLiteral("--max-attempts"), QStringLiteral("4"), QStringLiteral("--backoff-base-ms"),
            QStringLiteral("2000") });
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
    m_cluster.stop();
}
