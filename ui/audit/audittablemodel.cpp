// SPDX-License-Identifier: GPL-3.0-or-later
#include "audit/audittablemodel.h"

#include "core/timeformatter.h"

AuditTableModel::AuditTableModel(DatabaseClient& worker, QObject* parent)
    : PagedListModel(
        worker,
        [](DbSession& session, const AuditFilter& filter, qint64 beforeId, int limit) {
            return Page { AuditRepository(session).page(filter, limit, beforeId), QDateTime() };
        },
        [](DbSession& session, const QList<qint64>& ids) { return AuditRepository(session).byIds(ids); }, parent)
{ }

int AuditTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case At:
        return tr("When");
    case Actor:
        return tr("Who");
    case Action:
        return tr("Action");
    case Rows:
        return tr("Rows");
    case Reason:
        return tr("Reason");
    }
    return {};
}

QVariant AuditTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AuditEntry& entry = rowAt(index.row());
    if (role == IdRole)
        return entry.id;
    if (role == Qt::ToolTipRole)
        return index.column() == At ? TimeFormatter::exact(entry.at) : QVariant(entry.reason);
    if (role == Qt::TextAlignmentRole && index.column() == Rows)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case At:
        return TimeFormatter::display(entry.at);
    case Actor:
        return entry.actor;
    case Action:
        return entry.action;
    case Rows:
        return entry.rows;
    case Reason:
        return entry.reason;
    }
    return {};
}
