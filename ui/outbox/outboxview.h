// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/sessioninfo.h"
#include "outbox/outboxfilter.h"

#include <QWidget>

class DatabaseClient;
class OutboxDetailPane;
class OutboxTableModel;
class QAction;
class QCheckBox;
class QLineEdit;
class QSettings;
class QSplitter;
class QTableView;
class QTimer;
class QToolButton;
class StatusFilterButton;
class TimeRangeFilter;
struct OperatorActionReport;

// The outbox list with its filters, the detail pane of the selected row, and the operator actions:
// requeue (the retry button) and release lease, for the selected rows or every row matching the filter.
class OutboxView final : public QWidget {
    Q_OBJECT
public:
    OutboxView(DatabaseClient& reads, DatabaseClient& actions, QWidget* parent = nullptr);

    void setSessionInfo(const SessionInfo& info);
    void showFilter(const OutboxFilter& filter);
    const OutboxFilter& filter() const;

    // Re-reads what is shown without losing the selection or the scroll position: at the top of the list
    // it reloads (so new rows appear), further down it refreshes the visible rows in place.
    void refresh();
    void focusFilter();
    // Takes effect with the next showFilter().
    void setStuckThresholdMs(qint64 ms);

    void saveState(QSettings& settings) const;
    void restoreState(const QSettings& settings);

    OutboxTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QAction* requeueSelectedAction() const { return m_requeueSelected; }
    QAction* requeueMatchingAction() const { return m_requeueMatching; }
    QAction* releaseSelectedAction() const { return m_releaseSelected; }
    QAction* copyAction() const { return m_copy; }

    // Freezes every failed or dead row matching the filter on the action worker, confirms with a reason and
    // requeues them (Retry all matching, and the Failures tab's Retry group).
    void requeueMatching();

signals:
    // An operator action finished; the summary is for the status bar.
    void actionFinished(const QString& summary);
    void loadFailed(const QString& message);

private:
    void buildFilterBar(QWidget* bar);
    OutboxFilter filterFromControls() const;
    void applyFilterControls();
    void updateActions();
    void requeueSelected();
    void releaseSelected();
    // A failure group or the rows of an audited action: narrows the list beyond the filter bar's controls.
    void setNarrowing(const QString& errorSignature, const QList<qint64>& ids);
    void confirmAndRun(const QString& verb, const QList<qint64>& ids, const QString& guard, bool release);
    void reportResult(const QString& verb, const OperatorActionReport& report);
    void showContextMenu(const QPoint& position);

    DatabaseClient& m_actions;
    SessionInfo m_session;
    OutboxTableModel* m_model;
    QTableView* m_table;
    OutboxDetailPane* m_detail;
    QSplitter* m_splitter;
    StatusFilterButton* m_statuses;
    QLineEdit* m_eventType;
    QLineEdit* m_aggregateId;
    QLineEdit* m_errorContains;
    TimeRangeFilter* m_created;
    QCheckBox* m_stuckOnly;
    QToolButton* m_group;
    QString m_errorSignature;
    QList<qint64> m_ids;
    QTimer* m_filterDelay;
    qint64 m_stuckThresholdMs = OutboxFilter::DefaultStuckThresholdMs;
    QAction* m_requeueSelected;
    QAction* m_requeueMatching;
    QAction* m_releaseSelected;
    QAction* m_copy;
};
