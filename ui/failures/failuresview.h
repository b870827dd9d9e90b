// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/latestrequest.h"
#include "outbox/failuregroup.h"
#include "outbox/outboxfilter.h"

#include <QWidget>

class DatabaseClient;
class FailureGroupsModel;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

// Why rows are stuck: failed and dead rows grouped by the cause of their last error, largest first. Selecting a
// group shows its signature, an example error and the event types it touches; "Show rows" opens the group in the
// outbox list, "Retry group…" requeues the group's rows as they are at confirmation, through the same audited
// path as every requeue.
class FailuresView final : public QWidget {
    Q_OBJECT
public:
    explicit FailuresView(DatabaseClient& reads, QWidget* parent = nullptr);

    void refresh();
    void setMayChangeOutbox(bool may, const QString& whyNot);

    FailureGroupsModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    // The outbox filter that selects the rows of the selected group (statuses as filtered here).
    OutboxFilter selectedGroupFilter() const;

signals:
    void showOutbox(const OutboxFilter& filter);
    void retryGroup(const OutboxFilter& filter);
    void discardGroup(const OutboxFilter& filter);
    void loadFailed(const QString& message);

private:
    void load();
    void present(const QList<FailureGroup>& groups);
    void showSelected();
    FailureGroupFilter filter() const;

    DatabaseClient& m_reads;
    LatestRequest m_requests;
    FailureGroupsModel* m_model;
    QTableView* m_table;
    QComboBox* m_statuses;
    QLabel* m_summary;
    QPlainTextEdit* m_detail;
    QPushButton* m_showRows;
    QPushButton* m_retry;
    QPushButton* m_discard;
    bool m_mayChange = false;
    QString m_whyNot;
};
