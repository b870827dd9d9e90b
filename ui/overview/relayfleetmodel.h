// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/snapshottablemodel.h"
#include "operations/relaynode.h"

// The relays of the registry as the Overview lists them: one row per relay, most recently seen first, with
// stale relays (presumed dead) in red and stopped ones greyed. Replaced as a whole by each refresh.
class RelayFleetModel final : public SnapshotTableModel<RelayNode> {
    Q_OBJECT
public:
    enum Column { Name, Host, State, LastSeen, PublishRate, Published, Workers, Version, Sink, LastError, ColumnCount };
    enum Role { StateRole = Qt::UserRole + 1 };

    explicit RelayFleetModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;

    static QString stateText(RelayState state);
};
