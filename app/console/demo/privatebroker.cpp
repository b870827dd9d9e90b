// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/privatebroker.h"

#include "db/outboxerror.h"
#include "demo/serveraccount.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <unistd.h>

namespace {

const QString Scripts = QStringLiteral("/usr/lib/rabbitmq/bin");
const QString UnprivilegedUser = QStringLiteral("rabbitmq"); // created by Debian's rabbitmq-server package

OutboxError failure(const QString& what)
{
    return OutboxError(OutboxError::Kind::Other, QStringLiteral("private RabbitMQ: %1").arg(what));
}

// A loopback port nobody listens on now. Another process may take it before the node does; start() then fails
// with the node's reason, and the demo says so.
quint16 freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        throw failure(QStringLiteral("no free loopback port: %1").arg(probe.errorString()));
    return probe.serverPort();
}

void writeFile(const QString& path, const QByteArray& content, QFile::Permissions permissions)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size()
        || !file.setPermissions(permissions))
        throw failure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
}

void giveTo(const QString& path, const QString& user)
{
    if (const QString problem = ServerAccount::giveTo(path, user, QStringLiteral("rabbitmq-server"));
        !problem.isEmpty())
        throw failure(problem);
}

} // namespace

bool PrivateBroker::isInstalled()
{
    return QFile::exists(Scripts + QStringLiteral("/rabbitmq-server"));
}

PrivateBroker::PrivateBroker()
    : m_user(::geteuid() == 0 ? UnprivilegedUser : QString())
    , m_nodeName(QStringLiteral("outbox-demo-%1-%2@localhost")
                     .arg(QCoreApplication::applicationPid())
                     .arg(QRandomGenerator::global()->bounded(1'000'000)))
{
    QTemporaryDir temporary(QDir::tempPath() + QStringLiteral("/outbox-broker-XXXXXX"));
    if (!temporary.isValid())
        throw failure(QStringLiteral("cannot create a temporary directory: %1").arg(temporary.errorString()));
    temporary.setAutoRemove(false); // stop() removes it, after the node is down
    m_directory = temporary.path();
}

PrivateBroker::~PrivateBroker()
{
    stop();
}

QString PrivateBroker::uri() const
{
    return uri(QStringLiteral("127.0.0.1"));
}

QString PrivateBroker::uri(const QString& address) const
{
    return QStringLiteral("amqp://guest:guest@%1:%2/").arg(address).arg(m_port);
}

QString PrivateBroker::controlCommand() const
{
    return QStringLiteral("%1env HOME=%2 ERL_EPMD_PORT=%3 %4/rabbitmqctl -n %5")
        .arg(m_user.isEmpty() ? QString() : QStringLiteral("runuser -u %1 -- ").arg(m_user), m_directory)
        .arg(m_mapperPort)
        .arg(Scripts, m_nodeName);
}

void PrivateBroker::run(const QString& program, const QStringList& arguments, int timeoutMs) const
{
    const QString binary = program.startsWith(QLatin1Char('/')) ? program : Scripts + QLatin1Char('/') + program;
    // Its own HOME, because that is where the node and its tools find the cookie (not the system node's).
    const QString problem
        = ServerAccount::run(QFileInfo(binary).fileName() + QLatin1Char(' ') + arguments.join(QLatin1Char(' ')), m_user,
            binary, arguments, timeoutMs, m_environment, m_directory);
    if (!problem.isEmpty())
        throw failure(problem);
}

void PrivateBroker::control(const QStringList& arguments, int timeoutMs) const
{
    run(QStringLiteral("rabbitmqctl"),
        QStringList { QStringLiteral("-q"), QStringLiteral("-n"), m_nodeName } + arguments, timeoutMs);
}

void PrivateBroker::start()
{
    if (m_running)
        return;
    // A port found free may be taken by another process before the node binds it (outgoing connections draw from
    // the same range): then the node dies at boot, and it is tried again on other ports.
    constexpr int Attempts = 3;
    for (int attempt = 1;; ++attempt) {
        try {
            launch();
            return;
        } catch (const OutboxError& error) {
            abandon();
            if (attempt == Attempts)
                throw failure(
                    QStringLiteral("no start in %1 attempts; the last: %2").arg(Attempts).arg(error.message()));
        }
    }
}

void PrivateBroker::abandon()
{
    m_running = false;
    for (const auto& [program, arguments] :
        { std::pair { QStringLiteral("rabbitmqctl"),
              QStringList { QStringLiteral("-q"), QStringLiteral("-n"), m_nodeName, QStringLiteral("stop") } },
            std::pair { QStringLiteral("/usr/bin/epmd"), QStringList { QStringLiteral("-kill") } } }) {
        try {
            run(program, arguments, 30'000);
        } catch (const OutboxError&) {
            // Already gone.
        }
    }
}

void PrivateBroker::launch()
{
    m_port = freePort();
    m_distributionPort = freePort();
    m_mapperPort = freePort();
    // Everything the node reads or writes is here: the cookie its command-line tools share with it (HOME), its
    // configuration (the AMQP listener on the loopback only, no plugins) and its data and logs.
    writeFile(m_directory + QStringLiteral("/.erlang.cookie"),
        QByteArray::number(QRandomGenerator::global()->generate64(), 36).toUpper(), QFile::ReadOwner);
    QString configuration = QStringLiteral("listeners.tcp.1 = 127.0.0.1:%1\n").arg(m_port);
    if (!m_extraAddress.isEmpty()) // guest may log in from the loopback only, unless told otherwise
        configuration
            += QStringLiteral("listeners.tcp.2 = %1:%2\nloopback_users = none\n").arg(m_extraAddress).arg(m_port);
    writeFile(m_directory + QStringLiteral("/rabbitmq.conf"), configuration.toUtf8(),
        QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    writeFile(m_directory + QStringLiteral("/enabled_plugins"), QByteArrayLiteral("[]."),
        QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    if (!m_user.isEmpty()) {
        for (const QString& path : { m_directory, m_directory + QStringLiteral("/.erlang.cookie"),
                 m_directory + QStringLiteral("/rabbitmq.conf"), m_directory + QStringLiteral("/enabled_plugins") })
            giveTo(path, m_user);
    }
    m_environment = QProcessEnvironment::systemEnvironment();
    const std::pair<const char*, QString> variables[] = {
        { "HOME", m_directory },
        { "RABBITMQ_NODENAME", m_nodeName },
        { "RABBITMQ_CONFIG_FILE", m_directory + QStringLiteral("/rabbitmq.conf") },
        { "RABBITMQ_ENABLED_PLUGINS_FILE", m_directory + QStringLiteral("/enabled_plugins") },
        { "RABBITMQ_MNESIA_BASE", m_directory + QStringLiteral("/mnesia") },
        { "RABBITMQ_LOG_BASE", m_directory + QStringLiteral("/log") },
        { "RABBITMQ_PID_FILE", m_directory + QStringLiteral("/node.pid") },
        { "RABBITMQ_DIST_PORT", QString::number(m_distributionPort) },
        { "ERL_EPMD_PORT", QString::number(m_mapperPort) },
        { "ERL_EPMD_ADDRESS", QStringLiteral("127.0.0.1") },
        { "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS", QStringLiteral("-kernel inet_dist_use_interface {127,0,0,1}") },
    };
    for (const auto& [name, value] : variables)
        m_environment.insert(QString::fromLatin1(name), value);
    run(QStringLiteral("rabbitmq-server"), { QStringLiteral("-detached") }, 60'000);
    m_running = true;
    control({ QStringLiteral("wait"), m_directory + QStringLiteral("/node.pid"), QStringLiteral("--timeout"),
                QStringLiteral("120") },
        150'000);
}

void PrivateBroker::stopApplication()
{
    control({ QStringLiteral("stop_app") });
}

void PrivateBroker::startApplication()
{
    control({ QStringLiteral("start_app") });
}

void PrivateBroker::limitQueue(const QString& queue, int maxLength)
{
    control({ QStringLiteral("set_policy"), QStringLiteral("queue-limit-") + queue,
        QStringLiteral("^%1$").arg(QRegularExpression::escape(queue)),
        QStringLiteral(R"({"max-length":%1,"overflow":"reject-publish"})").arg(maxLength), QStringLiteral("--apply-to"),
        QStringLiteral("queues") });
}

bool PrivateBroker::isPortMapperRunning() const
{
    QTcpSocket probe;
    probe.connectToHost(QHostAddress::LocalHost, m_mapperPort);
    return probe.waitForConnected(2'000);
}

void PrivateBroker::stop()
{
    if (m_running) {
        m_running = false;
        // A node or port mapper stopped or killed by someone else (an operator's rabbitmqctl, kill) is stopped, though
        // the tools would refuse to say so. One that will not stop is said, and the rest of the stop goes on.
        const QString pidFile = m_directory + QStringLiteral("/node.pid");
        try {
            if (ServerAccount::isRunning(pidFile))
                control({ QStringLiteral("stop"), pidFile }); // returns once the node has exited
        } catch (const OutboxError& error) {
            qWarning("%s", error.what());
        }
        // The node's own port mapper outlives it unless told to go.
        try {
            if (isPortMapperRunning())
                run(QStringLiteral("/usr/bin/epmd"), { QStringLiteral("-kill") }, 10'000);
        } catch (const OutboxError& error) {
            qWarning("%s", error.what());
        }
    }
    if (!m_directory.isEmpty() && QDir(m_directory).exists())
        QDir(m_directory).removeRecursively();
}
