// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"

#include "db/outboxerror.h"
#include "db/sqlvalues.h"

#include <QSqlDriver>
#include <QSqlError>
#include <atomic>
#include <libpq-fe.h>

// Without a receiver libpq prints every server notice to stderr ("relation ... already exists, skipping"
// on each idempotent migration). Routine notices are dropped; warnings reach the application's Qt message
// handler.
static void forwardWarnings(void*, const PGresult* notice)
{
    if (qstrcmp(PQresultErrorField(notice, PG_DIAG_SEVERITY_NONLOCALIZED), "WARNING") == 0)
        qWarning("PostgreSQL: %s", PQresultErrorField(notice, PG_DIAG_MESSAGE_PRIMARY));
}

static PGconn* connectionOf(const QSqlDatabase& db)
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
    , m_db(settings.open(m_connectionName))
{
    PQsetNoticeReceiver(connectionOf(m_db), forwardWarnings, nullptr);
    // Server-side date_trunc/date_bin follow the session time zone; pin it so buckets are UTC everywhere.
    execScript(QStringLiteral("SET TIME ZONE 'UTC'"), QStringLiteral("configuring the session"));
}

DbSession::~DbSession()
{
    m_statements.clear();
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
}

QSqlQuery& DbSession::exec(const QString& sql, const QVariantList& binds, const QString& context)
{
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        auto query = std::make_unique<QSqlQuery>(m_db);
        if (!query->prepare(sql))
            throw OutboxError::fromSqlError(query->lastError(), context);
        it = m_statements.emplace(sql, std::move(query)).first;
    }
    QSqlQuery& query = *it->second;
    for (int i = 0; i < binds.size(); ++i)
        query.bindValue(i, binds.at(i));
    // The statement stays prepared after a failure: only a lost connection invalidates it, and then the
    // whole session is replaced.
    if (!query.exec())
        fail(query.lastError(), context);
    return query;
}

void DbSession::execScript(const QString& sql, const QString& context)
{
    QSqlQuery query(m_db);
    if (!query.exec(sql))
        fail(query.lastError(), context);
}

void DbSession::fail(const QSqlError& error, const QString& context) const
{
    const OutboxError classified = OutboxError::fromSqlError(error, context);
    // A dropped connection reaches the driver as a plain statement error without a SQLSTATE.
    if (isBroken())
        throw OutboxError(OutboxError::Kind::Connection, classified.message(), classified.sqlState());
    throw classified;
}

bool DbSession::isBroken() const
{
    return PQstatus(connectionOf(m_db)) == CONNECTION_BAD;
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
