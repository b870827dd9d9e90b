// SPDX-License-Identifier: GPL-3.0-or-later
#include "inbox/inboxrepository.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"

#include <QSqlQuery>

InboxRepository::InboxRepository(DbSession& session)
    : m_session(session)
{ }

bool InboxRepository::record(const QString& consumer, const QString& messageId)
{
    if (consumer.isEmpty())
        throw OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("the consumer name is empty"));
    if (messageId.isEmpty())
        throw OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("the message has no message id"));
    QSqlQuery& q = m_session.exec(QStringLiteral("INSERT INTO inbox (consumer, message_id) VALUES (?::text, ?::text) "
                                                 "ON CONFLICT (consumer, message_id) DO NOTHING"),
        { consumer, messageId }, QStringLiteral("recording a message in the inbox"));
    return q.numRowsAffected() == 1;
}

int InboxRepository::purgeOlderThan(qint64 olderThanMs, int batchSize)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("DELETE FROM inbox WHERE (consumer, message_id) IN ("
                                                 "  SELECT consumer, message_id FROM inbox "
                                                 "  WHERE received_at < now() - ?::bigint * interval '1 millisecond' "
                                                 "  ORDER BY received_at LIMIT ?::int FOR UPDATE SKIP LOCKED)"),
        { olderThanMs, batchSize }, QStringLiteral("purging old inbox rows"));
    return q.numRowsAffected();
}
