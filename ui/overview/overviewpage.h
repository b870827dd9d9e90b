// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/publishpause.h"
#include "operations/relaynode.h"
#include "outbox/outboxfilter.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QWidget>

class DatabaseClient;
class FailureGroupsModel;
class MetricsChart;
class QGridLayout;
class QLayout;
class QLabel;
class QPushButton;
class QTableView;
class QTimer;
class QToolButton;
class PausesModel;
class RelayFleetModel;
class WaitingRowsModel;
struct OutboxOverview;

// The first thing an operator sees: how many outbox rows are pending, in flight, failed, dead and stuck,
// how old the oldest unpublished one is, and the publish rate and duplicate hit rate of the last hour.
// Each count is a link to the list filtered to those rows. Then what explains them: the five largest failure
// groups (Retry group), the oldest unpublished rows with why each waits, the last hour's throughput and lag, and
// the last operator actions. Below, the relays of the registry: which are alive, stale (presumed dead) or
// stopped, and in red "Nothing is publishing" when rows wait and none is alive.
class OverviewPage final : public QWidget {
    Q_OBJECT
public:
    explicit OverviewPage(DatabaseClient& reads, QWidget* parent = nullptr);

    void refresh();
    // Takes effect with the next refresh().
    void setStuckThresholdMs(qint64 ms);

    // The figures as shown, for tests and screen readers: e.g. "pending" -> "1,234".
    QString figure(const QString& name) const;

    // Retry group and Forget need the operator's role; without it the buttons say which role is missing.
    void setMayChangeOutbox(bool may, const QString& reason);

    RelayFleetModel* relays() const { return m_relayModel; }
    PausesModel* pauses() const { return m_pauseModel; }
    FailureGroupsModel* failureGroups() const { return m_groupModel; }
    WaitingRowsModel* waitingRows() const { return m_waitingModel; }
    // Whether the red "Nothing is publishing" warning is up.
    bool warnsNothingPublishing() const;
    // Whether what the page shows stopped following the database (its last read failed, or the connection was lost):
    // it stays as of the last read that worked, marked so, until a read works again.
    bool showsStaleFigures() const { return !m_staleReason.isEmpty(); }
    // The database's clock at the last read that worked: what the figures are as of (invalid before one worked).
    const QDateTime& readAt() const { return m_readAt; }

signals:
    void showOutbox(const OutboxFilter& filter);
    // Retry group on the rows of `filter` (one failure group), as the Failures tab's.
    void retryGroup(const OutboxFilter& filter);
    void showAudit();
    // Forget (remove from the registry) these relays, none of which runs.
    void forgetRelays(const QList<RelayNode>& relays);
    // Pause a relay or an event type, the dialog prefilled with `relayName` (the selected relay's, if any).
    void pauseRequested(const QString& relayName);
    void resumeRequested(const PublishPause& pause);
    void loadFailed(const QString& message);
    // A read found a relay's state changed (RelayFleetModel::stateChange); once per change, not at every read.
    void relayChanged(const QString& message);

private:
    void addTile(QGridLayout* grid, const QString& name, const QString& caption, const OutboxFilter& filter);
    void present(const OutboxOverview& overview);
    // Also the "Nothing is publishing" warning, for rows waiting longer than `nothingPublishingAfterMs`.
    void presentFleet(const OutboxOverview& overview, qint64 nothingPublishingAfterMs);
    void presentExplanations(const OutboxOverview& overview);
    // The figures stop following the database (`why`): they stay as of the last read that worked, and say so.
    void markStale(const QString& why);
    // What the last read showed, marked as followed or not (showsStaleFigures()): while stale the relays and the
    // waiting rows in grey and the figures faded, so that none reads as current.
    void markFigures();
    // The "Updated …" line and the fleet's summary, as of the last read that worked and, while stale, how long ago.
    void showReadTime();
    OutboxFilter selectedGroupRows() const;
    QList<RelayNode> selectedRelays() const;
    void updateForgetRelays();
    void updatePauseButtons();
    QLayout* pausesPane();
    QWidget* explanations();
    QLayout* failureGroupsPane();
    QLayout* waitingRowsPane();
    QLayout* historyPane(); // the last hour's chart and the last operator actions

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
    QPushButton* m_forgetRelays;
    QPushButton* m_pause;
    PausesModel* m_pauseModel;
    QTableView* m_pauseTable;
    QPushButton* m_resume;
    QWidget* m_pausesBox;
    FailureGroupsModel* m_groupModel;
    QTableView* m_groupTable;
    QPushButton* m_retryGroup;
    bool m_mayChangeOutbox = false;
    QString m_forgetReadOnlyReason;
    WaitingRowsModel* m_waitingModel;
    QTableView* m_waitingTable;
    MetricsChart* m_lastHour;
    QLabel* m_actions;
    bool m_loading = false;
    // The last read that worked: the database's clock then, and the time elapsed here since, which goes on while reads
    // fail. Every second the relays' heartbeats age by it.
    QDateTime m_readAt;
    QElapsedTimer m_sinceRead;
    QTimer* m_clock;
    QString m_staleReason; // why the figures stopped following the database; empty while they follow it
    QString m_fleetSummary; // the fleet's line as the last read that worked found it
    bool m_fleetKnown = false; // a read since the connection was made found the relays: later reads tell changes
};
