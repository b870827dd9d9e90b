// SPDX-License-Identifier: GPL-3.0-or-later
#include "overview/relayfleetmodel.h"

#include "core/timeformatter.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

RelayFleetModel::RelayFleetModel(QObject* parent)
    : SnapshotTableModel(ColumnCount, parent)
{ }

QString RelayFleetModel::stateText(RelayState state)
{
    switch (state) {
    case RelayState::Alive:
        return tr("alive");
    case RelayState::Stale:
        return tr("stale — presumed dead");
    case RelayState::Stopped:
        return tr("stopped");
    }
    return {};
}

QVariant RelayFleetModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RelayNode& node = rows().at(index.row());
    if (role == StateRole)
        return RelayStateNames.name(node.state);
    if (role == Qt::ForegroundRole) {
        if (node.state == RelayState::Stale)
            return QBrush(QColor(0xdc, 0x32, 0x2f));
        if (node.state == RelayState::Stopped)
            return QBrush(QColor(0x93, 0xa1, 0xa1));
        return {};
    }
    if (role == Qt::FontRole && node.state == RelayState::Stale && index.column() == State) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case LastSeen:
            return TimeFormatter::exact(node.lastSeen);
        case LastError:
            return node.lastErrorAt.isValid()
                ? tr("%1\nat %2").arg(node.lastError, TimeFormatter::exact(node.lastErrorAt))
                : QVariant();
        case State:
            return node.state == RelayState::Stale
                ? tr("No heartbeat for %1 (it beats every %2): killed, its host gone, or cut off from the database.")
                      .arg(TimeFormatter::duration(node.lastSeenAgeMs), TimeFormatter::duration(node.heartbeatMs))
                : QVariant();
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name:
        return node.name;
    case Host:
        return tr("%1 (pid %2)").arg(node.host).arg(node.pid);
    case State:
        return stateText(node.state);
    case LastSeen:
        return tr("%1 ago").arg(TimeFormatter::duration(node.lastSeenAgeMs));
    case PublishRate:
        return node.state == RelayState::Alive ? tr("%1 /s").arg(QLocale().toString(node.publishRate, 'f', 1))
                                               : QStringLiteral("–");
    case Published:
        return QLocale().toString(node.published);
    case Workers:
        return tr("%1 × %2").arg(node.workers).arg(node.batchSize);
    case Version:
        return node.version;
    case Sink:
        return node.sinkUp ? node.sink : tr("%1 (unreachable)").arg(node.sink);
    case LastError:
        return node.lastError.section(QLatin1Char('\n'), 0, 0);
    default:
        return {};
    }
}

QVariant RelayFleetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return SnapshotTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Relay");
    case Host:
        return tr("Host");
    case State:
        return tr("State");
    case LastSeen:
        return tr("Last seen");
    case PublishRate:
        return tr("Publishing");
    case Published:
        return tr("Published");
    case Workers:
        return tr("Workers × batch");
    case Version:
        return tr("Version");
    case Sink:
        return tr("Sink");
    case LastError:
        return tr("Last error");
    default:
        return {};
    }
}
