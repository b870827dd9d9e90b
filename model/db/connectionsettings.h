// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPair>
#include <QSqlDatabase>
#include <QString>

// Where to connect. Empty settings mean "whatever libpq's environment says" (PGHOST, PGPORT, PGUSER,
// PGDATABASE, PGPASSWORD, PGSERVICE, ~/.pgpass), because QPSQL hands libpq only what is set here.
class ConnectionSettings final {
public:
    ConnectionSettings() = default;

    // Parses a URI (postgresql://...) or key=value DSN with libpq's own parser.
    // Throws OutboxError(InvalidInput) naming the problem.
    static ConnectionSettings fromDsn(const QString& dsn);

    // What pg_stat_activity shows, unless the DSN or PGAPPNAME names the application itself.
    void setDefaultApplicationName(const QString& name) { m_defaultApplicationName = name; }

    // Opens a new connection named `connectionName` in the calling thread. Throws OutboxError(Connection).
    QSqlDatabase open(const QString& connectionName) const;

    // "user@host:port/db" for status lines; never includes the password.
    QString describe(const QSqlDatabase& open) const;

private:
    QString m_password;
    QList<QPair<QString, QString>> m_options; // every other keyword libpq accepted, passed through verbatim
    QString m_applicationName; // from the DSN
    QString m_defaultApplicationName = QStringLiteral("outbox");
};
