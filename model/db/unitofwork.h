// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

class DbSession;

// One database transaction. Rolls back on destruction unless commit() succeeded, so an exception
// anywhere between construction and commit() leaves no partial write behind.
class UnitOfWork final {
    Q_DISABLE_COPY_MOVE(UnitOfWork)
public:
    explicit UnitOfWork(DbSession& session);
    ~UnitOfWork();

    // Throws OutboxError if the server refuses the commit (the transaction is then rolled back).
    void commit();
    void rollback();

private:
    DbSession& m_session;
    bool m_open = false;
};
