// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/latestrequest.h"
#include "outbox/outboxfilter.h"

#include <QWidget>

class DatabaseClient;
class EventTypesModel;
class QLabel;
class QTableView;
struct EventTypeBreakdown;

// Which event types the rows are of, and where each stands: per type the rows in each state and how long its
// oldest unpublished row has waited, like the queues of Sidekiq or Oban. Double-clicking a count opens those rows
// in the outbox list (a type's name: all its rows).
class EventTypesView final : public QWidget {
    Q_OBJECT
public:
    explicit EventTypesView(DatabaseClient& reads, QWidget* parent = nullptr);

    void refresh();

    EventTypesModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }

signals:
    void showOutbox(const OutboxFilter& filter);
    void loadFailed(const QString& message);

private:
    void present(const EventTypeBreakdown& breakdown);

    DatabaseClient& m_reads;
    LatestRequest m_requests;
    EventTypesModel* m_model;
    QTableView* m_table;
    QLabel* m_summary;
};
