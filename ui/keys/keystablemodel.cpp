// SPDX-License-Identifier: GPL-3.0-or-later
#include "keys/keystablemodel.h"

#include "core/timeformatter.h"

#include <QFontDatabase>

KeysTableModel::KeysTableModel(DatabaseClient& worker, QObject* parent)
    : PagedListModel(
        worker,
        // The list classifies nothing by time, so it does not spend a round trip on the server's clock.
        [](DbSession& session, const KeyFilter& filter, qint64 beforeId, int limit) {
            return Page { IdempotencyRepository(session).page(filter, limit, beforeId), QDateTime() };
        },
        [](DbSession& session, const QList<qint64>& ids) { return IdempotencyRepository(session).recordsByIds(ids); },
        parent)
{ }

int KeysTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KeysTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Scope:
        return tr("Scope");
    case Key:
        return tr("Key");
    case Status:
        return tr("Status");
    case Fingerprint:
        return tr("Fingerprint");
    case Replays:
        return tr("Replays");
    case LastReplay:
        return tr("Last replay");
    case Created:
        return tr("Created");
    case Expires:
        return tr("Expires");
    case Order:
        return tr("Order");
    case Response:
        return tr("Response");
    }
    return {};
}

QString KeysTableModel::statusText(const IdempotencyRecord& record)
{
    QString status = KeyStatusNames.name(record.status);
    if (!record.failureRetryable)
        return status;
    return *record.failureRetryable ? status + tr(" (released)") : status + tr(" (final)");
}

static QDateTime instantOf(const IdempotencyRecord& record, int column)
{
    switch (column) {
    case KeysTableModel::LastReplay:
        return record.lastReplayedAt;
    case KeysTableModel::Created:
        return record.createdAt;
    case KeysTableModel::Expires:
        return record.expiresAt;
    default:
        return {};
    }
}

static bool isNumeric(int column)
{
    return column == KeysTableModel::Replays || column == KeysTableModel::Order || column == KeysTableModel::Response;
}

QVariant KeysTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const IdempotencyRecord& record = rowAt(index.row());
    switch (role) {
    case IdRole:
        return record.id;
    case StatusRole:
        return KeyStatusNames.name(record.status);
    case Qt::DisplayRole:
        switch (index.column()) {
        case Scope:
            return record.scope;
        case Key:
            return record.key;
        case Status:
            return statusText(record);
        case Fingerprint:
            return record.fingerprint.left(ShortFingerprintLength);
        case Replays:
            return record.replayCount;
        case Order:
            return record.orderId ? QVariant(*record.orderId) : QVariant();
        case Response:
            // An in-progress key has no response yet.
            return record.responseStatus ? QVariant(record.responseStatus) : QVariant();
        default:
            return TimeFormatter::display(instantOf(record, index.column()));
        }
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Key:
            return record.key;
        case Fingerprint:
            return record.fingerprint;
        default:
            return TimeFormatter::exact(instantOf(record, index.column()));
        }
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole:
        if (index.column() == Fingerprint)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return {};
    }
    return {};
}
