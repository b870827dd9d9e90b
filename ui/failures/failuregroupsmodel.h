// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/failuregroup.h"

#include <QAbstractTableModel>

// The failure groups as the Failures tab lists them, largest first; replaced as a whole by each load.
class FailureGroupsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Rows, Failed, Dead, LastSeen, EventTypes, Signature, ColumnCount };
    enum Role { SignatureRole = Qt::UserRole + 1 };

    explicit FailureGroupsModel(QObject* parent = nullptr);

    void setGroups(const QList<FailureGroup>& groups);
    const QList<FailureGroup>& groups() const { return m_groups; }

    int rowCount(const QModelIndex& parent = {}) const final override;
    int columnCount(const QModelIndex& parent = {}) const final override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;

private:
    QList<FailureGroup> m_groups;
};
