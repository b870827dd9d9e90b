// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/enumnames.h"

#include <QDateTime>
#include <QString>

// A relay's state as relay_node_state() (migration 0004) judges it by the database's clock.
enum class RelayState { Alive, Stale, Stopped };

inline constexpr EnumNames<RelayState, 3> RelayStateNames({ {
    { RelayState::Alive, "alive" },
    { RelayState::Stale, "stale" }, // no heartbeat for three intervals: presumed dead
    { RelayState::Stopped, "stopped" },
} });

// One row of the relay registry, as the fleet view and `outboxctl relays` show it.
struct RelayNode {
    qint64 id = 0;
    QString name;
    QString host;
    qint64 pid = 0;
    QString version;
    QString sink;
    int workers = 0;
    int batchSize = 0;
    qint64 leaseMs = 0;
    qint64 heartbeatMs = 0;
    QDateTime startedAt;
    QDateTime lastSeen;
    QDateTime stoppedAt; // invalid unless stopped
    qint64 lastSeenAgeMs = 0; // by the database's clock
    RelayState state = RelayState::Alive;
    bool sinkUp = true;
    QString lastError;
    QDateTime lastErrorAt;
    qint64 published = 0;
    qint64 failed = 0;
    qint64 dead = 0;
    qint64 rescued = 0;
    qint64 fenced = 0;
    double publishRate = 0; // rows per second over its last heartbeat interval
};
