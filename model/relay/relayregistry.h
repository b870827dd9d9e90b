// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/relaystatus.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

class DbSession;

// Who a relay process is, as it registers itself in relay_nodes.
struct RelayRegistration {
    QString name;
    QString host;
    qint64 pid = 0;
    QString version;
    QString sink; // without credentials
    int workers = 1;
    int batchSize = 1;
    qint64 leaseMs = 0;
    qint64 heartbeatMs = 0;
};

// What a relay reports with each heartbeat.
struct RelayHeartbeat {
    RelayTotals totals;
    double publishRate = 0; // rows per second since the previous heartbeat
    bool sinkUp = true;
    QString lastError; // the latest problem with either peer or a publish; empty if there has been none
    qint64 lastErrorAgeMs = 0;
    // Set while the relay is failing (its sink unreachable, or failed publishes and none succeeded since): for how
    // long. The registry keeps the streak's first start.
    std::optional<qint64> failingForMs;
    QList<qint64> workerBackendPids; // the workers' sessions' server processes; the heartbeat adds its own
    bool paused = false; // the relay honours a pause of its name (the registry keeps since when)
    QStringList publishingTo; // the broker nodes its workers are connected to (MessageSink::destination())
};

// The relay's side of the registry (relay_nodes, migration 0004): register, heartbeat, sign off. Each is one
// statement guarded by the row still being live, so a purged or stopped row is never revived. The console and
// outboxctl read the registry through RelayFleet.
class RelayRegistry final {
public:
    explicit RelayRegistry(DbSession& session);

    // Returns the new row's id. Throws OutboxError.
    qint64 registerNode(const RelayRegistration& node);

    // False when the row is no longer live (purged, or marked stopped): the caller registers anew.
    bool heartbeat(qint64 id, const RelayHeartbeat& beat);

    // A graceful stop: the row becomes 'stopped' with the final totals.
    void markStopped(qint64 id, const RelayHeartbeat& beat);
    // Records as gone (gone_at, migration 0026) every relay that relay_node_state() now finds gone, so that it stays
    // gone when what proved it no longer can: a later session given one of its pids, a restart of the server.
    // Returns how many it marked. Any running relay does it with its heartbeat.
    int markGone();

private:
    bool sessionsAreOwn() const;
    bool update(qint64 id, const RelayHeartbeat& beat, bool stopping);

    DbSession& m_session;
};
