// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/connectionsettings.h"

#include "db/conninfo.h"
#include "db/outboxerror.h"
#include "db/peerliveness.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
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

const QList<QPair<QString, QString>> ConnectionSettings::ClientLivenessDefaults {
    { QStringLiteral("keepalives"), QStringLiteral("1") },
    { QStringLiteral("keepalives_idle"), QString::number(PeerLiveness::KeepaliveIdleSeconds) },
    { QStringLiteral("keepalives_interval"), QString::number(PeerLiveness::KeepaliveIntervalSeconds) },
    { QStringLiteral("keepalives_count"), QString::number(PeerLiveness::KeepaliveCount) },
    { QStringLiteral("tcp_user_timeout"), QString::number(PeerLiveness::UserTimeoutMs) },
};

const QList<QPair<QString, QString>> ConnectionSettings::ServerLivenessDefaults {
    { QStringLiteral("tcp_keepalives_idle"), QString::number(PeerLiveness::KeepaliveIdleSeconds) },
    { QStringLiteral("tcp_keepalives_interval"), QString::number(PeerLiveness::KeepaliveIntervalSeconds) },
    { QStringLiteral("tcp_keepalives_count"), QString::number(PeerLiveness::KeepaliveCount) },
    { QStringLiteral("tcp_user_timeout"), QString::number(PeerLiveness::UserTimeoutMs) },
};

QSqlDatabase ConnectionSettings::open(const QString& connectionName) const
{
    QStringList connectOptions;
    QSet<QString> keywords;
    for (const auto& [keyword, value] : m_options) {
        keywords.insert(keyword);
        connectOptions.append(keyword + QLatin1Char('=') + Conninfo::quoted(value));
    }
    // An unreachable server should fail in seconds, not hang on the OS's TCP timeout.
    if (!keywords.contains(QStringLiteral("connect_timeout")) && qEnvironmentVariableIsEmpty("PGCONNECT_TIMEOUT"))
        connectOptions.append(QStringLiteral("connect_timeout=10"));
    for (const auto& [keyword, value] : ClientLivenessDefaults) {
        if (!keywords.contains(keyword))
            connectOptions.append(keyword + QLatin1Char('=') + value);
    }
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
    applyServerDefaults(db);
    return db;
}

void ConnectionSettings::applyServerDefaults(QSqlDatabase& db) const
{
    QJsonObject settings;
    for (const auto& [name, value] : ServerLivenessDefaults)
        settings.insert(name, value);
    if (m_idleInTransactionTimeoutMs > 0)
        settings.insert(
            QStringLiteral("idle_in_transaction_session_timeout"), QString::number(m_idleInTransactionTimeoutMs));
    // Set after connecting rather than through `options`, which would replace the options a pg_service.conf
    // service gives. Not over a choice made for this connection (the DSN's options, PGOPTIONS) or by ALTER ROLE
    // or ALTER DATABASE ... SET: only over the server's defaults and postgresql.conf.
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT set_config(d.name, d.value, false) "
                             "FROM jsonb_each_text(?::jsonb) AS d(name, value) JOIN pg_settings s USING (name) "
                             "WHERE s.source NOT IN ('client', 'user', 'database', 'database user')"));
    q.addBindValue(QString::fromUtf8(QJsonDocument(settings).toJson(QJsonDocument::Compact)));
    if (!q.exec()) {
        const QString reason = q.lastError().text().simplified();
        db.close();
        throw OutboxError(OutboxError::Kind::Connection,
            QStringLiteral("cannot set up the PostgreSQL session (keepalives, timeouts): %1").arg(reason));
    }
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
