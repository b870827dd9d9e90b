// SPDX-License-Identifier: GPL-3.0-or-later
#include "messages/messagelog.h"

#include "core/timeformatter.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>

MessageLog::MessageLog(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void MessageLog::post(const QString& text, const QList<qint64>& rows)
{
    const QDateTime now = QDateTime::currentDateTime();
    if (!m_entries.isEmpty() && m_entries.constLast().text == text && m_entries.constLast().rows == rows) {
        // A list that fails on every auto-refresh during an outage says so once, with a count and the latest time.
        Entry& last = m_entries.last();
        last.at = now;
        ++last.repeats;
        const int row = int(m_entries.size()) - 1;
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        emit posted(last);
        return;
    }
    if (m_entries.size() >= Capacity) {
        beginRemoveRows({}, 0, 0);
        m_entries.removeFirst();
        endRemoveRows();
    }
    const int row = int(m_entries.size());
    beginInsertRows({}, row, row);
    m_entries.append(Entry { now, text, rows, 1 });
    endInsertRows();
    emit posted(m_entries.constLast());
}

int MessageLog::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int MessageLog::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString MessageLog::rowsLink(const Entry& entry)
{
    if (entry.rows.isEmpty())
        return {};
    return tr("Show %n row(s)", nullptr, int(entry.rows.size()));
}

QVariant MessageLog::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry& entry = m_entries.at(index.row());
    if (role == RowIdsRole)
        return QVariant::fromValue(entry.rows);
    switch (index.column()) {
    case Time:
        if (role == Qt::DisplayRole) {
            // Local time names its zone: the server's times elsewhere may be in UTC.
            QString shown = TimeFormatter::display(entry.at);
            if (TimeFormatter::zone() == TimeFormatter::Zone::Local)
                shown += QLatin1Char(' ') + entry.at.timeZoneAbbreviation();
            return shown;
        }
        if (role == Qt::ToolTipRole)
            return TimeFormatter::exact(entry.at);
        break;
    case Text:
        if (role == Qt::DisplayRole)
            return entry.repeats > 1 ? tr("%1 (×%2)").arg(entry.text).arg(entry.repeats) : entry.text;
        if (role == Qt::ToolTipRole)
            return entry.text;
        break;
    case Rows:
        if (role == Qt::DisplayRole)
            return rowsLink(entry);
        if (role == Qt::ToolTipRole && !entry.rows.isEmpty())
            return tr("Opens these rows in the Outbox tab");
        if (role == Qt::ForegroundRole && !entry.rows.isEmpty())
            return QGuiApplication::palette().link();
        if (role == Qt::FontRole && !entry.rows.isEmpty()) {
            QFont font;
            font.setUnderline(true);
            return font;
        }
        break;
    default:
        break;
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignLeft | Qt::AlignTop);
    return {};
}

QVariant MessageLog::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Time:
        return tr("Time (this computer)");
    case Text:
        return tr("Message");
    case Rows:
        return tr("Rows");
    default:
        return {};
    }
}
