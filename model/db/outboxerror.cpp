// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/outboxerror.h"

#include <QSqlError>

OutboxError::OutboxError(Kind kind, QString message, QString sqlState)
    : m_kind(kind)
    , m_message(std::move(message))
    , m_sqlState(std::move(sqlState))
    , m_utf8(m_message.toUtf8())
{ }

static OutboxError::Kind kindForSqlState(const QString& state)
{
    // 25006 (read-only transaction): the server was demoted to a standby under us. A new connection may reach the
    // new primary (target_session_attrs=read-write), so it is an outage rather than a bad statement. 25P03 and
    // 57P05: the server ended a session idle (in a transaction) too long, e.g. a relay that stalled; a new one works.
    if (state.startsWith(QLatin1String("08")) || state == QLatin1String("28P01") || state == QLatin1String("28000")
        || state == QLatin1String("57P01") || state == QLatin1String("57P02") || state == QLatin1String("57P03")
        || state == QLatin1String("25006") || state == QLatin1String("25P03") || state == QLatin1String("57P05"))
        return OutboxError::Kind::Connection;
    if (state == QLatin1String("42501"))
        return OutboxError::Kind::Permission;
    if (state == QLatin1String("40001") || state == QLatin1String("40P01") || state == QLatin1String("55P03"))
        return OutboxError::Kind::Transient;
    if (state == QLatin1String("42P01") || state == QLatin1String("42703") || state == QLatin1String("42883"))
        return OutboxError::Kind::Schema;
    if (state.startsWith(QLatin1String("22")) || state.startsWith(QLatin1String("23")))
        return OutboxError::Kind::InvalidInput;
    return OutboxError::Kind::Other;
}

OutboxError OutboxError::fromSqlError(const QSqlError& error, const QString& context)
{
    const QString state = error.nativeErrorCode();
    QString detail = error.databaseText().trimmed();
    if (detail.isEmpty())
        detail = error.driverText().trimmed();
    // libpq reports a dropped connection without a SQLSTATE; recognise it by the driver's state.
    Kind kind = kindForSqlState(state);
    if (state.isEmpty() && error.type() == QSqlError::ConnectionError)
        kind = Kind::Connection;
    return OutboxError(kind, context + QLatin1String(": ") + detail.section(QLatin1Char('\n'), 0, 0), state);
}
