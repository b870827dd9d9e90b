// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxfilter.h"

#include <QWidget>

class DatabaseClient;
class QGridLayout;
class QLabel;
class QTableView;
class QToolButton;
class RelayFleetModel;
struct OutboxOverview;

// The first thing an operator sees: how many outbox rows are pending, in flight, failed, dead and stuck,
// how old the oldest unpublished one is, and the publish rate and duplicate hit rate of the last hour.
// Each count is a link to the list filtered to those rows. Below, the relays of the registry: which are alive,
// stale (presumed dead) or stopped, and in red "Nothing is publishing" when rows wait and none is alive.
class OverviewPage final : public QWidget {
    Q_OBJECT
public:
    explicit OverviewPage(DatabaseClient& reads, QWidget* parent = nullptr);

    void refresh();
    // Takes effect with the next refresh().
    void setStuckThresholdMs(qint64 ms);

    // The figures as shown, for tests and screen readers: e.g. "pending" -> "1,234".
    QString figure(const QString& name) const;

    RelayFleetModel* relays() const { return m_relayModel; }
    // Whether the red "Nothing is publishing" warning is up.
    bool warnsNothingPublishing() const;

signals:
    void showOutbox(const OutboxFilter& filter);
    void loadFailed(const QString& message);

private:
    void addTile(QGridLayout* grid, const QString& name, const QString& caption, const OutboxFilter& filter);
    void present(const OutboxOverview& overview);
    void presentFleet(const OutboxOverview& overview);

    DatabaseClient& m_reads;
    qint64 m_stuckThresholdMs = OutboxFilter::DefaultStuckThresholdMs;
    QHash<QString, QToolButton*> m_tiles;
    QLabel* m_oldest;
    QLabel* m_rates;
    QLabel* m_updated;
    QLabel* m_fleet;
    QLabel* m_nothingPublishing;
    RelayFleetModel* m_relayModel;
    QTableView* m_relayTable;
    bool m_loading = false;
};
