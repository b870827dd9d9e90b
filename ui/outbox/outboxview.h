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
class QLabel;
class QLineEdit;
class QSettings;
class QSplitter;
class QTableView;
class QTimer;
class QToolButton;
class StatusFilterButton;
class TimeRangeFilter;
struct OperatorActionReport;
struct RequeueCandidates;

// The outbox list with its filters, the detail pane of the selected row, and the operator actions:
// requeue (the retry button), discard and release lease, for the selected rows, edit and retry for one, and requeue
// and discard for every row matching the filter.
class OutboxView final : public QWidget {
    Q_OBJECT
public:
    OutboxView(DatabaseClient& reads, DatabaseClient& actions, QWidget* parent = nullptr);

    void setSessionInfo(const SessionInfo& info);
    // Whether the Outbox tab is the one shown: its actions (also in the Actions menu) act on its list and selection,
    // so elsewhere they are off.
    void setShown(bool shown);
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
    QAction* discardSelectedAction() const { return m_discardSelected; }
    QAction* editSelectedAction() const { return m_editSelected; }
    QAction* releaseSelectedAction() const { return m_releaseSelected; }
    QAction* copyAction() const { return m_copy; }
    QLineEdit* dedupeKeyEdit() const { return m_dedupeKey; }
    QLineEdit* payloadContainsEdit() const { return m_payloadContains; }

    // Freezes every failed or dead row matching the filter (and the discarded ones if the status filter asks for
    // them) on the action worker, shows exactly those rows in the list, confirms with a reason (and when they last
    // failed) and requeues them (Retry all matching, and the Failures tab's and the Overview's Retry group).
    // Cancelled, the list goes back to the filter before.
    void requeueMatching();
    // The same for Discard, with the failed and dead rows (the Failures tab's Discard group).
    void discardMatching();

    // How long the follow-up of an action's rows goes on (RequeueFollowUp::DefaultLimitMs).
    void setFollowUpLimitMs(int ms) { m_followUpLimitMs = ms; }

    // A last failure this recent warns in the confirmation: its cause is probably still there.
    static constexpr qint64 RecentFailureMs = 60'000;

    // What the list says when it is empty (hidden while it shows rows or loads).
    QString emptyText() const;

signals:
    // An operator action finished; the summary (for the message log) concerns `rows`.
    void actionFinished(const QString& summary, const QList<qint64>& rows);
    // Where an action's rows ended up once they settled (or the follow-up gave up), for the message log.
    void outcomeReported(const QString& message, const QList<qint64>& rows);
    void loadFailed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) final override;

private:
    // The audited actions on rows (OutboxOperator's), each with its verb and its report.
    enum class RowAction { Requeue, Discard, ReleaseLease, Edit };
    QString verbOf(RowAction action) const;
    // What every Discard confirmation says: the guard's last sentences, and the warning beside it.
    static QString discardConsequence();
    static QString discardWarning();
    // What a retry's confirmation adds: a retried discarded row comes after its key's later rows.
    static QString retryOfDiscardedConsequence();
    void actOnMatching(RowAction action);

    void buildFilterBar(QWidget* bar);
    OutboxFilter filterFromControls() const;
    void applyFilterControls();
    void updateActions();
    void requeueSelected();
    void discardSelected();
    void releaseSelected();
    // Reads the selected row's content on the action worker, opens the editor, and applies what was confirmed.
    void editSelected();
    // The selected rows in a status for which `holds` is true, ascending.
    QList<qint64> selectedWhere(bool (*holds)(OutboxStatus)) const;
    // Selects the row a link asked for once the list has loaded it.
    void selectWhenLoaded();
    // A failure group or the rows of an audited action: narrows the list beyond the filter bar's controls.
    void setNarrowing(const QString& errorSignature, const QList<qint64>& ids);
    // Asks for the reason (with `notice`, e.g. when the rows last failed) and runs the action; false if cancelled.
    // `group`: the failure group the ids were selected by, recorded in the audit entry.
    bool confirmAndRun(RowAction action, const QList<qint64>& ids, const QString& guard, const QString& notice = {},
        bool noticeIsWarning = false, const QString& group = {});
    // When the candidates last failed, for the confirmation.
    static QString lastFailureNotice(const RequeueCandidates& candidates, bool ofGroup);
    // `dueAt`: when requeued rows become due, invalid for now.
    void reportResult(RowAction action, const OperatorActionReport& report, const QDateTime& dueAt = {});
    void updateEmptyState();
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
    QLineEdit* m_dedupeKey;
    QLineEdit* m_payloadContains;
    TimeRangeFilter* m_created;
    QCheckBox* m_stuckOnly;
    QCheckBox* m_blockingOnly;
    QToolButton* m_group;
    QString m_errorSignature;
    QList<qint64> m_ids;
    QList<qint64> m_lastActed; // the rows the last action moved, for the empty list's text
    qint64 m_selectWhenLoaded = 0;
    QLabel* m_empty;
    int m_followUpLimitMs;
    bool m_shown = true;
    QTimer* m_filterDelay;
    qint64 m_stuckThresholdMs = OutboxFilter::DefaultStuckThresholdMs;
    QAction* m_requeueSelected;
    QAction* m_requeueMatching;
    QAction* m_releaseSelected;
    QAction* m_discardSelected;
    QAction* m_editSelected;
    QAction* m_copy;
};
