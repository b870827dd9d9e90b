// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QtGlobal>
#include <optional>

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

    // Opens a read-only REPEATABLE READ transaction in `snapshot`, so that the statements that follow read one
    // snapshot (figures read statement by statement could each be of another moment); opens none when the session is
    // in a transaction already, whose own snapshot then serves. `context` names the reading in an error.
    static void beginReadSnapshot(DbSession& session, std::optional<UnitOfWork>& snapshot, const QString& context);

private:
    DbSession& m_session;
    bool m_open = false;
};
