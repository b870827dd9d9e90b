// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/pagedlistmodel.h"
#include "operations/auditfilter.h"
#include "operations/auditrepository.h"

#include <QCoreApplication>

// The audit log: one row per operator action, newest first, loaded page by page as the view scrolls.
class AuditTableModel final : public PagedListModel<AuditEntry, AuditFilter> {
    Q_DECLARE_TR_FUNCTIONS(AuditTableModel)

public:
    enum Column { At, Actor, Action, Rows, Reason, ColumnCount };
    enum Role { IdRole = Qt::UserRole + 1 };

    explicit AuditTableModel(DatabaseClient& worker, QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const final override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;
};
