// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/snapshottablemodel.h"
#include "operations/publishpause.h"

// What is paused, as the Overview lists it above the relays: each relay name and event type an operator paused, by
// whom, since when, why, and the rows of a paused type parked so far. Replaced as a whole by each refresh.
class PausesModel final : public SnapshotTableModel<PublishPause> {
    Q_OBJECT
public:
    enum Column { What, PausedBy, Since, Parked, Reason, ColumnCount };
    enum Role { IdRole = Qt::UserRole + 1 };

    explicit PausesModel(QObject* parent = nullptr);

    // "relay eu-1" or "event type order.created", in the console's words.
    static QString describe(const PublishPause& pause);
    // The row of pause `id` (outbox_pauses.id), -1 if it is not listed.
    int rowOfId(qint64 id) const;

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;
};
