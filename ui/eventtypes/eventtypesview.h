// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/latestrequest.h"
#include "outbox/outboxfilter.h"

#include <QWidget>

class DatabaseClient;
class EventTypesModel;
class QLabel;
class QTableView;
class SecondsPane;
struct EventTypeBreakdown;

// Which event types the rows are of, and where each stands: per type the rows in each state and how long its
// oldest unpublished row has waited, like the queues of Sidekiq or Oban. Double-clicking a count opens those rows
// in the outbox list (a type's name: all its rows). Below, the last five minutes second by second, of the selected type
// (or of all types when none is selected).
class EventTypesView final : public QWidget {
    Q_OBJECT
public:
    explicit EventTypesView(DatabaseClient& reads, QWidget* parent = nullptr);

    void refresh();
    // Off while the console's live updates are paused (the live seconds stop following).
    void setLive(bool live);

    EventTypesModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    SecondsPane* seconds() const { return m_seconds; }

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
    SecondsPane* m_seconds;
};
