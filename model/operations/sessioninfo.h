// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class DbSession;

// Who and where the console is connected, and what that database user may do. The server's grants are
// the real guard; this only lets the console grey out what would be refused.
struct SessionInfo {
    QString user;
    QString database;
    QString server; // host:port as the server reports it
    QString serverVersion;
    int schemaVersion = 0;
    bool mayChangeOutbox = false; // requeue and release leases (needs UPDATE on outbox state and INSERT on audit_log)
    // Behind a transaction pooler: no LISTEN, so the console polls for changes (DbSession::isTransactionPooled()).
    bool transactionPooled = false;

    QString roleDescription() const;
    // Why the operator actions are disabled, for their tooltips; empty when they are allowed.
    QString readOnlyReason() const;

    static SessionInfo read(DbSession& session);
};
