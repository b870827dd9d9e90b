// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "connect/passwordkeychain.h"
#include "core/databaseclient.h"
#include "db/connectionsettings.h"
#include "operations/publishpause.h"
#include "operations/relaynode.h"
#include "operations/sessioninfo.h"

#include <QMainWindow>
#include <functional>

class ConnectionBanner;
class ExportRunner;
class AuditView;
class EventTypesView;
class FailuresView;
class KeysView;
class MessageLog;
class MessageLogView;
class MetricsPage;
class OutboxView;
class OverviewPage;
class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;
class QTimer;
class StatusMessageLabel;

// The operations console: overview, outbox, idempotency-key and metrics tabs over one database. Reads go
// through one database worker (which also LISTENs for changes), operator actions through a second one, so a
// long bulk action never holds up the lists. Window layout, columns and view options persist in QSettings.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() final override;

    // Connects both workers; the result arrives as connected() or a connect dialog showing the failure.
    void connectTo(const ConnectionSettings& settings, const QString& displayName);
    // Connects to a DSN given as text (--dsn); one that libpq cannot parse, or that fails to connect, opens the
    // dialog holding it and the error.
    void connectToDsn(const QString& dsn);
    // Asks for connection details (prefilled with the recent ones, or with `conninfo`), then connects.
    void showConnectDialog(const QString& error = {}, const QString& conninfo = {});
    // At start without --dsn: connects to the most recent connection if the keychain has its password, else asks.
    void reconnectOrAsk();
    // File → Open recent: connects to `entry` with its stored password, if any; a failure opens the dialog.
    void connectToRecent(const QString& entry);

    PasswordKeychain& keychain() { return m_keychain; }
    QAction* forgetPasswordAction() const { return m_forgetPassword; }

    OverviewPage* overview() const { return m_overview; }
    OutboxView* outboxView() const { return m_outbox; }
    KeysView* keysView() const { return m_keys; }
    FailuresView* failuresView() const { return m_failures; }
    EventTypesView* eventTypesView() const { return m_eventTypes; }
    AuditView* auditView() const { return m_audit; }
    MetricsPage* metricsPage() const { return m_metrics; }
    QAction* exportMetricsAction() const { return m_exportMetrics; }
    ConnectionBanner* banner() const { return m_banner; }
    // Every message of the console goes here (the status bar and the Messages panel follow it): post() instead of
    // QStatusBar::showMessage.
    MessageLog* messages() const { return m_messages; }
    // The same for those who see only the window (the demo's faults): m_messages->post().
    void postMessage(const QString& text, const QList<qint64>& rows = {});
    StatusMessageLabel* statusMessage() const { return m_statusMessage; }
    QDockWidget* messagesDock() const { return m_messagesDock; }
    const SessionInfo& session() const { return m_session; }

    // Re-reads what is on screen (F5, after an action).
    void refresh();
    // What a change notification or the auto-refresh timer runs: refresh(), unless live updates are paused.
    void refreshLive();
    // View → Pause live updates: the lists and the Overview stay as they are (F5 still re-reads) until unchecked.
    QAction* pauseLiveUpdatesAction() const { return m_pauseLiveUpdates; }

    // Writes every row matching the current list's filter (the keys tab's, else the outbox's) to `path`:
    // CSV for *.csv, JSON lines otherwise. File → Export list… after its file dialog.
    ExportRunner* exportListTo(const QString& path);

signals:
    void connected(const SessionInfo& info);

protected:
    void closeEvent(QCloseEvent* event) final override;

private:
    void buildMenus();
    void buildLanguageMenu(QMenu* view);
    void fillRecentMenu(QMenu* menu);
    // How a recent connection without a stored password is handled: asked for, or tried as it is (libpq may find
    // the password in ~/.pgpass or need none).
    enum class WithoutStoredPassword { Ask, Connect };
    void connectToRecent(const QString& entry, WithoutStoredPassword without);
    void onConnected(const SessionInfo& info);
    // The window title, the status bar's server and role, and what the views let the user do, as of `info`.
    void showSession(const SessionInfo& info);
    // One message when the first of the connections being opened fails; the reads' failure opens the connect dialog,
    // the others try again on their own (DatabaseClient::FirstFailure::Retry).
    void noteConnectFailed(const DatabaseClient* client, const QString& message);
    // One message when the first connection is lost and one when the last is back, not one per worker.
    void noteConnectionLost(const DatabaseClient* client, const QString& message);
    void noteReconnected(const DatabaseClient* client);
    void showOutboxRows(const QList<qint64>& ids);
    // Asks for a reason and forgets `relays` on the action worker; the message log says how it went.
    void pause(const QString& relayName);
    void resume(const PublishPause& pause);
    void forgetRelays(const QList<RelayNode>& relays);
    // Runs one of the Overview's actions (forget, pause, resume) on the action worker: `said` turns its result into
    // the message log's line, a failure is a warning titled `failed`; either way the Overview reads again.
    template<typename Result>
    void runOverviewAction(
        const QString& failed, std::function<Result(DbSession&)> work, std::function<QString(const Result&)> said);
    void setAutoRefreshSeconds(int seconds);
    // The timer at the chosen interval; behind a transaction pooler, which brings no change notifications, at the
    // default one even when the choice is Off, with a note in the status bar saying so.
    void applyAutoRefresh();
    void askStuckThreshold();
    void exportMetricsCsv();
    void exportList();
    void saveSettings() const;
    void restoreSettings();

    DatabaseClient m_reads;
    DatabaseClient m_searches;
    DatabaseClient m_actions;
    SessionInfo m_session;
    // What to do once the connection being opened works: remember it among the recent ones, and store or forget
    // its password in the keychain.
    struct PendingConnection {
        QString conninfo; // null: nothing to remember (--dsn, the demo)
        // Loaded: the password came from the keychain, so Forget may remove it.
        enum class Keychain { Leave, Store, Forget, Loaded } keychain = Keychain::Leave;
        QString password;
    };
    PendingConnection m_pending;
    QString m_attemptedDsn; // the --dsn being connected to, for the dialog if it fails
    PasswordKeychain m_keychain;
    QString m_recentIdentity; // the recent connection whose password is being read; later answers are stale
    WithoutStoredPassword m_recentWithout = WithoutStoredPassword::Ask;
    QString m_currentIdentity; // the connection in use, when its password is in the keychain
    MessageLog* m_messages;
    StatusMessageLabel* m_statusMessage;
    MessageLogView* m_messageView;
    QDockWidget* m_messagesDock;
    QList<const DatabaseClient*> m_lostConnections;
    QList<const DatabaseClient*> m_connecting; // opened by connectTo() and not connected (yet, or at all)
    bool m_connectFailureSaid = false; // since connectTo()
    ConnectionBanner* m_banner;
    QTabWidget* m_tabs;
    OverviewPage* m_overview;
    OutboxView* m_outbox;
    FailuresView* m_failures;
    KeysView* m_keys;
    MetricsPage* m_metrics;
    AuditView* m_audit;
    EventTypesView* m_eventTypes;
    QAction* m_pauseLiveUpdates = nullptr;
    QAction* m_exportMetrics = nullptr;
    QAction* m_exportList = nullptr;
    QAction* m_forgetPassword = nullptr;
    QLabel* m_serverLabel;
    QLabel* m_roleLabel;
    QLabel* m_liveUpdatesPaused; // in the status bar while they are
    QTimer* m_autoRefresh;
    int m_autoRefreshSeconds = 0; // chosen; 0: Off
    QLabel* m_polledUpdates; // in the status bar while the connection is behind a transaction pooler
    QTimer* m_changeCoalescer;
    QActionGroup* m_autoRefreshGroup = nullptr;
    qint64 m_stuckThresholdMs;
};
