// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/connectionsettings.h"

#include "db/conninfo.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/peerliveness.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlError>
#include <cerrno>
#include <libpq-fe.h>
#include <system_error>

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

namespace {

// libpq's message on one line: its lines as sentences ("…failed: Connection refused. Is the server running on that
// host and accepting TCP/IP connections?"), not run together.
QString asOneLine(const QString& message)
{
    QString line;
    for (const QString& part : message.split(QLatin1Char('\n'))) {
        const QString text = part.simplified();
        if (text.isEmpty())
            continue;
        if (!line.isEmpty())
            line += QStringLiteral(".?!:;").contains(line.back()) ? QStringLiteral(" ") : QStringLiteral(". ");
        line += text;
    }
    return line;
}

// The client's part of PeerLiveness, on the socket libpq connected, where the DSN (or a pg_service.conf service)
// did not choose: a DSN that sets one keepalive knob (or keepalives=0) keeps libpq's handling of all of them.
void applyClientLiveness(PGconn* conn)
{
    QSet<QByteArray> chosen;
    PQconninfoOption* options = PQconninfo(conn);
    for (const PQconninfoOption* option = options; option && option->keyword; ++option) {
        if (option->val && *option->val)
            chosen.insert(QByteArray(option->keyword));
    }
    PQconninfoFree(options);
    const bool keepalives = !(chosen.contains("keepalives") || chosen.contains("keepalives_idle")
        || chosen.contains("keepalives_interval") || chosen.contains("keepalives_count"));
    if (!PeerLiveness::applyTo(
            PQsocket(conn), PeerLiveness::Database, keepalives, !chosen.contains("tcp_user_timeout"))) {
        throw OutboxError(OutboxError::Kind::Connection,
            QStringLiteral("cannot set the connection's keepalives: %1")
                .arg(QString::fromStdString(std::generic_category().message(errno))));
    }
}

// `result` if it holds rows; otherwise cleared, and its error thrown as an OutboxError whose message starts with
// `context`.
PGresult* rowsOrThrow(PGconn* conn, PGresult* result, const QString& context)
{
    if (PQresultStatus(result) == PGRES_TUPLES_OK)
        return result;
    const QString state = QString::fromUtf8(PQresultErrorField(result, PG_DIAG_SQLSTATE));
    const QString reason = QString::fromUtf8(result ? PQresultErrorMessage(result) : PQerrorMessage(conn)).simplified();
    PQclear(result);
    const QSqlError error(QString(), reason,
        PQstatus(conn) == CONNECTION_BAD ? QSqlError::ConnectionError : QSqlError::StatementError, state);
    throw OutboxError::fromSqlError(error, context);
}

// The server's part, for the session: its keepalives and user timeout, and `idleInTransactionMs` if not 0. Set
// after connecting rather than through `options`, which would replace the options a pg_service.conf service
// gives; and not over a choice made for this connection (the DSN's options, PGOPTIONS) or by ALTER ROLE or ALTER
// DATABASE ... SET, only over the server's defaults and postgresql.conf. Through libpq, since a QSqlQuery would
// outlive a connection that failed here.
void applyServerLiveness(PGconn* conn, qint64 idleInTransactionMs)
{
    QJsonObject settings {
        { QStringLiteral("tcp_keepalives_idle"), QString::number(PeerLiveness::KeepaliveIdleSeconds) },
        { QStringLiteral("tcp_keepalives_interval"), QString::number(PeerLiveness::KeepaliveIntervalSeconds) },
        { QStringLiteral("tcp_keepalives_count"), QString::number(PeerLiveness::KeepaliveCount) },
        { QStringLiteral("tcp_user_timeout"), QString::number(PeerLiveness::UserTimeoutMs) },
    };
    if (idleInTransactionMs > 0)
        settings.insert(QStringLiteral("idle_in_transaction_session_timeout"), QString::number(idleInTransactionMs));
    const QByteArray json = QJsonDocument(settings).toJson(QJsonDocument::Compact);
    const char* values[] = { json.constData() };
    PGresult* result = PQexecParams(conn,
        "SELECT pg_catalog.set_config(d.name, d.value, false) "
        "FROM pg_catalog.jsonb_each_text($1::pg_catalog.jsonb) AS d(name, value) "
        "JOIN pg_catalog.pg_settings s USING (name) "
        "WHERE s.source NOT IN ('client', 'user', 'database', 'database user', 'global')",
        1, nullptr, values, nullptr, nullptr, 0);
    PQclear(rowsOrThrow(conn, result, QStringLiteral("setting up the PostgreSQL session (keepalives, timeouts)")));
}

// The server process serving this connection. Not the one libpq was told of at connect when a proxy in between
// answered the connect itself (PgBouncer, pgcat and Odyssey hand out keys of their own for cancel requests).
int serverPidOf(PGconn* conn)
{
    PGresult* result = rowsOrThrow(conn, PQexec(conn, "SELECT pg_catalog.pg_backend_pid()"),
        QStringLiteral("asking the server which session serves us"));
    const int serverPid = PQntuples(result) == 1 ? QByteArray(PQgetvalue(result, 0, 0)).toInt() : 0;
    PQclear(result);
    return serverPid;
}

ConnectionSettings::Pooling poolingFromEnvironment()
{
    const QByteArray value = qgetenv(ConnectionSettings::PoolingVariable).trimmed().toLower();
    if (value.isEmpty() || value == "detect")
        return ConnectionSettings::Pooling::Detect;
    if (value == "transaction")
        return ConnectionSettings::Pooling::Transaction;
    if (value == "none")
        return ConnectionSettings::Pooling::None;
    throw OutboxError(OutboxError::Kind::InvalidInput,
        QStringLiteral("invalid %1 '%2': expected detect, transaction or none")
            .arg(QLatin1String(ConnectionSettings::PoolingVariable), QString::fromLocal8Bit(value)));
}

} // namespace

ConnectionSettings::Opened ConnectionSettings::open(const QString& connectionName) const
{
    const Pooling pooling = m_pooling ? *m_pooling : poolingFromEnvironment();
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
            OutboxError::Kind::Connection, QStringLiteral("cannot connect to PostgreSQL: %1").arg(asOneLine(reason)));
    }
    bool transactionPooled = pooling == Pooling::Transaction;
    int serverPid = 0;
    try {
        PGconn* conn = DbSession::connectionOf(db);
        applyClientLiveness(conn);
        serverPid = serverPidOf(conn);
        if (pooling == Pooling::Detect)
            transactionPooled = serverPid != PQbackendPID(conn);
        // Behind a pooler the server's settings would land on a session other clients share, and the peer it
        // watches is the proxy.
        if (!transactionPooled)
            applyServerLiveness(conn, m_idleInTransactionTimeoutMs);
    } catch (...) {
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(connectionName);
        throw;
    }
    return { db, serverPid, transactionPooled };
}

QString ConnectionSettings::describe(const QSqlDatabase& open) const
{
    PGconn* conn = DbSession::connectionOf(open);
    if (!conn)
        return QStringLiteral("(not connected)");
    return QStringLiteral("%1@%2:%3/%4")
        .arg(QString::fromUtf8(PQuser(conn)), QString::fromUtf8(PQhost(conn)), QString::fromUtf8(PQport(conn)),
            QString::fromUtf8(PQdb(conn)));
}
