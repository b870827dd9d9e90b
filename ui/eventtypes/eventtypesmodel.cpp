// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventtypes/eventtypesmodel.h"

#include "core/timeformatter.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <algorithm>

EventTypesModel::EventTypesModel(QObject* parent)
    : SnapshotTableModel(FirstStatus + int(OutboxStatusNames.values().size()) + 1, parent)
{ }

int EventTypesModel::statusColumn(OutboxStatus status)
{
    return FirstStatus + int(OutboxStatusNames.values().indexOf(status));
}

int EventTypesModel::oldestUnpublishedColumn()
{
    return FirstStatus + int(OutboxStatusNames.values().size());
}

std::optional<OutboxStatus> EventTypesModel::statusOf(int column)
{
    const QList<OutboxStatus> statuses = OutboxStatusNames.values();
    const int index = column - FirstStatus;
    if (index < 0 || index >= statuses.size())
        return std::nullopt;
    return statuses.at(index);
}

int EventTypesModel::rowOfType(const QString& eventType) const
{
    const auto found = std::find_if(rows().cbegin(), rows().cend(),
        [&eventType](const EventTypeCounts& type) { return type.eventType == eventType; });
    return found == rows().cend() ? -1 : int(found - rows().cbegin());
}

QVariant EventTypesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const EventTypeCounts& type = rows().at(index.row());
    const std::optional<OutboxStatus> status = statusOf(index.column());
    if (role == Qt::TextAlignmentRole && index.column() != EventType)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && status) {
        // Rows that need an operator, as on the Overview's tiles.
        if ((*status == OutboxStatus::Dead || *status == OutboxStatus::Paused) && type.count(*status).value > 0)
            return QBrush(*status == OutboxStatus::Dead ? QColor(0xdc, 0x32, 0x2f) : QColor(0xb5, 0x89, 0x00));
        if (type.count(*status).value == 0)
            return QBrush(QColor(0x93, 0xa1, 0xa1));
        return {};
    }
    if (role == Qt::ToolTipRole && status && type.count(*status).capped)
        return tr("At least %1: counting stops after %2 rows have been read, so that it stays cheap on large tables")
            .arg(
                QLocale().toString(type.count(*status).value), QLocale().toString(EventTypeBreakdown::DefaultCountCap));
    if (role != Qt::DisplayRole)
        return {};
    if (index.column() == EventType)
        return type.eventType;
    if (status) {
        const CappedCount& count = type.count(*status);
        return count.capped ? tr("%1+").arg(QLocale().toString(count.value)) : QLocale().toString(count.value);
    }
    return type.oldestUnpublishedAgeMs ? TimeFormatter::duration(*type.oldestUnpublishedAgeMs) : QStringLiteral("–");
}

QVariant EventTypesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::TextAlignmentRole && section == EventType)
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return SnapshotTableModel::headerData(section, orientation, role);
    if (section == EventType)
        return tr("Event type");
    if (const std::optional<OutboxStatus> status = statusOf(section))
        return OutboxStatusNames.name(*status);
    return tr("Oldest unpublished");
}
