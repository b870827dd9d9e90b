// SPDX-License-Identifier: GPL-3.0-or-later
#include "overview/pausesmodel.h"

#include "common/auditsubject.h"
#include "core/timeformatter.h"

#include <QLocale>
#include <algorithm>

PausesModel::PausesModel(QObject* parent)
    : SnapshotTableModel(ColumnCount, parent)
{ }

QString PausesModel::describe(const PublishPause& pause)
{
    return pause.scope == PauseScope::Relay ? tr("relay %1").arg(pause.target) : tr("event type %1").arg(pause.target);
}

int PausesModel::rowOfId(qint64 id) const
{
    const auto found
        = std::find_if(rows().cbegin(), rows().cend(), [id](const PublishPause& pause) { return pause.id == id; });
    return found == rows().cend() ? -1 : int(found - rows().cbegin());
}

QVariant PausesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PublishPause& pause = rows().at(index.row());
    if (role == IdRole)
        return pause.id;
    if (role == Qt::ToolTipRole && index.column() == Since)
        return TimeFormatter::exact(pause.pausedAt);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case What:
        return pause.resuming() ? tr("%1 (resuming)").arg(describe(pause)) : describe(pause);
    case PausedBy:
        return pause.pausedBy;
    case Since:
        return TimeFormatter::display(pause.pausedAt);
    case Parked:
        if (pause.scope == PauseScope::Relay)
            return QStringLiteral("–");
        return pause.parkedCapped ? tr("%1+").arg(QLocale().toString(pause.parkedRows))
                                  : QLocale().toString(pause.parkedRows);
    case Reason:
        return pause.reason;
    default:
        return {};
    }
}

QVariant PausesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return SnapshotTableModel::headerData(section, orientation, role);
    switch (section) {
    case What:
        return tr("Paused");
    case PausedBy:
        return tr("By");
    case Since:
        return tr("Since");
    case Parked:
        return tr("Rows held");
    case Reason:
        return tr("Reason");
    default:
        return {};
    }
}
