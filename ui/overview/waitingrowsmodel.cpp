// SPDX-License-Identifier: GPL-3.0-or-later
#include "overview/waitingrowsmodel.h"

#include "core/timeformatter.h"
#include "overview/relayfleetmodel.h"

#include <QColor>

WaitingRowsModel::WaitingRowsModel(QObject* parent)
    : SnapshotTableModel(ColumnCount, parent)
{ }

void WaitingRowsModel::setRows(const QList<WaitingRow>& rows, const QDateTime& serverNow, const RelayNode* failing)
{
    m_serverNow = serverNow;
    m_failing = failing ? std::optional(*failing) : std::nullopt;
    SnapshotTableModel::setRows(rows);
}

QString WaitingRowsModel::causeText(const WaitingRow& waiting) const
{
    const OutboxRowSummary& row = waiting.row;
    switch (waiting.cause) {
    case WaitCause::BehindOlderRow: {
        if (!waiting.blocker)
            return tr("Waiting behind an older row of its key, published meanwhile: due again at the next claim");
        const OutboxRowSummary& blocker = *waiting.blocker;
        if (blocker.status == OutboxStatus::Dead)
            return tr("Waiting behind #%1 of its key, dead: %2 — retry or discard #%1 (double-click)")
                .arg(blocker.id)
                .arg(blocker.lastErrorLine);
        if (blocker.status == OutboxStatus::Failed)
            return tr("Waiting behind #%1 of its key, failing (attempt %2): %3")
                .arg(blocker.id)
                .arg(blocker.attempts)
                .arg(blocker.lastErrorLine);
        return tr("Waiting behind #%1 of its key, %2").arg(blocker.id).arg(OutboxStatusNames.name(blocker.status));
    }
    case WaitCause::TypePaused:
        return tr("Its event type %1 is paused: resume it to publish the row").arg(row.eventType);
    case WaitCause::NoRelayAlive:
        return tr("No relay is alive to publish it: start one (outboxctl relay)");
    case WaitCause::RelaysPaused:
        return tr("Every running relay is paused: resume one to publish the row");
    case WaitCause::RelaysFailing:
        return m_failing ? tr("Every relay is failing: %1").arg(RelayFleetModel::failingText(*m_failing, m_serverNow))
                         : tr("Every relay is failing");
    case WaitCause::Failing:
        return tr("Failing (attempt %1): %2").arg(row.attempts).arg(row.lastErrorLine);
    case WaitCause::LeaseExpired:
        return tr("Leased by %1, whose lease ran out: the worker is presumed dead; a relay rescues the row")
            .arg(row.leaseOwner);
    case WaitCause::Publishing:
        return tr("Being published by %1").arg(row.leaseOwner);
    case WaitCause::Scheduled:
        return tr("Not due until %1").arg(TimeFormatter::display(row.nextAttemptAt));
    case WaitCause::Overdue:
        return tr("Due for a long time while relays are alive: they are not keeping up");
    case WaitCause::Queued:
        return tr("Waiting its turn");
    }
    return {};
}

QVariant WaitingRowsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const WaitingRow& waiting = rows().at(index.row());
    if (role == IdRole)
        return waiting.row.id;
    if (role == OpensRole)
        return index.column() == Cause && waiting.blocker ? waiting.blocker->id : waiting.row.id;
    if (role == Qt::ForegroundRole && isStale())
        return staleForeground();
    if (role == Qt::ForegroundRole && index.column() == Cause) {
        const bool alarming = waiting.cause == WaitCause::NoRelayAlive || waiting.cause == WaitCause::RelaysFailing
            || waiting.cause == WaitCause::RelaysPaused || waiting.cause == WaitCause::LeaseExpired
            || waiting.cause == WaitCause::Overdue || waiting.cause == WaitCause::Failing
            || (waiting.blocker && isFailure(waiting.blocker->status));
        return alarming ? QVariant(QColor(0xdc, 0x32, 0x2f)) : QVariant();
    }
    if (role == Qt::ToolTipRole && index.column() == Cause)
        return causeText(waiting);
    if (role == Qt::ToolTipRole && index.column() == Waiting)
        return tr("Created %1").arg(TimeFormatter::exact(waiting.row.createdAt));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Waiting:
        return TimeFormatter::durationBetween(waiting.row.createdAt, m_serverNow);
    case Status:
        return OutboxStatusNames.name(waiting.row.status);
    case EventType:
        return waiting.row.eventType;
    case Id:
        return waiting.row.id;
    case Cause:
        return causeText(waiting);
    default:
        return {};
    }
}

QVariant WaitingRowsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return SnapshotTableModel::headerData(section, orientation, role);
    switch (section) {
    case Waiting:
        return tr("Waiting");
    case Status:
        return tr("Status");
    case EventType:
        return tr("Event");
    case Id:
        return tr("ID");
    case Cause:
        return tr("Why");
    default:
        return {};
    }
}
