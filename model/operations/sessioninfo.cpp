// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/sessioninfo.h"

#include "db/dbsession.h"
#include "db/schemamigrator.h"

#include <QCoreApplication>
#include <QSqlQuery>

QString SessionInfo::roleDescription() const
{
    // Translated only where a translator is installed: the console has one, the command-line programs do not.
    return mayChangeOutbox ? QCoreApplication::translate("SessionInfo", "operator")
                           : QCoreApplication::translate("SessionInfo", "read-only");
}

QString SessionInfo::readOnlyReason() const
{
    if (mayChangeOutbox)
        return {};
    return QCoreApplication::translate("SessionInfo",
        "Database user '%1' may only read: requeueing and releasing leases need the "
        "outbox_operator role (UPDATE on outbox, INSERT on audit_log).")
        .arg(user);
}

SessionInfo SessionInfo::read(DbSession& session)
{
    QSqlQuery& q = session.exec(QStringLiteral("SELECT session_user, current_database(), "
                                               "  host(inet_server_addr()) || ':' || inet_server_port(), "
                                               "  current_setting('server_version'), "
                                               "  has_column_privilege('outbox', 'status', 'UPDATE') "
                                               "    AND has_table_privilege('audit_log', 'INSERT')"),
        {}, QStringLiteral("reading the session's privileges"));
    q.next();
    SessionInfo info;
    info.user = q.value(0).toString();
    info.database = q.value(1).toString();
    // NULL: connected through a Unix socket, said in the console's language.
    info.server
        = q.value(2).isNull() ? QCoreApplication::translate("SessionInfo", "local socket") : q.value(2).toString();
    info.serverVersion = q.value(3).toString();
    info.mayChangeOutbox = q.value(4).toBool();
    info.transactionPooled = session.isTransactionPooled();
    info.schemaVersion = SchemaMigrator(session).currentVersion();
    return info;
}
