// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/snapshottablemodel.h"
#include "operations/outboxoverview.h"

// The oldest unpublished rows as the Overview lists them, each with why it waits. Replaced as a whole by each
// refresh; ages are judged by the database's clock at the time of the read.
class WaitingRowsModel final : public SnapshotTableModel<WaitingRow> {
    Q_OBJECT
public:
    enum Column { Waiting, Status, EventType, Id, Cause, ColumnCount };
    // IdRole: the row's id. OpensRole: the row a double-click opens: for a row waiting behind an older row of its
    // key, that row (the one to act on) when the cause is clicked; otherwise the row itself.
    enum Role { IdRole = Qt::UserRole + 1, OpensRole };

    explicit WaitingRowsModel(QObject* parent = nullptr);

    // `failing`: the relay failing longest, whose error the cause RelaysFailing names (nullptr if none).
    void setRows(const QList<WaitingRow>& rows, const QDateTime& serverNow, const RelayNode* failing);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;

    // What the operator reads for `waiting`: the cause, with the row's own facts (its error, its worker) or the
    // relays' (why they fail, since when).
    QString causeText(const WaitingRow& waiting) const;

private:
    QDateTime m_serverNow;
    std::optional<RelayNode> m_failing;
};
