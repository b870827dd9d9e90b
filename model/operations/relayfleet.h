// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/outboxoperator.h"
#include "operations/relaynode.h"

#include <QList>

class DbSession;
class QSqlQuery;

// The read side of the relay registry (relay_nodes), which the relays themselves write through RelayRegistry.
class RelayFleet final {
public:
    static constexpr int DefaultLimit = 200;

    explicit RelayFleet(DbSession& session);

    // The `limit` relays seen most recently, most recent first: every live relay is among them, since a live
    // relay heartbeats every few seconds and a dead or stopped one does not.
    QList<RelayNode> recent(int limit = DefaultLimit);
    // The relays of `ids` that are in the registry, by id, however long ago they were seen.
    QList<RelayNode> byIds(const QList<qint64>& ids);

    // Forgets the relays of `ids` that do not run (stopped, stale or gone by the database's clock): deletes their
    // registry rows in one transaction with an audit entry (action "forget relay", entity "relay", the state each
    // was in). A relay that runs again, or is forgotten already, is left alone and reported. Throws like
    // OutboxOperator's actions: for a blank reason, or naming the role when the user may not.
    OperatorActionReport forget(const QList<qint64>& ids, const QString& reason);

    // Deletes up to `batchSize` stopped or stale rows last seen more than `olderThanMs` ago; returns how many.
    int purgeGone(qint64 olderThanMs, int batchSize);

private:
    static QList<RelayNode> nodesFrom(QSqlQuery& q);

    DbSession& m_session;
};
