// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/privatecluster.h"

#include "db/outboxerror.h"
#include "demo/serveraccount.h"

#include <QDir>
#include <QTemporaryDir>
#include <QVersionNumber>
#include <unistd.h>

namespace {

// Server binaries get this user when run by root; Debian's postgresql package creates it.
const QString UnprivilegedUser = QStringLiteral("postgres");
constexpr int Port = 5432; // only names the socket file; there is no TCP listener

OutboxError failure(const QString& what)
{
    return OutboxError(OutboxError::Kind::Other, QStringLiteral("private PostgreSQL: %1").arg(what));
}

void giveTo(const QString& path, const QString& user)
{
    if (const QString problem = ServerAccount::giveTo(path, user, QStringLiteral("postgresql")); !problem.isEmpty())
        throw failure(problem);
}

} // namespace

QString PrivateCluster::binDirectory()
{
    QString configured = qEnvironmentVariable("PG_BINDIR");
    if (!configured.isEmpty())
        return configured;
    QVersionNumber newest;
    QString directory;
    const QDir versions(QStringLiteral("/usr/lib/postgresql"));
    for (const QString& version : versions.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QVersionNumber number = QVersionNumber::fromString(version);
        if (QFile::exists(versions.filePath(version + QStringLiteral("/bin/initdb"))) && number > newest) {
            newest = number;
            directory = versions.filePath(version + QStringLiteral("/bin"));
        }
    }
    if (directory.isEmpty())
        throw failure(QStringLiteral("no PostgreSQL server binaries in /usr/lib/postgresql (install postgresql)"));
    return directory;
}

PrivateCluster::PrivateCluster(const QString& keepDir)
    : m_keep(!keepDir.isEmpty())
    , m_user(::geteuid() == 0 ? UnprivilegedUser : QString())
{
    if (m_keep) {
        m_directory = QDir(keepDir).absolutePath();
        if (!QDir().mkpath(m_directory))
            throw failure(QStringLiteral("cannot create %1").arg(m_directory));
    } else {
        QTemporaryDir temporary(QDir::tempPath() + QStringLiteral("/outbox-demo-XXXXXX"));
        if (!temporary.isValid())
            throw failure(QStringLiteral("cannot create a temporary directory: %1").arg(temporary.errorString()));
        temporary.setAutoRemove(false); // stop() removes it, after the server is down
        m_directory = temporary.path();
    }
    if (!m_user.isEmpty())
        giveTo(m_directory, m_user);
}

PrivateCluster::~PrivateCluster()
{
    stop();
}

void PrivateCluster::run(const QString& program, const QStringList& arguments) const
{
    const QString problem
        = ServerAccount::run(program, m_user, QDir(binDirectory()).filePath(program), arguments, 120'000);
    if (!problem.isEmpty())
        throw failure(problem);
}

void PrivateCluster::start()
{
    if (m_running)
        return;
    const QString data = m_directory + QStringLiteral("/data");
    if (!QFile::exists(data + QStringLiteral("/PG_VERSION"))) {
        run(QStringLiteral("initdb"),
            { QStringLiteral("--pgdata=") + data, QStringLiteral("--username=postgres"), QStringLiteral("--auth=trust"),
                QStringLiteral("--no-sync"), QStringLiteral("--encoding=UTF8"), QStringLiteral("--locale=C.UTF-8") });
    }
    // The socket lives in the cluster's own directory; TCP only where listenOnTcp() asked for it.
    const quint16 port = m_tcpAddress.isEmpty() ? Port : m_tcpPort;
    const QString options = QStringLiteral("-c listen_addresses='%1' -c unix_socket_directories='%2' -p %3 "
                                           "-c fsync=off -c max_connections=100")
                                .arg(m_tcpAddress, m_directory)
                                .arg(port);
    if (!m_tcpAddress.isEmpty()) {
        QFile hba(data + QStringLiteral("/pg_hba.conf"));
        const QByteArray line = QStringLiteral("host all all %1 trust\n").arg(m_tcpClients).toUtf8();
        if (!hba.open(QIODevice::ReadWrite) || (!hba.readAll().contains(line) && hba.write(line) != line.size()))
            throw failure(QStringLiteral("cannot add the TCP clients to %1").arg(hba.fileName()));
    }
    run(QStringLiteral("pg_ctl"),
        { QStringLiteral("--pgdata=") + data, QStringLiteral("--wait"),
            QStringLiteral("--log=") + m_directory + QStringLiteral("/server.log"),
            QStringLiteral("--options=") + options, QStringLiteral("start") });
    m_running = true;
}

void PrivateCluster::stopServer(const QString& mode) const
{
    // A server stopped or killed by someone else (an operator's pg_ctl, the OOM killer) is stopped, though pg_ctl
    // would refuse to say so ("PID file does not exist", "could not send stop signal").
    if (!ServerAccount::isRunning(m_directory + QStringLiteral("/data/postmaster.pid")))
        return;
    run(QStringLiteral("pg_ctl"),
        { QStringLiteral("--pgdata=") + m_directory + QStringLiteral("/data"), QStringLiteral("--wait"),
            QStringLiteral("--mode=") + mode, QStringLiteral("stop") });
}

void PrivateCluster::crash()
{
    if (!m_running)
        return;
    m_running = false;
    stopServer(QStringLiteral("immediate"));
}

void PrivateCluster::stop()
{
    if (m_running) {
        m_running = false;
        try {
            stopServer(QStringLiteral("fast"));
        } catch (const OutboxError& error) {
            // The directory still goes: a postmaster that finds its lock file gone shuts itself down within a minute.
            qWarning("%s", error.what());
        }
    }
    if (!m_keep && !m_directory.isEmpty() && QDir(m_directory).exists())
        QDir(m_directory).removeRecursively();
}

void PrivateCluster::listenOnTcp(const QString& address, quint16 port, const QString& clients)
{
    m_tcpAddress = address;
    m_tcpPort = port;
    m_tcpClients = clients;
}

QString PrivateCluster::dsn() const
{
    return QStringLiteral("host='%1' port=%2 user=postgres dbname=postgres")
        .arg(m_directory)
        .arg(m_tcpAddress.isEmpty() ? Port : m_tcpPort);
}

QString PrivateCluster::tcpDsn() const
{
    return QStringLiteral("host=%1 port=%2 user=postgres dbname=postgres").arg(m_tcpAddress).arg(m_tcpPort);
}

ConnectionSettings PrivateCluster::settings() const
{
    return ConnectionSettings::fromDsn(dsn());
}
