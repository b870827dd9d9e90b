// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/auditfilter.h"
#include "outbox/outboxfilter.h"

#include "core/latestrequest.h"

#include <QWidget>

struct AuditEntry;

class AuditTableModel;
class DatabaseClient;
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTableView;
class QTimer;
class TimeRangeFilter;

// Who did what, when and why: every operator action (one entry however many batches it took), newest first,
// filtered by actor, action and time. The detail shows the reason, the ids (copyable) and the states before and
// after; "Show rows" opens the rows the action touched in the outbox list.
class AuditView final : public QWidget {
    Q_OBJECT
public:
    explicit AuditView(DatabaseClient& reads, QWidget* parent = nullptr);

    void showFilter(const AuditFilter& filter);
    const AuditFilter& filter() const;
    void refresh();

    AuditTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPlainTextEdit* detail() const { return m_detail; }

signals:
    void showOutbox(const OutboxFilter& filter);
    void loadFailed(const QString& message);

private:
    AuditFilter filterFromControls() const;
    void showSelected();
    void showEntry(const AuditEntry& entry);
    // What an entry's details say: an edit's payload and headers, before and after, as lines removed and added, or
    // when the rows of a retry later became due; empty for the other actions.
    static QString detailsText(const AuditEntry& entry);
    static constexpr int EditContext = 3;
    // The rows' (or relays') states before and after, one line each, in columns.
    static QString statesTable(const AuditEntry& entry);
    static constexpr int ListedStates = 1000;

    AuditTableModel* m_model;
    QTableView* m_table;
    QSplitter* m_splitter;
    QLineEdit* m_actor;
    QComboBox* m_action;
    TimeRangeFilter* m_when;
    QPlainTextEdit* m_detail;
    DatabaseClient& m_reads;
    // The selected entry whole (an edit's content, an action's later batches), read when it is selected: the newest
    // selection wins.
    LatestRequest m_contentRequests;
    // The ids of the entry the detail shows, which Show rows opens.
    QList<qint64> m_shownRows;
    QPushButton* m_showRows;
    QTimer* m_filterDelay;
};
