// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"
#include "db/outboxerror.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariantList>
#include <memory>
#include <unordered_map>

struct pg_conn;

// One open PostgreSQL connection, owned by the thread that created it (Qt 6.4: a QSqlDatabase must not
// cross threads, so every worker opens its own session from the same ConnectionSettings).
// Statements are prepared once per session and reused, which saves the server parsing and planning them again;
// behind a transaction pooler, where a prepared statement would be left on a server session other clients get, each
// is sent whole with its values instead (see exec()).
class DbSession final {
    Q_DISABLE_COPY_MOVE(DbSession)
public:
    DbSession(const ConnectionSettings& settings, const QString& purpose);
    ~DbSession();

    const ConnectionSettings& settings() const { return m_settings; }
    QSqlDatabase& database() { return m_db; }

    // Executes `sql` (positional '?' placeholders) with `binds` as a cached prepared statement.
    // The returned query stays valid until the same SQL text is executed again on this session.
    // Throws OutboxError whose message starts with `context`.
    // Behind a transaction pooler the statement is not prepared: its text goes with each value in place of its
    // placeholder, written by Qt's driver as it writes the values of a prepared statement's EXECUTE (quoted and
    // escaped for this connection), one round trip as before.
    QSqlQuery& exec(const QString& sql, const QVariantList& binds, const QString& context);

    // Whether the connection is behind a transaction pooler (ConnectionSettings::Pooling): nothing of the server
    // session lasts beyond a transaction, so the settings below go with each statement, and LISTEN and session locks
    // cannot be held.
    bool isTransactionPooled() const { return m_transactionPooled; }

    // A setting for every statement this session runs through exec() (`name` and `value` are the caller's constants,
    // never input): on a direct connection SET once for the session; behind a transaction pooler SET LOCAL in the
    // transaction of each statement (a statement outside the caller's transaction gets one of its own: two round
    // trips more, BEGIN with the settings and COMMIT).
    void setForEachStatement(const QString& name, const QString& value);

    // JIT off for the session: its statements run in milliseconds, and JIT, which the planner starts on a cost
    // estimate alone (a missing index makes one large), spends hundreds of milliseconds compiling each (the relay's
    // claim took 0.75 s instead of 2 ms on a schema without the ordering index).
    void compileNothing();

    // Plans every execution with its bound values (plan_cache_mode = force_custom_plan), for sessions serving
    // searches: their best plan depends on the value searched for, and the generic plan PostgreSQL switches to
    // after five executions of a prepared statement can turn a 1 ms search into a scan of the table. Also without
    // JIT (see compileNothing()) and without parallel workers, which cost more to start than a search takes: each
    // worker is a new backend that opens every partition and index it reads (a stuck-rows page of a ten-partition
    // outbox: 50-55 ms with two workers, 3 ms without).
    void planEachSearch();

    // Runs a multi-statement script without bind values (migrations only).
    void execScript(const QString& sql, const QString& context);

    // A trivial round trip: throws OutboxError if the connection is gone.
    void ping();

    // Current database user, as the server sees it.
    QString currentUser();

    // The database's clock (the transaction's start, inside a transaction): leases, TTLs and "stuck" are judged
    // by it, never by this machine's clock.
    QDateTime serverNow();

    // The server process serving this session (pg_backend_pid(), asked at connect: behind a session pool libpq's is
    // the pool's); 0 behind a transaction pooler, where no server process is this session's.
    int backendPid() const;
    // True once libpq has seen the connection die (server restart, pg_terminate_backend, network loss).
    bool isBroken() const;

    // LISTEN without an event loop, for threads that have none (the relay's). What each returns covers every channel
    // this session LISTENs on.
    // The payloads of the notifications the server delivered since the last call, oldest first. libpq also buffers
    // those that arrive with a statement's results: call this after statements too, not only after a wait.
    QStringList takeNotifications();
    enum class Wait {
        Input, // the server sent something: takeNotifications() tells whether notifications
        Interrupted, // `interruptFd` is readable (it is not read)
        TimedOut,
    };
    // Waits up to `timeoutMs` (-1: without a limit) for input from the server or `interruptFd`. Throws
    // OutboxError(Connection) if the connection died. Notifications that a query already read into libpq's queue
    // are not input any more: call takeNotifications() right before waiting.
    Wait waitForNotification(qint64 timeoutMs, int interruptFd);

    // `error`, raised on this session, as an OutboxError whose message starts with `context`. A dropped
    // connection is of kind Connection even where libpq gives no SQLSTATE for it (e.g. "server closed the
    // connection unexpectedly" after an immediate shutdown), so callers can tell an outage from a bad statement.
    OutboxError errorFor(const QSqlError& error, const QString& context) const;

    // Whether a Qt message only repeats a connection loss that was reported already: closing a session whose
    // connection is gone makes Qt's driver warn once per prepared statement, and the LISTEN socket that libpq closed
    // on the loss makes Qt's event loop warn of an invalid socket. Message handlers drop these.
    static bool echoesALostConnection(const QString& qtMessage);
    // Records this session's socket as one Qt's driver watches for notifications (ChangeNotifier::subscribe), for
    // echoesALostConnection().
    void noteListening();

    // The connection's socket (libpq's PQsocket); -1 when there is none.
    int socket() const;
    // Whether a transaction is open on the session (a caller's UnitOfWork, say): a read that wants one snapshot
    // then reads in it rather than starting its own.
    bool inTransaction() const;

    // libpq's connection behind an open QPSQL connection.
    static pg_conn* connectionOf(const QSqlDatabase& db);

private:
    // exec() behind a transaction pooler.
    QSqlQuery& execUnprepared(const QString& sql, const QVariantList& binds, const QString& context);
    // `sql` with each positional placeholder (outside quoted literals and identifiers) replaced by its value from
    // `binds` as the driver writes literals. Throws OutboxError when the counts differ.
    QString withValues(const QString& sql, const QVariantList& binds, const QString& context) const;

    ConnectionSettings m_settings;
    QString m_connectionName;
    QSqlDatabase m_db;
    int m_serverPid = 0;
    bool m_transactionPooled = false;
    QString m_statementSettings; // "SET LOCAL name = value; " for each setForEachStatement() behind a pooler
    std::unordered_map<QString, std::unique_ptr<QSqlQuery>> m_statements;
};
