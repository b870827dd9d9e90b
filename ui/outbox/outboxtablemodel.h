// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/pagedlistmodel.h"
#include "outbox/outboxfilter.h"
#include "outbox/outboxreadrepository.h"

#include <QCoreApplication>

// The outbox list: one row per outbox message, without payloads or full errors (the detail pane reads
// those for the selected row only). Stuck rows are marked for the view.
class OutboxTableModel final : public PagedListModel<OutboxRowSummary, OutboxFilter> {
    Q_DECLARE_TR_FUNCTIONS(OutboxTableModel)

public:
    // What tells an operator why a row is where it is comes first; the rest follows.
    enum Column {
        Status,
        EventType,
        Aggregate,
        Attempts,
        LastError,
        Id,
        NextAttempt,
        Created,
        Published,
        LeaseOwner,
        LeaseExpires,
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1,
        StatusRole,
        StuckRole, // StuckRowClassifier::Kind as int
    };

    explicit OutboxTableModel(DatabaseClient& worker, QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const final override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;
};
