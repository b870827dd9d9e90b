// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/ownership.h"

#include <QFile>
#include <pwd.h>
#include <unistd.h>

QString Ownership::giveTo(const QString& path, const QString& user, const QString& package)
{
    const passwd* account = ::getpwnam(user.toLocal8Bit().constData());
    if (!account)
        return QStringLiteral("user '%1' does not exist (install %2)").arg(user, package);
    if (::chown(QFile::encodeName(path).constData(), account->pw_uid, account->pw_gid) != 0)
        return QStringLiteral("cannot hand %1 to user '%2'").arg(path, user);
    return {};
}
