// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPair>
#include <QSqlDatabase>
#include <QString>
#include <optional>

// Where to connect. Empty settings mean "whatever libpq's environment says" (PGHOST, PGPORT, PGUSER,
// PGDATABASE, PGPASSWORD, PGSERVICE, ~/.pgpass), because QPSQL hands libpq only what is set here.
class ConnectionSettings final {
public:
    // What the server session behind a connection keeps between transactions. Behind a transaction-pooling proxy
    // (PgBouncer's pool_mode = transaction) each transaction may run on another server session, which other clients
    // use in between: nothing a session holds outlasts a transaction (named prepared statements, SETs, LISTEN,
    // session advisory locks).
    enum class Pooling {
        Detect, // a proxy in between is told by the server process: libpq's (from the proxy) is not the session's
        Transaction, // assume a transaction pooler: keep nothing between transactions
        None, // the session is ours from connect to close (direct, or a session-mode pool)
    };
    // The environment variable that sets the pooling of every connection a program opens: detect (the default),
    // transaction or none.
    static constexpr const char* PoolingVariable = "OUTBOX_POOLING";

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

    // Pooling::Detect unless set, or OUTBOX_POOLING says otherwise.
    void setPooling(Pooling pooling) { m_pooling = pooling; }

    // An open connection, the server process that served it first (pg_backend_pid(): behind any pooler not the one
    // libpq was told of) and whether it is behind a transaction pooler (then nothing of its server session may be
    // relied on beyond the transaction).
    struct Opened {
        QSqlDatabase database;
        int serverPid = 0;
        bool transactionPooled = false;
    };

    // Every connection gets PeerLiveness on both ends unless the DSN (or a service file) chose for the client, or
    // the connection's options, PGOPTIONS or ALTER ROLE/DATABASE ... SET chose for the server. Without the server's
    // part, a session idle in a transaction whose client vanished would hold its row locks for the two hours the
    // server's kernel waits by default.
    // The server's part is skipped behind a transaction pooler (the proxy's own keepalives and
    // idle_transaction_timeout stand for it: docs/pooling-and-ha.md).
    // Opens a new connection named `connectionName` in the calling thread. Throws OutboxError(Connection), or
    // OutboxError(InvalidInput) when OUTBOX_POOLING holds another value than the three it takes.
    Opened open(const QString& connectionName) const;

    // "user@host:port/db" for status lines; never includes the password.
    QString describe(const QSqlDatabase& open) const;

private:
    QString m_password;
    QList<QPair<QString, QString>> m_options; // every other keyword libpq accepted, passed through verbatim
    QString m_applicationName; // from the DSN
    QString m_defaultApplicationName = QStringLiteral("outbox");
    qint64 m_idleInTransactionTimeoutMs = 0;
    std::optional<Pooling> m_pooling; // unset: OUTBOX_POOLING, else Detect
};
