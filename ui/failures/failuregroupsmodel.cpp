// SPDX-License-Identifier: GPL-3.0-or-later
#include "failures/failuregroupsmodel.h"

#include "core/timeformatter.h"

#include <QLocale>

FailureGroupsModel::FailureGroupsModel(QObject* parent)
    : SnapshotTableModel(ColumnCount, parent)
{ }

QVariant FailureGroupsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const FailureGroup& group = rows().at(index.row());
    if (role == SignatureRole)
        return group.signature;
    if (role == Qt::TextAlignmentRole && index.column() <= Dead)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (index.column() == LastSeen)
            return tr("First seen %1\nLast seen %2")
                .arg(TimeFormatter::exact(group.firstSeen), TimeFormatter::exact(group.lastSeen));
        if (index.column() == Signature)
            return tr("%1\n\nFor example (row %2):\n%3")
                .arg(group.signature)
                .arg(group.sampleId)
                .arg(group.sampleError);
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Rows:
        return QLocale().toString(group.rows());
    case Failed:
        return QLocale().toString(group.failed);
    case Dead:
        return QLocale().toString(group.dead);
    case LastSeen:
        return TimeFormatter::display(group.lastSeen);
    case EventTypes:
        return group.eventTypes.join(QStringLiteral(", "));
    case Signature:
        return group.signature;
    default:
        return {};
    }
}

QVariant FailureGroupsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return SnapshotTableModel::headerData(section, orientation, role);
    switch (section) {
    case Rows:
        return tr("Rows");
    case Failed:
        return tr("Failed");
    case Dead:
        return tr("Dead");
    case LastSeen:
        return tr("Last seen");
    case EventTypes:
        return tr("Event types");
    case Signature:
        return tr("Cause (error signature)");
    default:
        return {};
    }
}
