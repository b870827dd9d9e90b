// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/snapshottablemodel.h"
#include "operations/eventtypebreakdown.h"

// The event types as the Event types tab lists them: one row per type, a column per state (counts at the cap read
// "10,000+") and the age of its oldest unpublished row. Replaced as a whole by each refresh.
class EventTypesModel final : public SnapshotTableModel<EventTypeCounts> {
    Q_OBJECT
public:
    // EventType, then one column per status in the order of OutboxStatusNames, then OldestUnpublished.
    static constexpr int EventType = 0;
    static constexpr int FirstStatus = 1;
    static int statusColumn(OutboxStatus status);
    static int oldestUnpublishedColumn();

    explicit EventTypesModel(QObject* parent = nullptr);

    // The row of `eventType`, -1 if it is not listed.
    int rowOfType(const QString& eventType) const;
    // What a column's status is; nullopt for the name and age columns.
    static std::optional<OutboxStatus> statusOf(int column);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;
};
