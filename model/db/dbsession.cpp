// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"

#include "db/outboxerror.h"
#include "db/sqlvalues.h"

#include <QMutex>
#include <QRegularExpression>
#include <QSet>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlField>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <libpq-fe.h>
#include <poll.h>

// Without a receiver libpq prints every server notice to stderr ("relation ... already exists, skipping"
// on each idempotent migration). Routine notices are dropped; warnings reach the application's Qt message
// handler.
static void forwardWarnings(void*, const PGresult* notice)
{
    // Class 57 ("terminating connection due to immediate shutdown command", ...) announces the loss of the
    // connection, which the caller reports as an outage, once.
    if (qstrncmp(PQresultErrorField(notice, PG_DIAG_SQLSTATE), "57", 2) == 0)
        return;
    if (qstrcmp(PQresultErrorField(notice, PG_DIAG_SEVERITY_NONLOCALIZED), "WARNING") == 0)
        qWarning("PostgreSQL: %s", PQresultErrorField(notice, PG_DIAG_MESSAGE_PRIMARY));
}

PGconn* DbSession::connectionOf(const QSqlDatabase& db)
{
    return *static_cast<PGconn* const*>(db.driver()->handle().data());
}

static QString nextConnectionName(const QString& purpose)
{
    static std::atomic<quint64> counter { 0 };
    return QStringLiteral("outbox-%1-%2").arg(purpose).arg(++counter);
}

DbSession::DbSession(const ConnectionSettings& settings, const QString& purpose)
    : m_settings(settings)
    , m_connectionName(nextConnectionName(purpose))
{
    ConnectionSettings::Opened opened = settings.open(m_connectionName);
    m_db = std::move(opened.database);
    m_serverPid = opened.serverPid;
    m_transactionPooled = opened.transactionPooled;
    PQsetNoticeReceiver(connectionOf(m_db), forwardWarnings, nullptr);
    // Server-side date_trunc/date_bin follow the session time zone; pin it so buckets are UTC everywhere. Through
    // PgBouncer too: it keeps a client's TimeZone (and DateStyle, which Qt's driver sets) and sets it again on each
    // server session the client gets.
    execScript(QStringLiteral("SET TIME ZONE 'UTC'"), QStringLiteral("configuring the session"));
}

void DbSession::setForEachStatement(const QString& name, const QString& value)
{
    if (m_transactionPooled)
        m_statementSettings += QStringLiteral("SET LOCAL %1 = %2; ").arg(name, value);
    else
        execScript(QStringLiteral("SET %1 = %2").arg(name, value), QStringLiteral("configuring the session"));
}

void DbSession::compileNothing()
{
    setForEachStatement(QStringLiteral("jit"), QStringLiteral("off"));
}

void DbSession::planEachSearch()
{
    // Unprepared, every statement is planned with its values anyway.
    if (!m_transactionPooled)
        setForEachStatement(QStringLiteral("plan_cache_mode"), QStringLiteral("force_custom_plan"));
    compileNothing();
    setForEachStatement(QStringLiteral("max_parallel_workers_per_gather"), QStringLiteral("0"));
}

namespace {

// The sockets Qt's driver has watched for notifications in this process. A number stays once recorded: the warning
// comes after libpq closed the socket, possibly after its session is gone. A socket that later gets the same number
// has the same warning dropped too; the warning never says more than that a socket went away.
QMutex listeningSocketsMutex;
QSet<int> listeningSockets;

} // namespace

int DbSession::socket() const
{
    return PQsocket(connectionOf(m_db));
}

bool DbSession::inTransaction() const
{
    return PQtransactionStatus(connectionOf(m_db)) != PQTRANS_IDLE;
}

void DbSession::noteListening()
{
    const int listening = socket();
    const QMutexLocker locker(&listeningSocketsMutex);
    listeningSockets.insert(listening);
}

bool DbSession::echoesALostConnection(const QString& qtMessage)
{
    if (qtMessage.startsWith(QLatin1String("Unable to free statement: no connection to the server")))
        return true;
    static const QRegularExpression invalidSocket(
        QStringLiteral("^QSocketNotifier: Invalid socket (\\d+) and type 'Read', disabling"));
    const QRegularExpressionMatch match = invalidSocket.match(qtMessage);
    if (!match.hasMatch())
        return false;
    const QMutexLocker locker(&listeningSocketsMutex);
    return listeningSockets.contains(match.captured(1).toInt());
}

DbSession::~DbSession()
{
    m_statements.clear();
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
}

QString DbSession::withValues(const QString& sql, const QVariantList& binds, const QString& context) const
{
    // Placeholders are found as Qt finds them when it prepares a statement: outside '…' and "…".
    QString text;
    text.reserve(sql.size() + 16 * binds.size());
    QChar quote;
    qsizetype next = 0;
    bool tooFew = false;
    for (const QChar c : sql) {
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
        } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
        } else if (c == QLatin1Char('?')) {
            if (next == binds.size()) {
                tooFew = true;
                break;
            }
            const QVariant& value = binds.at(next++);
            QSqlField field(QString(), value.metaType());
            field.setValue(value);
            // In parentheses: a negative number after a minus would otherwise start a comment.
            text += QLatin1Char('(') + m_db.driver()->formatValue(field) + QLatin1Char(')');
            continue;
        }
        text += c;
    }
    if (tooFew || next != binds.size()) {
        throw OutboxError(OutboxError::Kind::InvalidInput,
            QStringLiteral("%1: the statement has another number of placeholders than the %2 values given")
                .arg(context)
                .arg(binds.size()));
    }
    return text;
}

QSqlQuery& DbSession::execUnprepared(const QString& sql, const QVariantList& binds, const QString& context)
{
    auto it = m_statements.find(sql);
    if (it == m_statements.end())
        it = m_statements.emplace(sql, std::make_unique<QSqlQuery>(m_db)).first;
    QSqlQuery& query = *it->second;
    const QString text = withValues(sql, binds, context);
    if (m_statementSettings.isEmpty() || inTransaction()) {
        if (!m_statementSettings.isEmpty())
            execScript(m_statementSettings, context);
        if (!query.exec(text))
            throw errorFor(query.lastError(), context);
        return query;
    }
    // The settings hold for a transaction; the statement would be one of its own. Its rows stay readable after the
    // commit: the driver holds the whole result.
    execScript(QStringLiteral("BEGIN; ") + m_statementSettings, context);
    if (!query.exec(text)) {
        const OutboxError error = errorFor(query.lastError(), context);
        if (!isBroken())
            PQclear(PQexec(connectionOf(m_db), "ROLLBACK"));
        throw error;
    }
    execScript(QStringLiteral("COMMIT"), context);
    return query;
}

QSqlQuery& DbSession::exec(const QString& sql, const QVariantList& binds, const QString& context)
{
    if (m_transactionPooled)
        return execUnprepared(sql, binds, context);
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        auto query = std::make_unique<QSqlQuery>(m_db);
        if (!query->prepare(sql))
            throw errorFor(query->lastError(), context);
        it = m_statements.emplace(sql, std::move(query)).first;
    }
    QSqlQuery& query = *it->second;
    for (int i = 0; i < binds.size(); ++i)
        query.bindValue(i, binds.at(i));
    // The statement stays prepared after a failure: only a lost connection invalidates it, and then the
    // whole session is replaced.
    if (!query.exec())
        throw errorFor(query.lastError(), context);
    return query;
}

void DbSession::execScript(const QString& sql, const QString& context)
{
    // libpq itself: for a script of several statements Qt's driver reports the first statement's result only, so
    // a later statement's error would pass unnoticed (and a migration's real problem would surface as "current
    // transaction is aborted"). PQexec stops at the failing statement and returns its error.
    PGconn* connection = connectionOf(m_db);
    PGresult* result = PQexec(connection, sql.toUtf8().constData());
    const ExecStatusType status = PQresultStatus(result);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY) {
        PQclear(result);
        return;
    }
    const QString state = QString::fromLatin1(PQresultErrorField(result, PG_DIAG_SQLSTATE));
    const QString message = QString::fromUtf8(result ? PQresultErrorMessage(result) : PQerrorMessage(connection));
    PQclear(result);
    const QSqlError::ErrorType type
        = PQstatus(connection) == CONNECTION_BAD ? QSqlError::ConnectionError : QSqlError::StatementError;
    throw errorFor(QSqlError(QString(), message.trimmed(), type, state), context);
}

// Whether a client-side error (one without a SQLSTATE: the server sends one with every error of its own) means
// the connection is gone. libpq may not have marked the connection bad yet: a write to a socket the server has
// closed fails first and is reported only at the next read, so let it read, and failing that, go by its words.
static bool lostConnection(PGconn* connection, const QString& text)
{
    if (!connection)
        return true;
    if (PQstatus(connection) != CONNECTION_BAD)
        PQconsumeInput(connection);
    if (PQstatus(connection) == CONNECTION_BAD)
        return true;
    static const char* const phrases[] = { "server closed the connection", "no connection to the server",
        "could not send data to server", "could not receive data from server", "terminating connection",
        "connection to server was lost", "not open" };
    return std::any_of(std::begin(phrases), std::end(phrases),
        [&text](const char* phrase) { return text.contains(QLatin1String(phrase), Qt::CaseInsensitive); });
}

OutboxError DbSession::errorFor(const QSqlError& error, const QString& context) const
{
    OutboxError classified = OutboxError::fromSqlError(error, context);
    if (classified.kind() != OutboxError::Kind::Connection && classified.sqlState().isEmpty()
        && lostConnection(m_db.isOpen() ? connectionOf(m_db) : nullptr, classified.message()))
        return OutboxError(OutboxError::Kind::Connection, classified.message(), classified.sqlState());
    return classified;
}

int DbSession::backendPid() const
{
    return m_transactionPooled ? 0 : m_serverPid;
}

bool DbSession::isBroken() const
{
    return PQstatus(connectionOf(m_db)) == CONNECTION_BAD;
}

QStringList DbSession::takeNotifications()
{
    PGconn* connection = connectionOf(m_db);
    QStringList payloads;
    while (PGnotify* notification = PQnotifies(connection)) {
        payloads.append(QString::fromUtf8(notification->extra));
        PQfreemem(notification);
    }
    return payloads;
}

DbSession::Wait DbSession::waitForNotification(qint64 timeoutMs, int interruptFd)
{
    PGconn* connection = connectionOf(m_db);
    const auto lost = [&] {
        return errorFor(
            QSqlError(QString(), QString::fromUtf8(PQerrorMessage(connection)).trimmed(), QSqlError::ConnectionError),
            QStringLiteral("waiting for a notification"));
    };
    if (PQstatus(connection) == CONNECTION_BAD)
        throw lost();
    pollfd fds[] = { { PQsocket(connection), POLLIN, 0 }, { interruptFd, POLLIN, 0 } };
    const int ready = ::poll(fds, 2, timeoutMs < 0 ? -1 : int(std::min<qint64>(timeoutMs, INT_MAX)));
    if (ready < 0 && errno == EINTR)
        return Wait::Interrupted;
    if (ready < 0)
        throw lost();
    if (fds[0].revents != 0) {
        // Notifications, or the server's goodbye (pg_terminate_backend, a shutdown) and EOF.
        if (PQconsumeInput(connection) == 0 || PQstatus(connection) == CONNECTION_BAD)
            throw lost();
        return Wait::Input;
    }
    return fds[1].revents != 0 ? Wait::Interrupted : Wait::TimedOut;
}

void DbSession::ping()
{
    exec(QStringLiteral("SELECT 1"), {}, QStringLiteral("checking the connection"));
}

QDateTime DbSession::serverNow()
{
    QSqlQuery& q = exec(QStringLiteral("SELECT epoch_ms(now())"), {}, QStringLiteral("reading the clock"));
    q.next();
    return SqlValues::instant(q.value(0));
}

QString DbSession::currentUser()
{
    QSqlQuery& q = exec(QStringLiteral("SELECT session_user"), {}, QStringLiteral("reading the current user"));
    return q.next() ? q.value(0).toString() : QString();
}
