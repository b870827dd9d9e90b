// SPDX-License-Identifier: GPL-3.0-or-later
#include "failures/failuregroupsmodel.h"

#include "core/timeformatter.h"

#include <QLocale>

FailureGroupsModel::FailureGroupsModel(QObject* parent)
    : SnapshotTableModel(ColumnCount, parent)
{ }

QString FailureGroupsModel::heldBackText(const FailureGroup& group)
{
    if (group.blockedKeys == 0)
        return {};
    // At the cap the count is a lower bound, said as such.
    const QString rows = group.heldBack >= FailureGroup::HoldCap
        ? tr("%1+ rows").arg(QLocale().toString(group.heldBack))
        : tr("%n row(s)", nullptr, int(group.heldBack));
    const QString keys = group.blockedKeys >= FailureGroup::HoldCap
        ? tr("%1+ keys").arg(QLocale().toString(group.blockedKeys))
        : tr("%n key(s)", nullptr, int(group.blockedKeys));
    return tr("%1 of %2").arg(rows, keys);
}

QVariant FailureGroupsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const FailureGroup& group = rows().at(index.row());
    if (role == SignatureRole)
        return group.signature;
    if (role == Qt::TextAlignmentRole && index.column() <= HeldBack)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (index.column() == LastSeen)
            return tr("First seen %1\nLast seen %2")
                .arg(TimeFormatter::exact(group.firstSeen), TimeFormatter::exact(group.lastSeen));
        if (index.column() == HeldBack)
            return tr("The group's dead rows with an ordering key each block their key: the key's later rows wait "
                      "until the dead row is retried or discarded. Counted up to %1.")
                .arg(QLocale().toString(FailureGroup::HoldCap));
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
    case HeldBack:
        return heldBackText(group);
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
    case HeldBack:
        return tr("Holds back");
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
