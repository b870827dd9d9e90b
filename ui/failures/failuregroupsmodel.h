// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/snapshottablemodel.h"
#include "outbox/failuregroup.h"

// The failure groups as the Failures tab lists them, largest first; replaced as a whole by each load.
class FailureGroupsModel final : public SnapshotTableModel<FailureGroup> {
    Q_OBJECT
public:
    enum Column { Rows, Failed, Dead, HeldBack, LastSeen, EventTypes, Signature, ColumnCount };
    enum Role { SignatureRole = Qt::UserRole + 1 };

    explicit FailureGroupsModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;

    // "19 row(s) of 1 key(s)": what the group's dead rows hold back; empty when they block no key.
    static QString heldBackText(const FailureGroup& group);
};
