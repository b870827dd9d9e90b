// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/snapshottablemodel.h"
#include "operations/relaynode.h"

// The relays of the registry as the Overview lists them: one row per relay, most recently seen first, with
// failing, gone and stale relays in red and stopped ones greyed. Replaced as a whole by each refresh; states and how
// long they have lasted are judged by the database's clock at the time of the read, while each relay's last
// heartbeat keeps ageing by the clock setNow() moves on.
class RelayFleetModel final : public SnapshotTableModel<RelayNode> {
    Q_OBJECT
public:
    enum Column { Name, Host, State, LastSeen, PublishRate, Published, Workers, Version, Sink, LastError, ColumnCount };
    // HeartbeatAgeRole: how old its last heartbeat is, in ms, by setNow()'s clock.
    enum Role { StateRole = Qt::UserRole + 1, IdRole, HeartbeatAgeRole };

    explicit RelayFleetModel(QObject* parent = nullptr);

    void setRows(const QList<RelayNode>& rows, const QDateTime& serverNow);
    // The database's clock now, as the page estimates it (its now at the read plus the time elapsed here since): how
    // old each heartbeat is stays true between reads, and while none succeeds.
    void setNow(const QDateTime& now);
    // The row of relay `id` (relay_nodes.id), -1 if it is not listed.
    int rowOfId(qint64 id) const;

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;

    static QString stateText(RelayState state);
    // Why a failing relay publishes nothing, for how long, in the words the wait causes and the warnings use:
    // "broker unreachable for 20 s: relay vm:123: connection refused".
    static QString failingText(const RelayNode& node, const QDateTime& serverNow);
    // What a read found changed about a relay, for the incident's timeline in the message log: "relay X failing:
    // its error", "relay X publishing again"… `before`: the relay as the read before found it, nullptr for one that
    // read did not list. Empty when its state is the same.
    static QString stateChange(const RelayNode* before, const RelayNode& now);

private:
    static QString hostText(const RelayNode& node);
    static QString sinkText(const RelayNode& node);
    static QString sinkToolTip(const RelayNode& node);
    QString lastErrorText(const RelayNode& node) const;

    QDateTime m_serverNow;
    QDateTime m_now; // setNow()'s
};
