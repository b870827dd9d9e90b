// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/enumnames.h"

#include <QDateTime>
#include <QString>

// A relay's state as relay_node_state() (migration 0011) judges it by the database's clock.
enum class RelayState { Alive, Paused, Failing, Gone, Stale, Stopped };

inline constexpr EnumNames<RelayState, 6> RelayStateNames({ {
    { RelayState::Alive, "alive" },
    { RelayState::Paused, "paused" }, // heartbeating, and claiming nothing: an operator paused its name
    { RelayState::Failing, "failing" }, // heartbeating, but its sink is unreachable or its publishes all fail
    { RelayState::Gone, "gone" }, // none of its database sessions is left: its process died
    { RelayState::Stale, "stale" }, // no heartbeat for three intervals: presumed dead
    { RelayState::Stopped, "stopped" },
} });

// Whether a relay in `state` runs and heartbeats (publishing, failing to, or paused).
constexpr bool isRunning(RelayState state)
{
    return state == RelayState::Alive || state == RelayState::Paused || state == RelayState::Failing;
}

// One row of the relay registry, as the fleet view and `outboxctl relays` show it.
struct RelayNode {
    qint64 id = 0;
    QString name;
    QString host;
    qint64 pid = 0;
    QString version;
    QString sink;
    QString publishingTo; // the broker nodes its workers were connected to at its last heartbeat, if it names any
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
    QString lastError; // its newest problem: current while failing, past otherwise
    QDateTime lastErrorAt;
    QDateTime failingSince; // invalid unless failing
    QDateTime pausedSince; // invalid unless paused
    qint64 published = 0;
    qint64 failed = 0;
    qint64 dead = 0;
    qint64 rescued = 0;
    qint64 fenced = 0;
    double publishRate = 0; // rows per second over its last heartbeat interval
};
