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

void RelayFleetModel::setRows(const QList<RelayNode>& rows, const QDateTime& serverNow)
{
    m_serverNow = serverNow;
    m_now = serverNow;
    SnapshotTableModel::setRows(rows);
}

void RelayFleetModel::setNow(const QDateTime& now)
{
    m_now = now;
    if (rowCount() > 0)
        emit dataChanged(index(0, LastSeen), index(rowCount() - 1, LastSeen), { Qt::DisplayRole, HeartbeatAgeRole });
}

QString RelayFleetModel::stateText(RelayState state)
{
    switch (state) {
    case RelayState::Alive:
        return tr("alive");
    case RelayState::Paused:
        return tr("paused");
    case RelayState::Failing:
        return tr("failing");
    // One word each, so that the column stays narrow; the tooltip says what the word means.
    case RelayState::Gone:
        return tr("gone");
    case RelayState::Stale:
        return tr("stale");
    case RelayState::Stopped:
        return tr("stopped");
    }
    return {};
}

static QString firstLine(const QString& text)
{
    return text.section(QLatin1Char('\n'), 0, 0);
}

QString RelayFleetModel::failingText(const RelayNode& node, const QDateTime& serverNow)
{
    const QString duration = TimeFormatter::durationBetween(node.failingSince, serverNow);
    return (node.sinkUp ? tr("publishes refused for %1: relay %2: %3") : tr("broker unreachable for %1: relay %2: %3"))
        .arg(duration, node.name, firstLine(node.lastError));
}

QString RelayFleetModel::stateChange(const RelayNode* before, const RelayNode& now)
{
    if (before && before->state == now.state)
        return {};
    switch (now.state) {
    case RelayState::Alive:
        return before ? tr("Relay %1 publishing again").arg(now.name) : tr("Relay %1 started").arg(now.name);
    case RelayState::Paused:
        return tr("Relay %1 paused").arg(now.name);
    case RelayState::Failing:
        return now.lastError.isEmpty() ? tr("Relay %1 failing").arg(now.name)
                                       : tr("Relay %1 failing: %2").arg(now.name, firstLine(now.lastError));
    case RelayState::Gone:
        return tr("Relay %1 gone: its process died").arg(now.name);
    case RelayState::Stale:
        return tr("Relay %1 stale: no heartbeat for %2").arg(now.name, TimeFormatter::duration(now.lastSeenAgeMs));
    case RelayState::Stopped:
        return tr("Relay %1 stopped").arg(now.name);
    }
    return {};
}

QString RelayFleetModel::hostText(const RelayNode& node)
{
    return tr("%1 (pid %2)").arg(node.host).arg(node.pid);
}

// Where it publishes now, when its sink names a node (a broker's): the node alone, since a cluster's list of nodes is
// long and a narrow column cuts it short; the tooltip says which sink it is.
QString RelayFleetModel::sinkText(const RelayNode& node)
{
    if (!node.sinkUp)
        return tr("%1 (unreachable)").arg(node.sink);
    return node.publishingTo.isEmpty() ? node.sink : node.publishingTo;
}

QString RelayFleetModel::sinkToolTip(const RelayNode& node)
{
    if (!node.sinkUp || node.publishingTo.isEmpty())
        return sinkText(node);
    return tr("on %1 of %2").arg(node.publishingTo, node.sink);
}

// A current error says since when; a resolved one is marked as past, with how long ago it was.
QString RelayFleetModel::lastErrorText(const RelayNode& node) const
{
    if (node.lastError.isEmpty())
        return {};
    if (node.state == RelayState::Failing) {
        return tr("now, for %1: %2")
            .arg(TimeFormatter::durationBetween(node.failingSince, m_serverNow), firstLine(node.lastError));
    }
    return tr("resolved, %1 ago: %2")
        .arg(TimeFormatter::durationBetween(node.lastErrorAt, m_serverNow), firstLine(node.lastError));
}

int RelayFleetModel::rowOfId(qint64 id) const
{
    const auto found
        = std::find_if(rows().cbegin(), rows().cend(), [id](const RelayNode& node) { return node.id == id; });
    return found == rows().cend() ? -1 : int(found - rows().cbegin());
}

QVariant RelayFleetModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RelayNode& node = rows().at(index.row());
    if (role == StateRole)
        return RelayStateNames.name(node.state);
    if (role == IdRole)
        return node.id;
    if (role == HeartbeatAgeRole)
        return node.lastSeen.msecsTo(m_now);
    const bool alarming
        = node.state == RelayState::Failing || node.state == RelayState::Gone || node.state == RelayState::Stale;
    if (role == Qt::ForegroundRole) {
        if (isStale())
            return staleForeground();
        if (alarming)
            return QBrush(QColor(0xdc, 0x32, 0x2f));
        if (node.state == RelayState::Stopped)
            return QBrush(QColor(0x93, 0xa1, 0xa1));
        if (node.state == RelayState::Paused)
            return QBrush(QColor(0xb5, 0x89, 0x00));
        return {};
    }
    if (role == Qt::FontRole && alarming && index.column() == State) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        // Host, version and sink give way to the last error in a narrow table, cut short: their tooltips say them
        // whole.
        case Host:
            return node.startedAt.isValid()
                ? tr("%1\nprocess started %2").arg(hostText(node), TimeFormatter::display(node.startedAt))
                : hostText(node);
        case Version:
            return tr("%1\nlease %2, heartbeat every %3")
                .arg(node.version, TimeFormatter::duration(node.leaseMs), TimeFormatter::duration(node.heartbeatMs));
        case Sink:
            return sinkToolTip(node);
        case LastSeen:
            return tr("Its last heartbeat: %1").arg(TimeFormatter::exact(node.lastSeen));
        case LastError:
            return node.lastErrorAt.isValid()
                ? tr("%1\nat %2").arg(node.lastError, TimeFormatter::exact(node.lastErrorAt))
                : QVariant();
        case State:
            switch (node.state) {
            case RelayState::Stale:
                return tr("No heartbeat for %1 (it beats every %2): killed, its host gone, or cut off from the "
                          "database.")
                    .arg(TimeFormatter::duration(node.lastSeenAgeMs), TimeFormatter::duration(node.heartbeatMs));
            case RelayState::Gone:
                return tr("None of its database sessions is left on the server: its process died or was killed. "
                          "Rows it held are rescued when their leases expire.");
            case RelayState::Failing:
                return failingText(node, m_serverNow);
            case RelayState::Paused:
                return tr("Paused by an operator since %1: it claims nothing until its name is resumed (see the "
                          "pauses above).")
                    .arg(TimeFormatter::display(node.pausedSince));
            default:
                return {};
            }
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
        return hostText(node);
    case State:
        return stateText(node.state);
    case LastSeen:
        return tr("%1 ago").arg(TimeFormatter::durationBetween(node.lastSeen, m_now));
    case PublishRate:
        return isRunning(node.state) ? tr("%1 /s").arg(QLocale().toString(node.publishRate, 'f', 1))
                                     : QStringLiteral("–");
    case Published:
        return QLocale().toString(node.published);
    case Workers:
        return tr("%1 × %2").arg(node.workers).arg(node.batchSize);
    case Version:
        return node.version;
    case Sink:
        return sinkText(node);
    case LastError:
        return lastErrorText(node);
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
