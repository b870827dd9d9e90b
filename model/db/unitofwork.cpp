// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/unitofwork.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"

#include <QSqlError>

UnitOfWork::UnitOfWork(DbSession& session)
    : m_session(session)
{
    if (!m_session.database().transaction())
        throw m_session.errorFor(m_session.database().lastError(), QStringLiteral("starting a transaction"));
    m_open = true;
}

UnitOfWork::~UnitOfWork()
{
    if (m_open)
        rollback();
}

void UnitOfWork::commit()
{
    Q_ASSERT(m_open);
    m_open = false;
    if (!m_session.database().commit()) {
        const QSqlError error = m_session.database().lastError();
        m_session.database().rollback();
        throw m_session.errorFor(error, QStringLiteral("committing"));
    }
}

void UnitOfWork::rollback()
{
    if (!m_open)
        return;
    m_open = false;
    // A failed rollback means the connection is gone, and the server has discarded the transaction anyway.
    m_session.database().rollback();
}

void UnitOfWork::beginReadSnapshot(DbSession& session, std::optional<UnitOfWork>& snapshot, const QString& context)
{
    if (session.inTransaction())
        return;
    snapshot.emplace(session);
    session.execScript(QStringLiteral("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"), context);
}
