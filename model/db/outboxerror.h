// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <exception>

class QSqlError;

// The one exception type the library throws. `kind` lets a caller (the CLI's exit code, the console's
// banner) react to the class of problem without parsing message text.
class OutboxError final : public std::exception {
public:
    enum class Kind {
        Connection, // server unreachable, authentication failed, connection lost
        Schema, // schema missing, older or newer than this binary
        Permission, // the database user lacks a privilege (SQLSTATE 42501)
        Transient, // serialization failure, deadlock, lock not available: safe to retry
        InvalidInput, // a value the caller passed was rejected (bad DSN, bad duration, check violation)
        Broker, // the message broker is unreachable, refused the login, or dropped the connection or channel
        Other,
    };

    OutboxError(Kind kind, QString message, QString sqlState = {});

    // Classifies a driver error by its SQLSTATE and prefixes `context` (what we were doing).
    static OutboxError fromSqlError(const QSqlError& error, const QString& context);

    Kind kind() const { return m_kind; }
    const QString& message() const { return m_message; }
    const QString& sqlState() const { return m_sqlState; }
    const char* what() const noexcept final override { return m_utf8.constData(); }

private:
    Kind m_kind;
    QString m_message;
    QString m_sqlState;
    QByteArray m_utf8;
};
