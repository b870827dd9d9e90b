// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/dbsession.h"

// For tests whose server comes and goes (crashed, stopped, failed over): a question asked over a new connection
// each time.
namespace DatabaseProbe {

// The first column of the first row of `sql`, or -1 while the server cannot be reached or has no answer.
inline qint64 scalar(const ConnectionSettings& settings, const QString& sql)
{
    try {
        DbSession session(settings, QStringLiteral("probe"));
        QSqlQuery& q = session.exec(sql, {}, QStringLiteral("probing"));
        return q.next() ? q.value(0).toLongLong() : -1;
    } catch (const OutboxError&) {
        return -1;
    }
}

} // namespace DatabaseProbe
