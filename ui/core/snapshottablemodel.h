// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <QBrush>
#include <QGuiApplication>
#include <QList>
#include <QPalette>

// A short table of immutable rows that each load replaces as a whole (the relay fleet, the failure groups),
// unlike the paged lists: the rows and their counts; the subclass says what each cell shows.
template<typename Row> class SnapshotTableModel : public QAbstractTableModel {
public:
    SnapshotTableModel(int columns, QObject* parent)
        : QAbstractTableModel(parent)
        , m_columns(columns)
    { }

    void setRows(const QList<Row>& rows)
    {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }
    const QList<Row>& rows() const { return m_rows; }

    // Whether the rows stopped following the database (a read of them failed): they stay as the last read that
    // worked left them, drawn in staleForeground() (a subclass's data() asks isStale()), until one works again.
    void setStale(bool stale)
    {
        if (m_stale == stale)
            return;
        m_stale = stale;
        if (!m_rows.isEmpty())
            emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, m_columns - 1), { Qt::ForegroundRole });
    }
    bool isStale() const { return m_stale; }

    int rowCount(const QModelIndex& parent = {}) const final override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex& parent = {}) const final override { return parent.isValid() ? 0 : m_columns; }

protected:
    // Every cell's colour while the rows are stale, in place of their own (a red "failing" would read as current).
    static QBrush staleForeground() { return QGuiApplication::palette().brush(QPalette::PlaceholderText); }

private:
    int m_columns;
    QList<Row> m_rows;
    bool m_stale = false;
};
