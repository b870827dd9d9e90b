// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/snapshottablemodel.h"
#include "operations/relaynode.h"

// The relays of the registry as the Overview lists them: one row per relay, most recently seen first, with
// failing, gone and stale relays in red and stopped ones greyed. Replaced as a whole by each refresh; durations
// are judged by the database's clock at the time of the read.
class RelayFleetModel final : public SnapshotTableModel<RelayNode> {
    Q_OBJECT
public:
    enum Column { Name, Host, State, LastSeen, PublishRate, Published, Workers, Version, Sink, LastError, ColumnCount };
    enum Role { StateRole = Qt::UserRole + 1, IdRole };

    explicit RelayFleetModel(QObject* parent = nullptr);

    void setRows(const QList<RelayNode>& rows, const QDateTime& serverNow);
    // The row of relay `id` (relay_nodes.id), -1 if it is not listed.
    int rowOfId(qint64 id) const;

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;

    static QString stateText(RelayState state);
    // Why a failing relay publishes nothing, for how long, in the words the wait causes and the warnings use:
    // "broker unreachable for 20 s: relay vm:123: connection refused".
    static QString failingText(const RelayNode& node, const QDateTime& serverNow);

private:
    QString lastErrorText(const RelayNode& node) const;

    QDateTime m_serverNow;
};
