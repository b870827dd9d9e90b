// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/serveraccount.h"

#include <QFile>
#include <QProcess>
#include <cerrno>
#include <csignal>
#include <pwd.h>
#include <unistd.h>

QString ServerAccount::giveTo(const QString& path, const QString& user, const QString& package)
{
    const passwd* account = ::getpwnam(user.toLocal8Bit().constData());
    if (!account)
        return QStringLiteral("user '%1' does not exist (install %2)").arg(user, package);
    if (::chown(QFile::encodeName(path).constData(), account->pw_uid, account->pw_gid) != 0)
        return QStringLiteral("cannot hand %1 to user '%2'").arg(path, user);
    return {};
}

QString ServerAccount::run(const QString& what, const QString& user, const QString& binary,
    const QStringList& arguments, int timeoutMs, const QProcessEnvironment& environment, const QString& home)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels); // errors may come on either channel
    if (!environment.isEmpty())
        process.setProcessEnvironment(environment);
    if (!home.isEmpty())
        process.setWorkingDirectory(home);
    if (user.isEmpty()) {
        process.start(binary, arguments);
    } else {
        QStringList command { QStringLiteral("-u"), user, QStringLiteral("--") };
        if (!home.isEmpty())
            command << QStringLiteral("/usr/bin/env") << QStringLiteral("HOME=") + home;
        process.start(QStringLiteral("runuser"), command << binary << arguments);
    }
    if (process.waitForFinished(timeoutMs) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0)
        return {};
    process.kill();
    process.waitForFinished();
    const QString output = QString::fromLocal8Bit(process.readAll()).trimmed().section(QLatin1Char('\n'), -3);
    return QStringLiteral("%1 failed: %2").arg(what, output.isEmpty() ? process.errorString() : output);
}

bool ServerAccount::isRunning(const QString& pidFile)
{
    QFile file(pidFile);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const pid_t pid = file.readLine().trimmed().toInt();
    if (pid <= 0 || (::kill(pid, 0) != 0 && errno != EPERM))
        return false;
    // A process that ended stays until its parent reaps it, and a daemon's parent is whatever init the machine (or
    // the container) has: its state, after the name in parentheses, is Z until then.
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray fields = stat.readAll();
    return fields.mid(fields.lastIndexOf(')') + 2, 1) != "Z";
}
