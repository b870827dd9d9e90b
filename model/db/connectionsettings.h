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

    // A session of these settings that stays idle inside a transaction this long is ended by the server, which
    // rolls it back and frees its row locks (idle_in_transaction_session_timeout); 0: never (the default). For
    // programs whose transactions never wait on anything but their own statements, e.g. the relay's.
    void setIdleInTransactionTimeoutMs(qint64 ms) { m_idleInTransactionTimeoutMs = ms; }

    // Every connection gets PeerLiveness on both ends unless the DSN (or a service file) chose for the client, or
    // the connection's options, PGOPTIONS or ALTER ROLE/DATABASE ... SET chose for the server. Without the server's
    // part, a session idle in a transaction whose client vanished would hold its row locks for the two hours the
    // server's kernel waits by default.
    // Opens a new connection named `connectionName` in the calling thread. Throws OutboxError(Connection).
    QSqlDatabase open(const QString& connectionName) const;

    // "user@host:port/db" for status lines; never includes the password.
    QString describe(const QSqlDatabase& open) const;

private:
    QString m_password;
    QList<QPair<QString, QString>> m_options; // every other keyword libpq accepted, passed through verbatim
    QString m_applicationName; // from the DSN
    QString m_defaultApplicationName = QStringLiteral("outbox");
    qint64 m_idleInTransactionTimeoutMs = 0;
};
