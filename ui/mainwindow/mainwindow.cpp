// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow/mainwindow.h"

#include "audit/auditview.h"
#include "common/operatoractiondialog.h"
#include "connect/connectdialog.h"
#include "connect/connectionbanner.h"
#include "connect/recentconnections.h"
#include "core/exportrunner.h"
#include "core/timeformatter.h"
#include "db/conninfo.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "eventtypes/eventtypesview.h"
#include "failures/failuresview.h"
#include "i18n/consolelanguage.h"
#include "keys/keysview.h"
#include "messages/messagelog.h"
#include "messages/messagelogview.h"
#include "messages/statusmessagelabel.h"
#include "metrics/metricspage.h"
#include "operations/publishpauses.h"
#include "operations/relayfleet.h"
#include "outbox/outboxview.h"
#include "overview/overviewpage.h"
#include "overview/pausedialog.h"
#include "overview/pausesmodel.h"

#include <QActionGroup>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace {

constexpr int ChangeCoalesceMs = 300;
constexpr int DefaultAutoRefreshSeconds = 10;
const int AutoRefreshChoices[] = { 0, 5, 10, 30, 60 };

enum Tab { OverviewTab, OutboxTab, FailuresTab, KeysTab, MetricsTab, AuditTab, EventTypesTab };

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_reads(QStringLiteral("console-reads"))
    , m_searches(QStringLiteral("console-searches"))
    , m_actions(QStringLiteral("console-actions"))
    , m_messages(new MessageLog(this))
    , m_statusMessage(new StatusMessageLabel(this))
    , m_messageView(new MessageLogView(m_messages, this))
    , m_messagesDock(new QDockWidget(tr("Messages"), this))
    , m_banner(new ConnectionBanner(this))
    , m_tabs(new QTabWidget(this))
    , m_overview(new OverviewPage(m_reads, this))
    , m_outbox(new OutboxView(m_searches, m_actions, this))
    , m_failures(new FailuresView(m_reads, this))
    , m_keys(new KeysView(m_searches, this))
    , m_metrics(new MetricsPage(m_reads, this))
    , m_audit(new AuditView(m_searches, this))
    , m_eventTypes(new EventTypesView(m_reads, this))
    , m_serverLabel(new QLabel(this))
    , m_roleLabel(new QLabel(this))
    , m_liveUpdatesPaused(new QLabel(this))
    , m_autoRefresh(new QTimer(this))
    , m_polledUpdates(new QLabel(this))
    , m_changeCoalescer(new QTimer(this))
    , m_stuckThresholdMs(OutboxFilter::DefaultStuckThresholdMs)
{
    setWindowTitle(tr("Outbox Console"));
    // Alt+letter reaches one thing at a time: the tabs' letters are none of the menus' (File, View, Actions, Help,
    // and Demo, which the demo adds) nor of a button on a tab (tst_mnemonics).
    m_tabs->addTab(m_overview, tr("&Overview"));
    m_tabs->addTab(m_outbox, tr("O&utbox"));
    m_tabs->addTab(m_failures, tr("Fai&lures"));
    m_tabs->addTab(m_keys, tr("&Idempotency keys"));
    m_tabs->addTab(m_metrics, tr("&Metrics"));
    m_tabs->addTab(m_audit, tr("Audi&t"));
    m_tabs->addTab(m_eventTypes, tr("Event t&ypes"));
    m_tabs->setEnabled(false);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    // The message takes the room the permanent labels leave, cut to it with "…" (the panel has the whole text).
    statusBar()->addWidget(m_statusMessage, 1);
    m_serverLabel->setObjectName(QStringLiteral("server"));
    statusBar()->addPermanentWidget(m_serverLabel);
    statusBar()->addPermanentWidget(m_roleLabel);
    // Fixed colours, as the banner's: a console that stopped following the database must not be mistaken for one
    // that shows it as it is.
    m_liveUpdatesPaused->setText(tr("Live updates paused — F5 re-reads"));
    m_liveUpdatesPaused->setStyleSheet(QStringLiteral("background: #b58900; color: black; padding: 0 6px;"));
    m_liveUpdatesPaused->hide();
    statusBar()->addPermanentWidget(m_liveUpdatesPaused);
    m_polledUpdates->setObjectName(QStringLiteral("polledUpdates"));
    m_polledUpdates->setToolTip(tr("The connection goes through a transaction-pooling proxy, which cannot keep the "
                                   "LISTEN that brings each change at once, so the console re-reads on a timer "
                                   "(View ▸ Auto-refresh). Connect directly, or through a session-mode pool with "
                                   "OUTBOX_POOLING=none, for immediate updates."));
    m_polledUpdates->hide();
    statusBar()->addPermanentWidget(m_polledUpdates);
    m_messagesDock->setObjectName(QStringLiteral("messagesDock"));
    m_messagesDock->setWidget(m_messageView);
    // Down to its header and a message, so that the window fits a 1280×800 screen with every pane of the Overview.
    m_messageView->setMinimumHeight(m_messageView->table()->horizontalHeader()->sizeHint().height()
        + m_messageView->fontMetrics().lineSpacing() + 2 * m_messageView->table()->frameWidth());
    m_messagesDock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::TopDockWidgetArea | Qt::RightDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_messagesDock);
    connect(m_messages, &MessageLog::posted, m_statusMessage,
        [this](const MessageLog::Entry& entry) { m_statusMessage->showMessage(entry.text); });
    connect(m_statusMessage, &StatusMessageLabel::clicked, this, [this] {
        m_messagesDock->show();
        m_messagesDock->raise();
    });
    connect(m_messageView, &MessageLogView::showRows, this, &MainWindow::showOutboxRows);
    connect(m_keys, &KeysView::showOutboxRows, this, &MainWindow::showOutboxRows);

    connect(&m_reads, &DatabaseClient::connected, this, &MainWindow::onConnected);
    // Before the loop below, so that a change of server is known when the last lost connection says Reconnected.
    connect(&m_reads, &DatabaseClient::reconnected, this, [this](const SessionInfo& info) {
        const QString before = std::exchange(m_session, info).server;
        showSession(info);
        if (info.server != before) {
            // A multi-host connection string (target_session_attrs=read-write) reached another server: the old
            // one failed or was switched over. What the lists showed came from the old one.
            m_messages->post(
                tr("Reconnected to another server, %1 (was %2): the database failed over").arg(info.server, before));
            m_banner->noteServerChanged(before, info.server);
        }
        applyAutoRefresh(); // a failover may have put a pooler in between, or taken it away
        // What failed while the connection was down starts over.
        m_failures->refresh();
        m_overview->refresh();
    });
    for (const DatabaseClient* client : { &m_reads, &m_searches, &m_actions }) {
        connect(client, &DatabaseClient::connectFailed, this,
            [this, client](const QString& message) { noteConnectFailed(client, message); });
        connect(client, &DatabaseClient::connectionLost, this,
            [this, client](const QString& message) { noteConnectionLost(client, message); });
        connect(client, &DatabaseClient::stillUnreachable, this,
            [this, client](const QString& message, int nextAttemptInMs) {
                if (m_lostConnections.contains(client)) // not a failure of a connection replaced since
                    m_banner->showUnreachable(message, nextAttemptInMs);
            });
        connect(client, &DatabaseClient::reconnected, this, [this, client] { noteReconnected(client); });
        // A connection (re)opened by connectTo(): a loss its client reported before is over.
        connect(client, &DatabaseClient::connected, this, [this, client] {
            m_connecting.removeOne(client);
            if (m_lostConnections.removeOne(client) && m_lostConnections.isEmpty())
                m_banner->dismiss();
        });
    }
    // The lists search on a connection of their own, so that a long search (and its Cancel) never holds up the
    // overview, the failure groups or the metrics.
    connect(&m_searches, &DatabaseClient::reconnected, this, [this] {
        m_outbox->refresh();
        m_keys->refresh();
        m_audit->refresh();
    });

    // Change notifications arrive in bursts while a relay works; one refresh per burst is enough.
    m_changeCoalescer->setSingleShot(true);
    m_changeCoalescer->setInterval(ChangeCoalesceMs);
    // Throttled, not debounced: under steady traffic notifications never pause, and a timer restarted by each
    // one would never fire.
    connect(&m_reads, &DatabaseClient::changed, this, [this] {
        if (!m_changeCoalescer->isActive())
            m_changeCoalescer->start();
    });
    connect(m_changeCoalescer, &QTimer::timeout, this, &MainWindow::refreshLive);
    connect(m_autoRefresh, &QTimer::timeout, this, &MainWindow::refreshLive);

    connect(m_overview, &OverviewPage::showOutbox, this, [this](const OutboxFilter& filter) {
        m_outbox->showFilter(filter);
        m_tabs->setCurrentIndex(OutboxTab);
    });
    connect(m_audit, &AuditView::showOutbox, this, [this](const OutboxFilter& filter) {
        m_outbox->showFilter(filter);
        m_tabs->setCurrentIndex(OutboxTab);
    });
    connect(m_failures, &FailuresView::showOutbox, this, [this](const OutboxFilter& filter) {
        m_outbox->showFilter(filter);
        m_tabs->setCurrentIndex(OutboxTab);
    });
    connect(m_eventTypes, &EventTypesView::showOutbox, this, [this](const OutboxFilter& filter) {
        m_outbox->showFilter(filter);
        m_tabs->setCurrentIndex(OutboxTab);
    });
    // Retry group and Discard group are Retry all matching and its Discard twin on the group's rows: the same frozen
    // set, dialog, reason and audit.
    const auto actOnGroup = [this](void (OutboxView::*act)()) {
        return [this, act](const OutboxFilter& filter) {
            m_outbox->showFilter(filter);
            m_tabs->setCurrentIndex(OutboxTab);
            (m_outbox->*act)();
        };
    };
    connect(m_failures, &FailuresView::retryGroup, this, actOnGroup(&OutboxView::requeueMatching));
    connect(m_failures, &FailuresView::discardGroup, this, actOnGroup(&OutboxView::discardMatching));
    connect(m_overview, &OverviewPage::retryGroup, this, actOnGroup(&OutboxView::requeueMatching));
    connect(m_overview, &OverviewPage::showAudit, this, [this] { m_tabs->setCurrentWidget(m_audit); });
    connect(m_overview, &OverviewPage::forgetRelays, this, &MainWindow::forgetRelays);
    connect(m_overview, &OverviewPage::pauseRequested, this, &MainWindow::pause);
    connect(m_overview, &OverviewPage::resumeRequested, this, &MainWindow::resume);
    // An action and, once its rows settled, its outcome: both change what the overview and the groups count.
    const auto logAction = [this](const QString& message, const QList<qint64>& rows) {
        m_messages->post(message, rows);
        m_overview->refresh();
        m_failures->refresh();
    };
    connect(m_outbox, &OutboxView::actionFinished, this, logAction);
    connect(m_outbox, &OutboxView::outcomeReported, this, logAction);
    // A read that fails while a connection is down, or not made yet, fails because of it: the connection's own
    // messages say so once (lost and restored, could not connect), the banner while it lasts, and the view shows its
    // failure in place; one line per view and refresh would bury them.
    const auto showFailure = [this](const QString& message) {
        if (m_lostConnections.isEmpty() && m_connecting.isEmpty())
            m_messages->post(message);
    };
    connect(m_overview, &OverviewPage::loadFailed, this, showFailure);
    connect(m_overview, &OverviewPage::relayChanged, m_messages,
        [this](const QString& message) { m_messages->post(message); });
    connect(m_outbox, &OutboxView::loadFailed, this, showFailure);
    connect(m_keys, &KeysView::loadFailed, this, showFailure);
    connect(m_failures, &FailuresView::loadFailed, this, showFailure);
    connect(m_audit, &AuditView::loadFailed, this, showFailure);
    connect(m_eventTypes, &EventTypesView::loadFailed, this, showFailure);
    connect(m_metrics, &MetricsPage::loadFailed, this, showFailure);
    // The charts are read only while they are seen: on opening the tab, then with every refresh.
    m_outbox->setShown(m_tabs->currentIndex() == OutboxTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        m_outbox->setShown(index == OutboxTab);
        if (index == MetricsTab)
            m_metrics->refresh();
        else if (index == FailuresTab)
            m_failures->refresh();
        else if (index == AuditTab)
            m_audit->refresh();
        else if (index == EventTypesTab)
            m_eventTypes->refresh();
    });
    connect(m_metrics, &MetricsPage::exported, this, [this](const QString& path) {
        m_messages->post(tr("Metrics exported to %1").arg(QDir::toNativeSeparators(path)));
    });
    connect(m_metrics, &MetricsPage::exportFailed, this, [this](const QString& message) {
        m_messages->post(tr("Export metrics: %1").arg(message));
        QMessageBox::warning(this, tr("Export metrics"), message);
    });

    connect(&m_keychain, &PasswordKeychain::loaded, this, [this](const QString& identity, const QString& password) {
        if (identity != std::exchange(m_recentIdentity, QString()))
            return;
        m_pending = { identity, PendingConnection::Keychain::Loaded, password };
        connectTo(ConnectionSettings::fromDsn(PasswordKeychain::withPassword(identity, password)),
            Conninfo::displayName(Conninfo::parseWithoutSecrets(identity)));
    });
    // `keychainError`: why the keychain could not be read, for the dialog to say (empty: nothing was stored).
    const auto withoutStoredPassword = [this](const QString& identity, const QString& keychainError) {
        if (identity != std::exchange(m_recentIdentity, QString()))
            return;
        if (m_recentWithout == WithoutStoredPassword::Ask) {
            showConnectDialog(keychainError);
            return;
        }
        m_pending = { identity, PendingConnection::Keychain::Leave, QString() };
        connectTo(
            ConnectionSettings::fromDsn(identity), Conninfo::displayName(Conninfo::parseWithoutSecrets(identity)));
    };
    connect(&m_keychain, &PasswordKeychain::notStored, this,
        [withoutStoredPassword](const QString& identity) { withoutStoredPassword(identity, QString()); });
    connect(&m_keychain, &PasswordKeychain::failed, this,
        [this, withoutStoredPassword](const QString& identity, const QString& message) {
            // Reading, storing or forgetting: whoever asked must learn it did not happen.
            m_messages->post(tr("Keychain: %1").arg(message));
            if (identity == m_recentIdentity)
                withoutStoredPassword(identity, tr("Keychain: %1").arg(message));
        });
    connect(&m_keychain, &PasswordKeychain::stored, this, [this](const QString& identity) {
        m_currentIdentity = identity;
        m_forgetPassword->setEnabled(true);
        m_messages->post(tr("The password is stored in the keychain"));
    });
    connect(&m_keychain, &PasswordKeychain::forgotten, this, [this](const QString& identity) {
        if (identity != m_currentIdentity)
            return;
        m_currentIdentity.clear();
        m_forgetPassword->setEnabled(false);
        m_messages->post(tr("The keychain no longer holds this connection's password"));
    });

    buildMenus();
    restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Connect…"), QKeySequence::Open, this, [this] { showConnectDialog(); });
    QMenu* recent = file->addMenu(tr("Open &recent"));
    recent->setObjectName(QStringLiteral("recentMenu"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] { fillRecentMenu(recent); });
    m_forgetPassword = file->addAction(tr("F&orget the stored password"), this, [this] {
        if (!m_currentIdentity.isEmpty())
            m_keychain.forget(m_currentIdentity);
    });
    m_forgetPassword->setToolTip(tr("Removes this connection's password from the keychain"));
    m_forgetPassword->setEnabled(false);
    file->addSeparator();
    m_exportList = file->addAction(tr("&Export list…"), this, &MainWindow::exportList);
    m_exportList->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportList->setToolTip(tr("Every row matching the outbox or key filter, as CSV or JSON lines"));
    m_exportList->setEnabled(false);
    m_exportMetrics = file->addAction(tr("Export &metrics CSV…"), this, &MainWindow::exportMetricsCsv);
    m_exportMetrics->setEnabled(false);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Refresh"), QKeySequence::Refresh, this, &MainWindow::refresh);
    view->addAction(tr("&Filter"), QKeySequence::Find, this, [this] {
        if (m_tabs->currentIndex() == KeysTab) {
            m_keys->focusFilter();
        } else {
            m_tabs->setCurrentIndex(OutboxTab);
            m_outbox->focusFilter();
        }
    });
    view->addSeparator();
    auto* zones = new QActionGroup(this);
    QAction* utc = view->addAction(tr("Times in &UTC"));
    QAction* local = view->addAction(tr("Times in l&ocal time")); // L is the Language menu's
    for (QAction* action : { utc, local }) {
        action->setCheckable(true);
        zones->addAction(action);
    }
    (TimeFormatter::zone() == TimeFormatter::Zone::Utc ? utc : local)->setChecked(true);
    connect(zones, &QActionGroup::triggered, this, [this, utc](QAction* chosen) {
        TimeFormatter::setZone(chosen == utc ? TimeFormatter::Zone::Utc : TimeFormatter::Zone::Local);
        // Only the rendering changes; repaint instead of re-reading.
        m_outbox->table()->viewport()->update();
        m_keys->table()->viewport()->update();
        m_messageView->table()->viewport()->update();
        m_overview->refresh();
        if (m_tabs->currentIndex() == MetricsTab)
            m_metrics->refresh();
    });
    QMenu* autoRefresh = view->addMenu(tr("&Auto-refresh"));
    m_autoRefreshGroup = new QActionGroup(this);
    for (int seconds : AutoRefreshChoices) {
        QAction* action = autoRefresh->addAction(seconds ? tr("Every %n second(s)", nullptr, seconds) : tr("Off"));
        action->setCheckable(true);
        action->setData(seconds);
        m_autoRefreshGroup->addAction(action);
    }
    connect(m_autoRefreshGroup, &QActionGroup::triggered, this,
        [this](QAction* action) { setAutoRefreshSeconds(action->data().toInt()); });
    // Rows that keep arriving move a list the operator reads; this holds the picture still.
    m_pauseLiveUpdates = view->addAction(tr("&Pause live updates"));
    m_pauseLiveUpdates->setCheckable(true);
    m_pauseLiveUpdates->setToolTip(
        tr("Change notifications and the auto-refresh no longer re-read the lists and the Overview; F5 still does"));
    connect(m_pauseLiveUpdates, &QAction::toggled, this, [this](bool paused) {
        m_liveUpdatesPaused->setVisible(paused);
        m_eventTypes->setLive(!paused);
        if (!paused)
            refresh(); // what was held back
    });
    view->addAction(tr("&Stuck threshold…"), this, &MainWindow::askStuckThreshold);
    QAction* messages = m_messagesDock->toggleViewAction();
    messages->setText(tr("&Messages"));
    messages->setToolTip(tr("Every message of this session, with its time and the rows it concerns"));
    view->addAction(messages);
    view->addSeparator();
    buildLanguageMenu(view);

    QMenu* actions = menuBar()->addMenu(tr("&Actions"));
    actions->addAction(m_outbox->requeueSelectedAction());
    actions->addAction(m_outbox->editSelectedAction());
    actions->addAction(m_outbox->discardSelectedAction());
    actions->addAction(m_outbox->releaseSelectedAction());
    actions->addAction(m_outbox->requeueMatchingAction());
    actions->addSeparator();
    actions->addAction(m_outbox->copyAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About"), this, [this] {
        // In the window's own words and language: the application's version is whatever the program that opened the
        // window set, if anything (outbox-console --version stays English, for scripts).
        const QString version
            = tr("%1 (schema version %2)").arg(QStringLiteral(OUTBOX_VERSION)).arg(SchemaMigrator::latestVersion());
        QMessageBox::about(this, tr("About Outbox Console"),
            tr("<b>Outbox Console %1</b><p>Inspect and repair idempotency keys and the transactional outbox on "
               "PostgreSQL.</p><p>GPL-3.0-or-later.</p>")
                .arg(version));
    });
}

void MainWindow::buildLanguageMenu(QMenu* view)
{
    QMenu* menu = view->addMenu(tr("&Language"));
    menu->setObjectName(QStringLiteral("languageMenu"));
    auto* group = new QActionGroup(menu);
    const QString chosen = ConsoleLanguage::chosen(QSettings());
    const auto add = [&](const QString& text, const QString& code) {
        QAction* action = menu->addAction(text);
        action->setCheckable(true);
        action->setChecked(code == chosen);
        action->setData(code);
        group->addAction(action);
    };
    add(tr("System language"), QString());
    // Each language by its own name, so that whoever cannot read the current one still finds theirs.
    for (const ConsoleLanguage::Choice& choice : ConsoleLanguage::available())
        add(choice.name, choice.code);
    connect(group, &QActionGroup::triggered, this, [this](QAction* action) {
        QSettings settings;
        ConsoleLanguage::choose(settings, action->data().toString());
        m_messages->post(
            tr("The console will use %1 from its next start.").arg(action->text().remove(QLatin1Char('&'))));
    });
}

void MainWindow::fillRecentMenu(QMenu* menu)
{
    menu->clear();
    QSettings settings;
    for (const QString& entry : RecentConnections(settings).entries()) {
        QString name;
        try {
            name = Conninfo::displayName(Conninfo::parseWithoutSecrets(entry));
        } catch (const OutboxError&) {
            continue; // edited by hand into something libpq rejects
        }
        menu->addAction(name, this, [this, entry] { connectToRecent(entry); })->setToolTip(entry);
    }
    if (menu->isEmpty())
        menu->addAction(tr("No recent connections"))->setEnabled(false);
}

void MainWindow::reconnectOrAsk()
{
    QSettings settings;
    const QStringList entries = RecentConnections(settings).entries();
    if (entries.isEmpty()) {
        showConnectDialog();
        return;
    }
    connectToRecent(entries.first(), WithoutStoredPassword::Ask);
}

void MainWindow::connectToRecent(const QString& entry)
{
    connectToRecent(entry, WithoutStoredPassword::Connect);
}

void MainWindow::connectToRecent(const QString& entry, WithoutStoredPassword without)
{
    try {
        m_recentIdentity = PasswordKeychain::identity(entry);
    } catch (const OutboxError& error) {
        showConnectDialog(error.message()); // an entry edited by hand into something libpq rejects
        return;
    }
    m_recentWithout = without;
    m_serverLabel->setText(tr("Reading the password from the keychain…"));
    m_keychain.load(m_recentIdentity);
}

void MainWindow::connectTo(const ConnectionSettings& given, const QString& displayName)
{
    ConnectionSettings settings = given;
    settings.setDefaultApplicationName(QStringLiteral("outbox-console"));
    m_serverLabel->setText(tr("Connecting to %1…").arg(displayName));
    // Another server (or the same one again): what was lost of the last connection is no longer waited for.
    m_lostConnections.clear();
    m_connecting = { &m_reads, &m_searches, &m_actions };
    m_connectFailureSaid = false;
    m_banner->dismiss();
    m_reads.open(settings, true);
    m_searches.open(settings, false, DatabaseClient::FirstFailure::Retry);
    m_actions.open(settings, false, DatabaseClient::FirstFailure::Retry);
}

void MainWindow::connectToDsn(const QString& dsn)
{
    try {
        const ConnectionSettings settings = ConnectionSettings::fromDsn(dsn);
        m_attemptedDsn = dsn;
        connectTo(settings, PasswordKeychain::identity(dsn)); // as the recent connections show it: no password
    } catch (const OutboxError& error) {
        // Once the window is up: the dialog is modal.
        QTimer::singleShot(0, this, [this, dsn, message = error.message()] { showConnectDialog(message, dsn); });
    }
}

void MainWindow::showConnectDialog(const QString& error, const QString& conninfo)
{
    QSettings settings;
    const RecentConnections recent(settings);
    ConnectDialog dialog(recent, m_keychain, this);
    if (!conninfo.isEmpty())
        dialog.setConninfo(conninfo);
    if (!error.isEmpty())
        dialog.setError(error);
    if (dialog.exec() != QDialog::Accepted) {
        if (!m_tabs->isEnabled())
            m_serverLabel->setText(tr("Not connected — File → Connect…"));
        return;
    }
    // Remembered only once the connection works, so a typo never enters the recent list or the keychain.
    using Keychain = PendingConnection::Keychain;
    const Keychain keychain = !dialog.keychainAvailable()           ? Keychain::Leave
        : dialog.rememberPassword() && !dialog.password().isEmpty() ? Keychain::Store
                                                                    : Keychain::Forget;
    m_pending = { dialog.conninfo(), keychain, dialog.password() };
    connectTo(dialog.settings(), dialog.displayName());
}

void MainWindow::onConnected(const SessionInfo& info)
{
    m_session = info;
    applyAutoRefresh();
    const PendingConnection pending = std::exchange(m_pending, PendingConnection());
    m_currentIdentity.clear();
    m_forgetPassword->setEnabled(false);
    if (!pending.conninfo.isNull()) {
        QSettings settings;
        RecentConnections(settings).remember(pending.conninfo);
        const QString identity = PasswordKeychain::identity(pending.conninfo);
        switch (pending.keychain) {
        case PendingConnection::Keychain::Store:
            m_keychain.store(identity, pending.password); // stored() enables Forget
            break;
        case PendingConnection::Keychain::Forget:
            m_keychain.forget(identity);
            break;
        case PendingConnection::Keychain::Loaded:
            m_currentIdentity = identity;
            m_forgetPassword->setEnabled(true);
            break;
        case PendingConnection::Keychain::Leave:
            break;
        }
    }
    m_tabs->setEnabled(true);
    m_exportMetrics->setEnabled(true);
    m_exportList->setEnabled(true);
    showSession(info);
    m_overview->refresh();
    m_outbox->showFilter(m_outbox->filter());
    m_keys->showFilter(m_keys->filter());
    m_audit->showFilter(m_audit->filter());
    emit connected(info);
}

void MainWindow::postMessage(const QString& text, const QList<qint64>& rows)
{
    m_messages->post(text, rows);
}

void MainWindow::showSession(const SessionInfo& info)
{
    setWindowTitle(tr("%1@%2/%3 — Outbox Console").arg(info.user, info.server, info.database));
    m_serverLabel->setText(tr("%1 · database %2 · user %3 · schema v%4 · PostgreSQL %5")
                               .arg(info.server, info.database, info.user)
                               .arg(info.schemaVersion)
                               .arg(info.serverVersion));
    m_roleLabel->setText(info.roleDescription());
    m_roleLabel->setToolTip(info.mayChangeOutbox ? tr("May requeue rows and release leases") : info.readOnlyReason());
    m_outbox->setSessionInfo(info);
    m_failures->setMayChangeOutbox(info.mayChangeOutbox, info.readOnlyReason());
    m_overview->setMayChangeOutbox(info.mayChangeOutbox, info.readOnlyReason());
}

void MainWindow::noteConnectFailed(const DatabaseClient* client, const QString& message)
{
    // The three connections fail alike: one line, not one each.
    if (!std::exchange(m_connectFailureSaid, true))
        m_messages->post(tr("Could not connect: %1").arg(message));
    if (client != &m_reads)
        return;
    m_serverLabel->setText(tr("Not connected — File → Connect…"));
    showConnectDialog(message, std::exchange(m_attemptedDsn, QString()));
}

void MainWindow::noteConnectionLost(const DatabaseClient* client, const QString& message)
{
    if (m_lostConnections.contains(client))
        return;
    // The banner and the log speak for the console: lost when its first connection is, back when its last is.
    if (m_lostConnections.isEmpty()) {
        m_messages->post(tr("Connection to the database lost: %1. Reconnecting…").arg(message));
        m_banner->showLost(message);
        // A server that restarted cut the others too, but an idle one would only notice at its next heartbeat,
        // after this one is back: the banner would say Reconnected, then lost again.
        for (DatabaseClient* other : { &m_reads, &m_searches, &m_actions }) {
            if (other != client)
                other->checkNow();
        }
    }
    m_lostConnections.append(client);
}

void MainWindow::noteReconnected(const DatabaseClient* client)
{
    m_connecting.removeOne(client); // the retries after a failed first attempt (DatabaseClient::FirstFailure::Retry)
    if (!m_lostConnections.removeOne(client))
        return;
    if (!m_lostConnections.isEmpty()) {
        // The database is back: the others try now rather than when their backoff says.
        for (DatabaseClient* other : { &m_reads, &m_searches, &m_actions }) {
            if (m_lostConnections.contains(other))
                other->checkNow();
        }
        return;
    }
    m_messages->post(tr("Connection to the database restored"));
    m_banner->showRestored();
}

void MainWindow::forgetRelays(const QList<RelayNode>& relays)
{
    QList<qint64> ids;
    for (const RelayNode& relay : relays)
        ids.append(relay.id);
    std::sort(ids.begin(), ids.end());
    OperatorActionDialog dialog(tr("Forget"), ids,
        tr("Each relay is removed from the registry only if it still does not run when the action runs; one that "
           "heartbeats again is left alone. A forgotten relay that starts again registers anew."),
        this, OperatorActionDialog::Subject::Relays);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString reason = dialog.reason();
    runOverviewAction<OperatorActionReport>(
        tr("Forget failed"), [ids, reason](DbSession& session) { return RelayFleet(session).forget(ids, reason); },
        [](const OperatorActionReport& report) {
            QString message = tr("Forgot %n relay(s)", nullptr, int(report.changed.size()));
            if (!report.leftAlone.isEmpty())
                message += tr(
                    ", %n left alone (running again, or forgotten already)", nullptr, int(report.leftAlone.size()));
            return message;
        });
}

template<typename Result>
void MainWindow::runOverviewAction(
    const QString& failed, std::function<Result(DbSession&)> work, std::function<QString(const Result&)> said)
{
    m_actions.run<Result>(
        this, std::move(work),
        [this, said = std::move(said)](const Result& result) {
            m_messages->post(said(result));
            m_overview->refresh();
        },
        [this, failed](const OutboxError& error) {
            QMessageBox::warning(this, failed, error.message());
            m_overview->refresh();
        });
}

void MainWindow::pause(const QString& relayName)
{
    PauseDialog dialog(relayName, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const PauseScope scope = dialog.scope();
    const QString target = dialog.target();
    const QString reason = dialog.reason();
    // Whether the name is known, too: a typo pauses nothing that runs, and the operator should hear of it.
    using Outcome = std::pair<std::optional<PublishPause>, bool>;
    runOverviewAction<Outcome>(
        tr("Pause failed"),
        [scope, target, reason](DbSession& session) {
            PublishPauses pauses(session);
            std::optional<PublishPause> paused = pauses.pause(scope, target, reason);
            return Outcome { paused, pauses.isKnown(scope, target) };
        },
        [](const Outcome& outcome) {
            const auto& [paused, known] = outcome;
            QString message
                = paused ? tr("Paused %1").arg(PausesModel::describe(*paused)) : tr("Paused already: nothing changed");
            if (paused && !known) {
                message += QLatin1String(" — ")
                    + (paused->scope == PauseScope::Relay
                            ? tr("no relay of that name is registered: check the name (a relay that starts under it "
                                 "will be paused)")
                            : tr("no outbox row has that event type: check the name (rows that arrive with it will "
                                 "be held)"));
            }
            return message;
        });
}

void MainWindow::resume(const PublishPause& pause)
{
    PauseDialog dialog(pause, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString reason = dialog.reason();
    runOverviewAction<std::optional<qint64>>(
        tr("Resume failed"),
        [pause, reason](
            DbSession& session) { return PublishPauses(session).resume(pause.scope, pause.target, reason); },
        [pause](const std::optional<qint64>& released) {
            if (!released)
                return tr("%1 was not paused any more: nothing changed").arg(PausesModel::describe(pause));
            if (pause.scope == PauseScope::EventType)
                return tr("Resumed %1: %n held row(s) let go", nullptr, int(*released))
                    .arg(PausesModel::describe(pause));
            return tr("Resumed %1").arg(PausesModel::describe(pause));
        });
}

void MainWindow::showOutboxRows(const QList<qint64>& ids)
{
    OutboxFilter rows;
    rows.ids = ids;
    m_outbox->showFilter(rows);
    m_tabs->setCurrentIndex(OutboxTab);
}

void MainWindow::refresh()
{
    if (!m_tabs->isEnabled() || isMinimized())
        return;
    m_overview->refresh();
    if (m_tabs->currentIndex() == OutboxTab)
        m_outbox->refresh();
    else if (m_tabs->currentIndex() == FailuresTab)
        m_failures->refresh();
    else if (m_tabs->currentIndex() == AuditTab)
        m_audit->refresh();
    else if (m_tabs->currentIndex() == KeysTab)
        m_keys->refresh();
    else if (m_tabs->currentIndex() == MetricsTab)
        m_metrics->refresh();
    else if (m_tabs->currentIndex() == EventTypesTab)
        m_eventTypes->refresh();
}

void MainWindow::refreshLive()
{
    if (!m_pauseLiveUpdates->isChecked())
        refresh();
}

void MainWindow::setAutoRefreshSeconds(int seconds)
{
    for (QAction* action : m_autoRefreshGroup->actions())
        action->setChecked(action->data().toInt() == seconds);
    m_autoRefreshSeconds = seconds;
    applyAutoRefresh();
}

void MainWindow::applyAutoRefresh()
{
    const bool polled = m_session.transactionPooled;
    const int seconds = m_autoRefreshSeconds > 0 ? m_autoRefreshSeconds : polled ? DefaultAutoRefreshSeconds : 0;
    if (seconds > 0 && (!m_autoRefresh->isActive() || m_autoRefresh->interval() != seconds * 1000))
        m_autoRefresh->start(seconds * 1000);
    else if (seconds == 0)
        m_autoRefresh->stop();
    m_polledUpdates->setText(tr("Updates every %n second(s): through a connection pooler", nullptr, seconds));
    m_polledUpdates->setVisible(polled);
}

void MainWindow::askStuckThreshold()
{
    bool ok = false;
    const int minutes = QInputDialog::getInt(this, tr("Stuck threshold"),
        tr("Pending or failed rows due for longer than this many minutes count as stuck:"),
        int(m_stuckThresholdMs / 60'000), 1, 24 * 60, 1, &ok);
    if (!ok)
        return;
    m_stuckThresholdMs = qint64(minutes) * 60'000;
    m_overview->setStuckThresholdMs(m_stuckThresholdMs);
    m_outbox->setStuckThresholdMs(m_stuckThresholdMs);
    if (m_tabs->isEnabled()) {
        m_overview->refresh();
        m_outbox->showFilter(m_outbox->filter());
    }
}

void MainWindow::exportMetricsCsv()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export metrics"), QStringLiteral("metrics.csv"), tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        m_metrics->exportCsv(path);
}

void MainWindow::exportList()
{
    const bool keys = m_tabs->currentIndex() == KeysTab;
    const QString path
        = QFileDialog::getSaveFileName(this, keys ? tr("Export idempotency keys") : tr("Export outbox rows"),
            keys ? QStringLiteral("keys.csv") : QStringLiteral("outbox.csv"),
            tr("CSV files (*.csv);;JSON lines (*.jsonl)"));
    if (!path.isEmpty())
        exportListTo(path);
}

ExportRunner* MainWindow::exportListTo(const QString& path)
{
    // On the action worker: a long export must not hold up the lists.
    const RecordTable::Format format = ExportRunner::formatForPath(path);
    ExportRunner* runner = m_tabs->currentIndex() == KeysTab
        ? ExportRunner::exportKeys(m_actions, this, m_keys->filter(), format, path)
        : ExportRunner::exportOutbox(m_actions, this, m_outbox->filter(), format, path);
    connect(runner, &ExportRunner::finished, this, [this, path](qint64 rows, bool cancelled) {
        m_messages->post(cancelled ? tr("Export cancelled; %1 was not written").arg(path)
                                   : tr("Exported %n row(s) to %1", nullptr, int(rows)).arg(path));
    });
    connect(runner, &ExportRunner::failed, this, [this](const QString& message) {
        m_messages->post(tr("Export failed: %1").arg(message));
        QMessageBox::warning(this, tr("Export failed"), message);
    });
    return runner;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    event->accept();
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("view/utc"), TimeFormatter::zone() == TimeFormatter::Zone::Utc);
    settings.setValue(QStringLiteral("view/autoRefreshSeconds"), m_autoRefreshSeconds);
    settings.setValue(QStringLiteral("view/stuckThresholdMs"), m_stuckThresholdMs);
    m_outbox->saveState(settings);
    m_keys->saveState(settings);
}

void MainWindow::restoreSettings()
{
    const QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1280, 800);
    // At first the Messages panel is a few lines high, and the tabs have the room: on a small screen the Overview
    // needs it all.
    if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray()))
        resizeDocks({ m_messagesDock }, { 6 * fontMetrics().lineSpacing() }, Qt::Vertical);
    TimeFormatter::setZone(settings.value(QStringLiteral("view/utc"), true).toBool() ? TimeFormatter::Zone::Utc
                                                                                     : TimeFormatter::Zone::Local);
    setAutoRefreshSeconds(settings.value(QStringLiteral("view/autoRefreshSeconds"), DefaultAutoRefreshSeconds).toInt());
    m_stuckThresholdMs
        = settings.value(QStringLiteral("view/stuckThresholdMs"), OutboxFilter::DefaultStuckThresholdMs).toLongLong();
    m_overview->setStuckThresholdMs(m_stuckThresholdMs);
    m_outbox->setStuckThresholdMs(m_stuckThresholdMs);
    m_outbox->restoreState(settings);
    m_keys->restoreState(settings);
}
