// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <QList>

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

    int rowCount(const QModelIndex& parent = {}) const final override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex& parent = {}) const final override { return parent.isValid() ? 0 : m_columns; }

private:
    int m_columns;
    QList<Row> m_rows;
};
