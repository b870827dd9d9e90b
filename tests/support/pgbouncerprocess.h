// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "demo/serveraccount.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <unistd.h>

// A real PgBouncer (Debian's pgbouncer) in front of the test cluster that the libpq environment names, as most
// services run it: pool_mode = transaction with a small pool, so that a client's transactions run on server
// sessions that other clients use in between. Every client logs in to the server as the environment's user
// (auth_type = any), whatever user it names. Listens on 127.0.0.1 only; stopped and removed with the object, and
// killed with the test's process if that dies first (setpriv --pdeathsig), so a crashed test leaves none behind.
class PgBouncerProcess final {
    Q_DISABLE_COPY_MOVE(PgBouncerProcess)
public:
    static constexpr const char* Binary = "/usr/sbin/pgbouncer";

    // `serverConnections`: the pool size per database (and user).
    explicit PgBouncerProcess(int serverConnections)
        : m_serverConnections(serverConnections)
    { }
    ~PgBouncerProcess() { stop(); }

    // Starts it; what went wrong, or an empty string once it accepts connections.
    QString start()
    {
        if (!QFile::exists(QLatin1String(Binary)))
            return QStringLiteral("%1 is missing: install Debian's pgbouncer").arg(QLatin1String(Binary));
        if (!m_dir.isValid())
            return QStringLiteral("no temporary directory");
        m_port = freePort();
        const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QString host = env.value(QStringLiteral("PGHOST"), QStringLiteral("localhost"));
        QFile ini(m_dir.filePath(QStringLiteral("pgbouncer.ini")));
        if (!ini.open(QIODevice::WriteOnly))
            return ini.errorString();
        ini.write(QStringLiteral("[databases]\n"
                                 "* = host=%1 port=%2 user=%3 password=%4\n"
                                 "[pgbouncer]\n"
                                 "listen_addr = 127.0.0.1\n"
                                 "listen_port = %5\n"
                                 "unix_socket_dir =\n"
                                 "auth_type = any\n"
                                 "pool_mode = transaction\n"
                                 "default_pool_size = %6\n"
                                 "max_client_conn = 200\n"
                                 "logfile = %7\n")
                      .arg(host, env.value(QStringLiteral("PGPORT"), QStringLiteral("5432")),
                          env.value(QStringLiteral("PGUSER"), QStringLiteral("postgres")),
                          env.value(QStringLiteral("PGPASSWORD")))
                      .arg(m_port)
                      .arg(m_serverConnections)
                      .arg(logFile())
                      .toUtf8());
        ini.close();
        // PgBouncer refuses to run as root: as root it runs as postgres, who must own its directory.
        const QString user = ::geteuid() == 0 ? QStringLiteral("postgres") : QString();
        if (!user.isEmpty()) {
            if (QString problem = ServerAccount::giveTo(m_dir.path(), user, QStringLiteral("postgresql"));
                !problem.isEmpty())
                return problem;
        }
        // In the foreground, a child of this process: setpriv becomes PgBouncer, as postgres when root.
        QStringList arguments { QStringLiteral("--pdeathsig"), QStringLiteral("KILL") };
        if (!user.isEmpty()) {
            arguments << QStringLiteral("--reuid=") + user << QStringLiteral("--regid=") + user
                      << QStringLiteral("--init-groups");
        }
        // What it says goes to its log file too; a pipe nobody reads would stop it once full.
        m_process.setStandardOutputFile(QProcess::nullDevice());
        m_process.setStandardErrorFile(QProcess::nullDevice());
        m_process.start(QStringLiteral("setpriv"), arguments << QLatin1String(Binary) << ini.fileName());
        if (!m_process.waitForStarted())
            return QStringLiteral("cannot start setpriv: ") + m_process.errorString();
        if (!QTest::qWaitFor([this] { return accepts() || m_process.state() == QProcess::NotRunning; }, 10'000)
            || m_process.state() == QProcess::NotRunning)
            return QStringLiteral("pgbouncer does not accept connections: ") + log();
        return QString();
    }

    // A DSN to `database` through the pooler.
    QString dsn(const QString& database) const
    {
        return QStringLiteral("host=127.0.0.1 port=%1 dbname=%2").arg(m_port).arg(database);
    }
    int port() const { return m_port; }
    QString log() const
    {
        QFile file(logFile());
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(10'000)) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

private:
    QString logFile() const { return m_dir.filePath(QStringLiteral("pgbouncer.log")); }

    static int freePort()
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        return probe.serverPort();
    }

    bool accepts() const
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, quint16(m_port));
        return socket.waitForConnected(200);
    }

    int m_serverConnections;
    QTemporaryDir m_dir;
    int m_port = 0;
    QProcess m_process;
};
