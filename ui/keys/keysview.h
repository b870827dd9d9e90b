// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/latestrequest.h"
#include "idempotency/keyfilter.h"

#include <QWidget>

class DatabaseClient;
class KeyDetailPane;
class KeysTableModel;
class QAction;
class QLineEdit;
class QSettings;
class QSplitter;
class QTableView;
class QTimer;
class StatusFilterButton;
class TimeRangeFilter;

// The idempotency key list with its filters and the detail pane of the selected key. Read-only: keys are
// changed by the requests that carry them, never by an operator.
class KeysView final : public QWidget {
    Q_OBJECT
public:
    explicit KeysView(DatabaseClient& reads, QWidget* parent = nullptr);

    void showFilter(const KeyFilter& filter);
    const KeyFilter& filter() const;

    // Re-reads what is shown without losing the selection or the scroll position: at the top of the list
    // it reloads (so new keys appear), further down it refreshes the visible rows in place.
    void refresh();
    void focusFilter();

    void saveState(QSettings& settings) const;
    void restoreState(const QSettings& settings);

    KeysTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QAction* copyAction() const { return m_copy; }
    // Show its outbox rows (the context menu's, the detail pane's button): the rows the selected key's request wrote,
    // read on the worker, then showOutboxRows(). Enabled for a key that created an order.
    QAction* showOutboxRowsAction() const { return m_showOutboxRows; }

signals:
    void loadFailed(const QString& message);
    // Open the Outbox tab on these rows.
    void showOutboxRows(const QList<qint64>& ids);

private:
    void buildFilterBar(QWidget* bar);
    KeyFilter filterFromControls() const;
    void applyFilterControls();
    void showContextMenu(const QPoint& position);
    void updateShowOutboxRows();
    void showOutboxRowsOfSelectedKey();

    KeysTableModel* m_model;
    QTableView* m_table;
    KeyDetailPane* m_detail;
    QSplitter* m_splitter;
    QLineEdit* m_keyPrefix;
    StatusFilterButton* m_statuses;
    TimeRangeFilter* m_created;
    QTimer* m_filterDelay;
    QAction* m_copy;
    DatabaseClient& m_reads;
    QAction* m_showOutboxRows;
    LatestRequest m_outboxRowsRequests;
};
