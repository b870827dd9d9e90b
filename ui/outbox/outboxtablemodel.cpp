// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxtablemodel.h"

#include "core/timeformatter.h"
#include "outbox/stuckrowclassifier.h"

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

OutboxTableModel::OutboxTableModel(DatabaseClient& worker, QObject* parent)
    : PagedListModel(
        worker,
        [](DbSession& session, const OutboxFilter& filter, qint64 beforeId, int limit) {
            OutboxPage page = OutboxReadRepository(session).page(filter, limit, beforeId);
            return Page { std::move(page.rows), page.serverNow };
        },
        [](DbSession& session, const QList<qint64>& ids) { return OutboxReadRepository(session).rowsByIds(ids); },
        parent)
{ }

int OutboxTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OutboxTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Id:
        return tr("ID");
    case EventType:
        return tr("Event");
    case Aggregate:
        return tr("Aggregate");
    case Status:
        return tr("Status");
    case Attempts:
        return tr("Attempts");
    case NextAttempt:
        return tr("Next attempt");
    case LeaseOwner:
        return tr("Lease owner");
    case LeaseExpires:
        return tr("Lease expires");
    case LastError:
        return tr("Last error");
    case Created:
        return tr("Created");
    case Published:
        return tr("Published");
    }
    return {};
}

// The last error of a row that was published or discarded since is history: it no longer says what is wrong.
static bool errorIsPast(const OutboxRowSummary& row)
{
    return !row.lastErrorLine.isEmpty()
        && (row.status == OutboxStatus::Published || row.status == OutboxStatus::Discarded);
}

static QDateTime instantOf(const OutboxRowSummary& row, int column)
{
    switch (column) {
    case OutboxTableModel::NextAttempt:
        // Published and dead rows are never attempted again.
        return row.status == OutboxStatus::Published || row.status == OutboxStatus::Dead ? QDateTime()
                                                                                         : row.nextAttemptAt;
    case OutboxTableModel::LeaseExpires:
        return row.leaseExpiresAt;
    case OutboxTableModel::Created:
        return row.createdAt;
    case OutboxTableModel::Published:
        return row.publishedAt;
    default:
        return {};
    }
}

QVariant OutboxTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const OutboxRowSummary& row = rowAt(index.row());
    const auto stuck = StuckRowClassifier(filter().stuckThresholdMs).classify(row, serverNow());
    switch (role) {
    case IdRole:
        return row.id;
    case StatusRole:
        return OutboxStatusNames.name(row.status);
    case StuckRole:
        return int(stuck);
    case Qt::DisplayRole:
        switch (index.column()) {
        case Id:
            return row.id;
        case EventType:
            return row.eventType;
        case Aggregate:
            return row.aggregateType + QLatin1Char(' ') + row.aggregateId;
        case Status:
            return stuck == StuckRowClassifier::Kind::NotStuck || stuck == StuckRowClassifier::Kind::Dead
                ? OutboxStatusNames.name(row.status)
                : OutboxStatusNames.name(row.status) + tr(" (stuck)");
        case Attempts:
            return row.attempts;
        case LeaseOwner:
            return row.leaseOwner;
        case LastError:
            if (!errorIsPast(row))
                return row.lastErrorLine;
            return row.status == OutboxStatus::Published ? tr("before publishing: %1").arg(row.lastErrorLine)
                                                         : tr("before it was discarded: %1").arg(row.lastErrorLine);
        default:
            return TimeFormatter::display(instantOf(row, index.column()));
        }
    case Qt::ToolTipRole:
        if (index.column() == Status && stuck != StuckRowClassifier::Kind::NotStuck)
            return StuckRowClassifier::describe(stuck);
        if (index.column() == LastError && errorIsPast(row)) {
            return tr("A past error: the row failed with it before it was %1; it is not failing now.\n\n%2")
                .arg(OutboxStatusNames.name(row.status), row.lastErrorLine);
        }
        if (index.column() == LastError)
            return row.lastErrorLine;
        if (index.column() == Attempts)
            return tr("Attempts since the row was last requeued (what the relay's limit counts); the detail pane "
                      "also counts those before");
        return TimeFormatter::exact(instantOf(row, index.column()));
    case Qt::TextAlignmentRole:
        // The id follows the error, often at the edge of the view: left-aligned, it shows as soon as its column does.
        return index.column() == Attempts ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                          : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (index.column() == LastError && errorIsPast(row))
            return QGuiApplication::palette().brush(QPalette::PlaceholderText);
        return {};
    case Qt::BackgroundRole:
        // Translucent, so the highlight reads on light and dark palettes alike.
        if (stuck == StuckRowClassifier::Kind::Dead)
            return QColor(220, 50, 47, 60);
        if (stuck != StuckRowClassifier::Kind::NotStuck)
            return QColor(230, 160, 20, 70);
        return {};
    case Qt::FontRole:
        if (index.column() == Status && stuck != StuckRowClassifier::Kind::NotStuck) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    }
    return {};
}
