// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/connectionsettings.h"

#include "db/conninfo.h"
#include "db/outboxerror.h"

#include <QSqlDriver>
#include <QSqlError>
#include <QVariant>
#include <libpq-fe.h>

ConnectionSettings ConnectionSettings::fromDsn(const QString& dsn)
{
    ConnectionSettings settings;
    for (const Conninfo::Option& option : Conninfo::parse(dsn)) {
        if (option.keyword == QLatin1String("password")) {
            settings.m_password = option.value;
        } else if (option.value.contains(QLatin1Char(';'))) {
            // QPSQL splits its connect options at ';', so such a value cannot be passed on intact.
            throw OutboxError(OutboxError::Kind::InvalidInput,
                QStringLiteral(
                    "invalid DSN: the value of '%1' contains ';', which the Qt PostgreSQL driver cannot pass on")
                    .arg(option.keyword));
        } else if (option.keyword == QLatin1String("application_name")) {
            settings.m_applicationName = option.value;
        } else {
            settings.m_options.append({ option.keyword, option.value });
        }
    }
    return settings;
}

QSqlDatabase ConnectionSettings::open(const QString& connectionName) const
{
    QStringList connectOptions;
    bool hasTimeout = false;
    for (const auto& [keyword, value] : m_options) {
        connectOptions.append(keyword + QLatin1Char('=') + Conninfo::quoted(value));
        hasTimeout = hasTimeout || keyword == QLatin1String("connect_timeout");
    }
    // An unreachable server should fail in seconds, not hang on the OS's TCP timeout.
    if (!hasTimeout && qEnvironmentVariableIsEmpty("PGCONNECT_TIMEOUT"))
        connectOptions.append(QStringLiteral("connect_timeout=10"));
    if (!m_applicationName.isEmpty())
        connectOptions.append(QStringLiteral("application_name=") + Conninfo::quoted(m_applicationName));
    else if (qEnvironmentVariableIsEmpty("PGAPPNAME"))
        connectOptions.append(QStringLiteral("application_name=") + Conninfo::quoted(m_defaultApplicationName));

    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connectionName);
    if (!db.isValid()) {
        QSqlDatabase::removeDatabase(connectionName);
        throw OutboxError(OutboxError::Kind::Connection,
            QStringLiteral("the Qt PostgreSQL driver (QPSQL) is not available; install libqt6sql6-psql"));
    }
    db.setPassword(m_password);
    db.setConnectOptions(connectOptions.join(QLatin1Char(';')));
    if (!db.open()) {
        QString reason = db.lastError().databaseText().trimmed();
        if (reason.isEmpty())
            reason = db.lastError().text().trimmed();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(connectionName);
        throw OutboxError(
            OutboxError::Kind::Connection, QStringLiteral("cannot connect to PostgreSQL: %1").arg(reason.simplified()));
    }
    return db;
}

QString ConnectionSettings::describe(const QSqlDatabase& open) const
{
    const QVariant handle = open.driver()->handle();
    auto* conn = *static_cast<PGconn* const*>(handle.data());
    if (!conn)
        return QStringLiteral("(not connected)");
    return QStringLiteral("%1@%2:%3/%4")
        .arg(QString::fromUtf8(PQuser(conn)), QString::fromUtf8(PQhost(conn)), QString::fromUtf8(PQport(conn)),
            QString::fromUtf8(PQdb(conn)));
}
