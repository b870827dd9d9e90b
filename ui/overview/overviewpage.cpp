// SPDX-License-Identifier: GPL-3.0-or-later
#include "overview/overviewpage.h"

#include "common/auditsubject.h"
#include "common/listviewsetup.h"
#include "common/resizewatcher.h"
#include "common/wrappinglabel.h"
#include "core/databaseclient.h"
#include "core/timeformatter.h"
#include "failures/failuregroupsmodel.h"
#include "metrics/metricschart.h"
#include "metrics/metricthresholds.h"
#include "operations/auditrepository.h"
#include "operations/outboxoverview.h"
#include "overview/pausesmodel.h"
#include "overview/relayfleetmodel.h"
#include "overview/waitingrowsmodel.h"

#include <QGraphicsOpacityEffect>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QMap>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

namespace {

// The tiles are named like the statuses they count, plus "stuck" (for tests and screen readers).
const QString StuckTile = QStringLiteral("stuck");
const QString BlockedKeysTile = QStringLiteral("blockedKeys");

OutboxFilter statusFilter(OutboxStatus status)
{
    OutboxFilter filter;
    filter.statuses = { status };
    return filter;
}

// Three significant digits: an estimate says its order of magnitude, not a false precision.
qint64 roughly(qint64 value)
{
    qint64 scale = 1;
    while (value / scale >= 1000)
        scale *= 10;
    return (value + scale / 2) / scale * scale;
}

QString countText(const CappedCount& count)
{
    if (count.estimate)
        return QStringLiteral("≈ ") + QLocale().toString(roughly(*count.estimate));
    const QString number = QLocale().toString(count.value);
    return count.capped ? number + QLatin1Char('+') : number;
}

// The height of `rows` rows and the header.
int heightOfRows(const QTableView* table, int rows)
{
    return table->horizontalHeader()->sizeHint().height() + rows * table->verticalHeader()->defaultSectionSize()
        + 2 * table->frameWidth();
}

// `rows` rows tall where the page has room, so the explained rows show without a scroll bar and nothing else takes
// room; down to `fewest` rows (then it scrolls) on a small screen, where the page shows every pane at once.
void fitRows(QTableView* table, int rows, int fewest = 1)
{
    table->setMinimumHeight(heightOfRows(table, qMin(rows, fewest)));
    table->setMaximumHeight(heightOfRows(table, rows));
}

// The explained rows (groups, oldest rows) a small screen still shows.
constexpr int FewestExplainedRows = 3;
// The last hour's chart on a small screen: its title, legend and axes, and a plot still worth reading.
constexpr int MinimumChartHeight = 200;

// In an outage the relays' last error must be in view, not behind a scroll bar: host, version and sink (long, and
// alike on every relay) give way to it, each at most an eighth of the table's width, cut in the middle.
void fitRelayColumns(QTableView* table)
{
    const int widest = table->viewport()->width() / 8;
    for (const int column : { RelayFleetModel::Host, RelayFleetModel::Version, RelayFleetModel::Sink }) {
        table->resizeColumnToContents(column);
        table->setColumnWidth(column, qMin(table->columnWidth(column), widest));
    }
}

QLabel* heading(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(text), parent);
    return label;
}

} // namespace

OverviewPage::OverviewPage(DatabaseClient& reads, QWidget* parent)
    : QWidget(parent)
    , m_reads(reads)
    , m_oldest(new QLabel(this))
    , m_rates(new QLabel(this))
    , m_updated(new WrappingLabel(this))
    , m_fleet(new QLabel(this))
    , m_nothingPublishing(new WrappingLabel(this))
    , m_relayModel(new RelayFleetModel(this))
    , m_relayTable(new QTableView(this))
    , m_forgetRelays(new QPushButton(tr("For&get…"), this))
    , m_pause(new QPushButton(tr("&Pause…"), this))
    , m_pauseModel(new PausesModel(this))
    , m_pauseTable(new QTableView(this))
    , m_resume(new QPushButton(tr("Re&sume…"), this))
    , m_pausesBox(new QWidget(this))
    , m_groupModel(new FailureGroupsModel(this))
    , m_groupTable(new QTableView(this))
    , m_retryGroup(new QPushButton(tr("&Retry group…"), this))
    , m_waitingModel(new WaitingRowsModel(this))
    , m_waitingTable(new QTableView(this))
    , m_lastHour(new MetricsChart(tr("Last hour, per minute"), this))
    , m_actions(new QLabel(this))
    , m_clock(new QTimer(this))
{
    auto* grid = new QGridLayout;
    grid->setSpacing(8);
    // Stuck and not dead, as OutboxOverview::stuck counts: dead rows have their own tile.
    OutboxFilter stuck;
    stuck.stuckOnly = true;
    stuck.statuses = { OutboxStatus::Pending, OutboxStatus::InFlight, OutboxStatus::Failed };
    const auto addStatusTile = [&](OutboxStatus status, const QString& caption) {
        addTile(grid, OutboxStatusNames.name(status), caption, statusFilter(status));
    };
    // In two rows whose columns pair short captions with long ones, so the page stays as narrow as one row was.
    addStatusTile(OutboxStatus::Pending, tr("pending"));
    addStatusTile(OutboxStatus::Failed, tr("failed, retry scheduled"));
    addStatusTile(OutboxStatus::Dead, tr("dead, need an operator"));
    addTile(grid, StuckTile, tr("stuck, lease expired or overdue"), stuck);
    addStatusTile(OutboxStatus::InFlight, tr("in flight"));
    addStatusTile(OutboxStatus::Waiting, tr("waiting behind their key"));
    OutboxFilter blocking;
    blocking.blockingOnly = true;
    addTile(grid, BlockedKeysTile, tr("keys blocked by a dead row"), blocking);
    addStatusTile(OutboxStatus::Paused, tr("held by a paused event type"));
    QFont large = m_oldest->font();
    large.setPointSizeF(large.pointSizeF() * 1.3);
    for (QLabel* label : { m_oldest, m_rates }) {
        label->setFont(large);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_updated->setForegroundRole(QPalette::PlaceholderText);
    m_updated->setTextFormat(Qt::PlainText); // it may quote an error
    // Named for tests and screen readers.
    m_rates->setObjectName(QStringLiteral("rates"));
    m_updated->setObjectName(QStringLiteral("updated"));
    m_fleet->setObjectName(QStringLiteral("fleet"));
    m_clock->setInterval(1000);
    connect(m_clock, &QTimer::timeout, this, [this] {
        m_relayModel->setNow(m_readAt.addMSecs(m_sinceRead.elapsed()));
        if (showsStaleFigures())
            showReadTime();
    });
    connect(&m_reads, &DatabaseClient::connectionLost, this, &OverviewPage::markStale);
    // Another database, or the same one anew: its first read finds the relays as they are, which is no change.
    connect(&m_reads, &DatabaseClient::connected, this, [this] { m_fleetKnown = false; });

    m_nothingPublishing->setObjectName(QStringLiteral("nothingPublishing"));
    m_nothingPublishing->setFont(large);
    m_nothingPublishing->setStyleSheet(QStringLiteral("color: #dc322f; font-weight: bold;"));
    m_nothingPublishing->setWordWrap(true);
    m_nothingPublishing->hide();
    ListViewSetup::setUpSnapshotTable(m_relayTable, m_relayModel, QStringLiteral("relays"));
    m_relayTable->horizontalHeader()->setSectionResizeMode(RelayFleetModel::LastError, QHeaderView::Stretch);
    for (const int column : { RelayFleetModel::Host, RelayFleetModel::Version, RelayFleetModel::Sink })
        m_relayTable->horizontalHeader()->setSectionResizeMode(column, QHeaderView::Interactive);
    // An error's end says what failed.
    m_relayTable->setTextElideMode(Qt::ElideMiddle);
    connect(m_relayModel, &QAbstractItemModel::modelReset, this, [this] { fitRelayColumns(m_relayTable); });
    new ResizeWatcher(m_relayTable->viewport(), [this] { fitRelayColumns(m_relayTable); });
    // A relay at least: the running ones come first, by their heartbeats. Beyond that it shares with the last hour
    // what the explained rows leave.
    m_relayTable->setMinimumHeight(heightOfRows(m_relayTable, 1));
    m_relayTable->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    // Several at once: after a redeploy every relay of the old version is stopped or stale.
    m_relayTable->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_forgetRelays->setObjectName(QStringLiteral("forgetRelays"));
    ListViewSetup::keepSelectionAcrossResets(m_relayTable, m_relayModel);
    connect(m_relayTable->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &OverviewPage::updateForgetRelays);
    connect(m_relayModel, &QAbstractItemModel::modelReset, this, &OverviewPage::updateForgetRelays);
    connect(m_forgetRelays, &QPushButton::clicked, this, [this] { emit forgetRelays(selectedRelays()); });
    updateForgetRelays();
    m_pause->setObjectName(QStringLiteral("pause"));
    connect(m_pause, &QPushButton::clicked, this, [this] {
        const QList<RelayNode> relays = selectedRelays();
        emit pauseRequested(relays.size() == 1 ? relays.first().name : QString());
    });
    auto* fleetBar = new QHBoxLayout;
    fleetBar->addWidget(m_fleet, 1);
    fleetBar->addWidget(m_pause);
    fleetBar->addWidget(m_forgetRelays);

    // Every pane at once on a 1280×800 screen, in English and Korean (tst_consolelayout): the figures and the
    // pauses beside the last hour, the failure groups beside the oldest rows, and the relays below. A larger window
    // gives the last hour two thirds of the height and the relays one (a layout shares out the whole height by the
    // stretch factors, each pane at least as tall as it asks).
    auto* pauses = new QVBoxLayout(m_pausesBox);
    pauses->setContentsMargins(0, 0, 0, 0);
    pauses->addLayout(pausesPane());
    m_pausesBox->hide();
    auto* figures = new QVBoxLayout;
    figures->setSpacing(2);
    figures->addWidget(m_oldest);
    figures->addWidget(m_rates);
    figures->addWidget(m_nothingPublishing);
    figures->addWidget(m_pausesBox);
    figures->addStretch(1);
    auto* top = new QHBoxLayout;
    top->addLayout(figures, 3);
    top->addLayout(historyPane(), 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addLayout(grid);
    layout->addLayout(top, 2);
    layout->addWidget(explanations());
    layout->addLayout(fleetBar);
    layout->addWidget(m_relayTable, 1);
    layout->addWidget(m_updated);
}

QLayout* OverviewPage::failureGroupsPane()
{
    ListViewSetup::setUpSnapshotTable(m_groupTable, m_groupModel, QStringLiteral("failureGroups"));
    for (const int column : { FailureGroupsModel::Failed, FailureGroupsModel::Dead, FailureGroupsModel::EventTypes })
        m_groupTable->hideColumn(column);
    m_groupTable->setToolTip(tr("Double-click a group to see its rows"));
    fitRows(m_groupTable, OutboxOverview::ExplainedRows, FewestExplainedRows);
    m_groupTable->setTextElideMode(Qt::ElideMiddle);
    m_retryGroup->setEnabled(false);
    auto* showGroup = new QPushButton(tr("Show rows"), this);
    showGroup->setEnabled(false);
    connect(m_groupTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this, showGroup] {
        const bool selected = m_groupTable->selectionModel()->hasSelection();
        showGroup->setEnabled(selected);
        m_retryGroup->setEnabled(selected && m_mayChangeOutbox);
    });
    connect(showGroup, &QPushButton::clicked, this, [this] { emit showOutbox(selectedGroupRows()); });
    connect(m_groupTable, &QTableView::doubleClicked, this, [this] { emit showOutbox(selectedGroupRows()); });
    connect(m_retryGroup, &QPushButton::clicked, this, [this] { emit retryGroup(selectedGroupRows()); });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(heading(tr("Largest failure groups"), this), 1);
    buttons->addWidget(showGroup);
    buttons->addWidget(m_retryGroup);
    auto* pane = new QVBoxLayout;
    pane->addLayout(buttons);
    pane->addWidget(m_groupTable);
    return pane;
}

// Shown only while something is paused: what, by whom, why, and Resume.
QLayout* OverviewPage::pausesPane()
{
    ListViewSetup::setUpSnapshotTable(m_pauseTable, m_pauseModel, QStringLiteral("pauses"));
    m_pauseTable->horizontalHeader()->setSectionResizeMode(PausesModel::Reason, QHeaderView::Stretch);
    m_resume->setObjectName(QStringLiteral("resume"));
    ListViewSetup::keepSelectionAcrossResets(m_pauseTable, m_pauseModel);
    connect(m_pauseTable->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &OverviewPage::updatePauseButtons);
    connect(m_pauseModel, &QAbstractItemModel::modelReset, this, &OverviewPage::updatePauseButtons);
    connect(m_resume, &QPushButton::clicked, this, [this] {
        const QModelIndexList selected = m_pauseTable->selectionModel()->selectedRows();
        if (!selected.isEmpty())
            emit resumeRequested(m_pauseModel->rows().at(selected.first().row()));
    });
    auto* bar = new QHBoxLayout;
    auto* title = heading(tr("Paused by an operator"), this);
    title->setStyleSheet(QStringLiteral("color: #b58900;"));
    bar->addWidget(title, 1);
    bar->addWidget(m_resume);
    auto* pane = new QVBoxLayout;
    pane->addLayout(bar);
    pane->addWidget(m_pauseTable);
    return pane;
}

void OverviewPage::updatePauseButtons()
{
    const QModelIndexList selected = m_pauseTable->selectionModel()->selectedRows();
    const bool resumable = !selected.isEmpty() && !m_pauseModel->rows().at(selected.first().row()).resuming();
    m_resume->setEnabled(m_mayChangeOutbox && resumable);
    m_pause->setEnabled(m_mayChangeOutbox);
    const QString reason = m_mayChangeOutbox ? QString() : m_forgetReadOnlyReason;
    m_resume->setToolTip(reason.isEmpty() ? tr("Resume the selected pause, with a reason for the audit log") : reason);
    m_pause->setToolTip(reason.isEmpty()
            ? tr("Pause a relay (the selected one's name) or an event type, with a reason for the audit log")
            : reason);
}

QLayout* OverviewPage::waitingRowsPane()
{
    ListViewSetup::setUpSnapshotTable(m_waitingTable, m_waitingModel, QStringLiteral("oldestUnpublished"));
    m_waitingTable->setToolTip(tr("Double-click a row to open it in the outbox list; double-click the cause of a "
                                  "row waiting behind another to open that one"));
    fitRows(m_waitingTable, OutboxOverview::ExplainedRows, FewestExplainedRows);
    // Why a row waits ends with what failed.
    m_waitingTable->setTextElideMode(Qt::ElideMiddle);
    connect(m_waitingTable, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        OutboxFilter row;
        row.ids = { index.data(WaitingRowsModel::OpensRole).toLongLong() };
        emit showOutbox(row);
    });
    auto* pane = new QVBoxLayout;
    pane->addWidget(heading(tr("Oldest unpublished rows"), this));
    pane->addWidget(m_waitingTable);
    return pane;
}

QLayout* OverviewPage::historyPane()
{
    QValueAxis* perMinute = m_lastHour->addAxis(tr("rows"), Qt::AlignLeft);
    QValueAxis* lag = m_lastHour->addAxis(tr("lag (s)"), Qt::AlignRight);
    m_lastHour->addLine(tr("published"), perMinute, MetricsChart::counter(&MetricCounters::published));
    m_lastHour->addLine(tr("failed attempts"), perMinute, MetricsChart::counter(&MetricCounters::failedAttempts));
    m_lastHour->addLine(tr("oldest unpublished"), lag, MetricsChart::backlog([](const BacklogSample& sample) {
        return double(sample.oldestUnpublishedAgeMs) / 1000.0;
    }),
        tr("s"), 1);
    m_lastHour->setMinimumHeight(MinimumChartHeight);

    m_actions->setObjectName(QStringLiteral("recentActions"));
    m_actions->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_actions->setWordWrap(true);
    m_actions->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(m_actions, &QLabel::linkActivated, this, &OverviewPage::showAudit);
    // Five actions with long reasons wrap to more lines than the pane has: they scroll, below the chart, never over
    // it (a label as tall as its text took the chart's legend).
    auto* actions = new QScrollArea(this);
    actions->setWidget(m_actions);
    actions->setWidgetResizable(true);
    actions->setFrameShape(QFrame::NoFrame);
    actions->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    actions->viewport()->setAutoFillBackground(false);
    m_actions->setAutoFillBackground(false);
    actions->setMinimumHeight(2 * m_actions->fontMetrics().lineSpacing());

    // The chart takes what the actions' lines leave; it shares the room the explained rows leave with the relays,
    // rather than take it from those rows first.
    m_lastHour->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    actions->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    auto* pane = new QVBoxLayout;
    pane->addWidget(m_lastHour, 1);
    pane->addWidget(heading(tr("Last operator actions"), this));
    pane->addWidget(actions);
    return pane;
}

QWidget* OverviewPage::explanations()
{
    auto* panes = new QWidget(this);
    auto* columns = new QHBoxLayout(panes);
    columns->setContentsMargins(0, 0, 0, 0);
    columns->addLayout(failureGroupsPane(), 1);
    columns->addLayout(waitingRowsPane(), 1);
    return panes;
}

void OverviewPage::setMayChangeOutbox(bool may, const QString& reason)
{
    m_mayChangeOutbox = may;
    m_retryGroup->setEnabled(may && m_groupTable->selectionModel()->hasSelection());
    m_retryGroup->setToolTip(
        may ? tr("Requeue every row of the selected group, as they are when you confirm") : reason);
    m_forgetReadOnlyReason = may ? QString() : reason;
    updateForgetRelays();
    updatePauseButtons();
}

QList<RelayNode> OverviewPage::selectedRelays() const
{
    QList<RelayNode> relays;
    for (const QModelIndex& index : m_relayTable->selectionModel()->selectedRows())
        relays.append(m_relayModel->rows().at(index.row()));
    return relays;
}

void OverviewPage::updateForgetRelays()
{
    const QList<RelayNode> relays = selectedRelays();
    const bool anyRunning
        = std::any_of(relays.cbegin(), relays.cend(), [](const RelayNode& node) { return isRunning(node.state); });
    m_forgetRelays->setEnabled(m_mayChangeOutbox && !relays.isEmpty() && !anyRunning);
    if (!m_mayChangeOutbox)
        m_forgetRelays->setToolTip(m_forgetReadOnlyReason);
    else if (anyRunning)
        m_forgetRelays->setToolTip(tr("A running relay (alive, paused or failing) cannot be forgotten: stop it first"));
    else
        m_forgetRelays->setToolTip(tr("Remove the selected stopped, stale or gone relays from the registry, with a "
                                      "reason for the audit log (a relay that starts again registers anew)"));
}

OutboxFilter OverviewPage::selectedGroupRows() const
{
    OutboxFilter rows;
    const QModelIndexList selected = m_groupTable->selectionModel()->selectedRows();
    if (selected.isEmpty())
        return rows;
    rows.errorSignature = selected.first().data(FailureGroupsModel::SignatureRole).toString();
    rows.statuses = { OutboxStatus::Failed, OutboxStatus::Dead };
    return rows;
}

void OverviewPage::presentExplanations(const OutboxOverview& overview)
{
    // The selected group stays selected across refreshes, so Retry group acts on what the operator chose.
    const QString selected = selectedGroupRows().errorSignature;
    m_groupModel->setRows(overview.failureGroups);
    for (int row = 0; row < m_groupModel->rowCount(); ++row) {
        if (!selected.isEmpty() && m_groupModel->rows().at(row).signature == selected)
            m_groupTable->selectRow(row);
    }
    m_waitingModel->setRows(overview.oldestUnpublished, overview.serverNow, overview.longestFailing());
    m_lastHour->setPoints(overview.lastHour, 60, MetricsChart::displayZone(), overview.serverNow);

    QStringList lines;
    for (const AuditEntry& entry : overview.recentActions) {
        lines.append(
            tr("%1 · <b>%2</b> %3 %4: %5")
                .arg(TimeFormatter::display(entry.at), entry.actor.toHtmlEscaped(), entry.action.toHtmlEscaped(),
                    AuditSubject::describe(entry).toHtmlEscaped(), entry.reason.toHtmlEscaped()));
    }
    if (lines.isEmpty())
        lines.append(tr("No operator action on record."));
    lines.append(QStringLiteral("<a href=\"audit\">%1</a>").arg(tr("All actions in the Audit tab")));
    m_actions->setText(lines.join(QStringLiteral("<br>")));
}

void OverviewPage::addTile(QGridLayout* grid, const QString& name, const QString& caption, const OutboxFilter& filter)
{
    auto* tile = new QToolButton(this);
    tile->setToolButtonStyle(Qt::ToolButtonTextOnly);
    tile->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    tile->setAutoRaise(false);
    tile->setProperty("caption", caption);
    tile->setToolTip(tr("Show the %1 rows").arg(caption));
    QFont font = tile->font();
    font.setPointSizeF(font.pointSizeF() * 1.4);
    tile->setFont(font);
    tile->setText(QStringLiteral("–\n") + caption);
    connect(tile, &QToolButton::clicked, this, [this, filter] {
        OutboxFilter withThreshold = filter;
        withThreshold.stuckThresholdMs = m_stuckThresholdMs;
        emit showOutbox(withThreshold);
    });
    m_tiles.insert(name, tile);
    // Four to a row: seven in one would make the window wider than a small screen.
    constexpr int TilesPerRow = 4;
    const int index = int(m_tiles.size()) - 1;
    grid->addWidget(tile, index / TilesPerRow, index % TilesPerRow);
    grid->setColumnStretch(index % TilesPerRow, 1);
}

void OverviewPage::setStuckThresholdMs(qint64 ms)
{
    m_stuckThresholdMs = ms;
}

void OverviewPage::refresh()
{
    if (m_loading)
        return; // the answer on its way is fresh enough
    m_loading = true;
    m_reads.run<OutboxOverview>(
        this, [threshold = m_stuckThresholdMs](DbSession& session) { return OutboxOverview::load(session, threshold); },
        [this](const OutboxOverview& overview) {
            m_loading = false;
            present(overview);
        },
        [this](const OutboxError& error) {
            m_loading = false;
            markStale(error.message());
            emit loadFailed(error.message());
        });
}

void OverviewPage::markStale(const QString& why)
{
    m_staleReason = why.section(QLatin1Char('\n'), 0, 0);
    markFigures();
}

void OverviewPage::markFigures()
{
    const bool stale = showsStaleFigures();
    m_relayModel->setStale(stale);
    m_waitingModel->setStale(stale);
    QList<QWidget*> figures { m_oldest, m_rates, m_nothingPublishing, m_fleet };
    for (QToolButton* tile : std::as_const(m_tiles))
        figures.append(tile);
    for (QWidget* figure : figures) {
        if (stale == (figure->graphicsEffect() != nullptr))
            continue;
        QGraphicsOpacityEffect* faded = nullptr;
        if (stale) {
            faded = new QGraphicsOpacityEffect(figure);
            faded->setOpacity(0.4);
        }
        figure->setGraphicsEffect(faded); // nullptr deletes the one before
    }
    showReadTime();
}

void OverviewPage::showReadTime()
{
    if (!showsStaleFigures()) {
        m_updated->setStyleSheet(QString());
        m_updated->setForegroundRole(QPalette::PlaceholderText);
        m_updated->setText(tr("Updated %1").arg(TimeFormatter::display(m_readAt)));
        m_fleet->setText(m_fleetSummary);
        return;
    }
    // In full red: a style sheet's colour is drawn translucent in the placeholder role.
    m_updated->setForegroundRole(QPalette::WindowText);
    m_updated->setStyleSheet(QStringLiteral("color: #dc322f; font-weight: bold;"));
    if (!m_readAt.isValid()) {
        m_updated->setText(tr("⚠ Not read yet: %1").arg(m_staleReason));
        return;
    }
    const QString readAt = TimeFormatter::display(m_readAt);
    m_updated->setText(tr("⚠ Not updated since %1 (%2 ago): %3 — every figure above is as of then")
                           .arg(readAt, TimeFormatter::duration(m_sinceRead.elapsed()), m_staleReason));
    m_fleet->setText(tr("As of %1: %2").arg(readAt, m_fleetSummary));
}

void OverviewPage::present(const OutboxOverview& overview)
{
    const auto name = [](OutboxStatus status) { return OutboxStatusNames.name(status); };
    const std::pair<QString, CappedCount> counts[]
        = { { name(OutboxStatus::Pending), overview.pending }, { name(OutboxStatus::InFlight), overview.inFlight },
              { name(OutboxStatus::Failed), overview.failed }, { name(OutboxStatus::Dead), overview.dead },
              { StuckTile, overview.stuck }, { name(OutboxStatus::Waiting), overview.waiting },
              { BlockedKeysTile, overview.blockedKeys }, { name(OutboxStatus::Paused), overview.paused } };
    for (const auto& [tileName, count] : counts) {
        QToolButton* tile = m_tiles.value(tileName);
        tile->setText(countText(count) + QLatin1Char('\n') + tile->property("caption").toString());
        // Rows that need an operator stand out; the colour reads on light and dark palettes.
        const bool alarming = count.value > 0
            && (tileName == name(OutboxStatus::Dead) || tileName == StuckTile || tileName == BlockedKeysTile);
        tile->setStyleSheet(alarming ? QStringLiteral("color: #dc322f; font-weight: bold;") : QString());
        if (count.estimate) {
            tile->setToolTip(tr("An estimate from the planner's statistics (as of the last ANALYZE): about %1. "
                                "Exact counts stop at %2 so that they stay cheap on large tables.")
                                 .arg(QLocale().toString(*count.estimate), QLocale().toString(count.value)));
        } else if (count.capped) {
            tile->setToolTip(
                tr("At least %1: counting stops after %2 rows have been read, so that it stays cheap on large tables")
                    .arg(QLocale().toString(count.value), QLocale().toString(OutboxOverview::CountCap)));
        }
    }
    // The Metrics tab's warning levels colour the same figures here, so the first screen already says
    // whether something is over its level.
    const MetricThresholds thresholds = MetricThresholds::load(QSettings());
    const auto marked = [](const QString& text, bool warn) {
        return warn ? QStringLiteral("<span style=\"color:#dc322f\">%1 ⚠</span>").arg(text) : text;
    };
    const bool lagging = overview.oldestUnpublishedAgeMs
        && double(*overview.oldestUnpublishedAgeMs) > thresholds.oldestPendingAgeSeconds * 1000.0;
    m_oldest->setText(overview.oldestUnpublishedAgeMs
            ? tr("Oldest unpublished row: %1 old")
                  .arg(
                      marked(QStringLiteral("<b>%1</b>").arg(TimeFormatter::duration(*overview.oldestUnpublishedAgeMs)),
                          lagging))
            : tr("Nothing waits to be published."));
    const bool duplicating
        = overview.duplicateHitRate && *overview.duplicateHitRate * 100.0 > thresholds.duplicateHitRatePercent;
    const QString hitRate = overview.duplicateHitRate
        ? marked(QStringLiteral("<b>%1 %</b>").arg(QLocale().toString(*overview.duplicateHitRate * 100.0, 'f', 1)),
            duplicating)
        : tr("<b>no requests</b>");
    // Rates over the last complete minutes, so that a burst or a stall shows, and over fewer where the system is
    // younger than that, saying so; the hour's totals beside them.
    QString rates;
    if (overview.rateMinutes == 0) {
        rates
            = tr("Last %n minute(s): <b>no complete minute with data yet</b>", nullptr, OutboxOverview::RecentMinutes);
    } else {
        rates = (overview.rateMinutes < OutboxOverview::RecentMinutes
                ? tr("Last %n minute(s), no data before: <b>%1</b> published per minute · duplicate hit rate %2",
                    nullptr, overview.rateMinutes)
                : tr("Last %n minute(s): <b>%1</b> published per minute · duplicate hit rate %2", nullptr,
                    overview.rateMinutes))
                    .arg(QLocale().toString(overview.publishedPerMinute, 'f', 1), hitRate);
    }
    m_rates->setText(rates + QStringLiteral("<br>")
        + tr("Last hour: %1 published · %2 failed attempts · %3 requests")
              .arg(QLocale().toString(overview.lastHourTotals.published),
                  QLocale().toString(overview.lastHourTotals.failedAttempts),
                  QLocale().toString(overview.lastHourTotals.requests)));
    m_oldest->setToolTip(tr("Warning level: %1 s (Metrics → Warning levels…)").arg(thresholds.oldestPendingAgeSeconds));
    m_rates->setToolTip(tr("Warning level for the duplicate hit rate: %1 %").arg(thresholds.duplicateHitRatePercent));
    presentExplanations(overview);
    presentFleet(overview, qint64(thresholds.oldestPendingAgeSeconds * 1000.0));
    m_readAt = overview.serverNow;
    m_sinceRead.start();
    m_clock->start();
    m_staleReason.clear();
    markFigures();
}

void OverviewPage::presentFleet(const OutboxOverview& overview, qint64 nothingPublishingAfterMs)
{
    m_pauseModel->setRows(overview.pauses);
    m_pausesBox->setVisible(!overview.pauses.isEmpty());
    // As many rows as there are pauses, up to five; more scroll.
    fitRows(m_pauseTable, qBound(1, int(overview.pauses.size()), 5));
    // Each change of a relay's state once, by the read that found it: the incident's timeline in the message log.
    if (m_fleetKnown) {
        for (const RelayNode& node : overview.relays) {
            const int row = m_relayModel->rowOfId(node.id);
            const QString change
                = RelayFleetModel::stateChange(row < 0 ? nullptr : &m_relayModel->rows().at(row), node);
            if (!change.isEmpty())
                emit relayChanged(change);
        }
    }
    m_fleetKnown = true;
    m_relayModel->setRows(overview.relays, overview.serverNow);
    QMap<RelayState, int> states;
    for (const RelayNode& node : overview.relays)
        ++states[node.state];
    QString fleet = overview.relays.isEmpty() ? tr("<b>Relays</b>: none has registered yet.")
                                              : tr("<b>Relays</b>: %n alive", nullptr, states.value(RelayState::Alive));
    const auto alarm = [&fleet](const QString& text) {
        fleet += QStringLiteral(" · <span style=\"color:#dc322f\"><b>%1</b></span>").arg(text);
    };
    if (const int paused = states.value(RelayState::Paused)) {
        fleet += QStringLiteral(" · <span style=\"color:#b58900\"><b>%1</b></span>")
                     .arg(tr("%n paused", nullptr, paused));
    }
    if (const int failing = states.value(RelayState::Failing))
        alarm(tr("%n failing", nullptr, failing));
    if (const int gone = states.value(RelayState::Gone))
        alarm(tr("%n gone (process died)", nullptr, gone));
    if (const int stale = states.value(RelayState::Stale))
        alarm(tr("%n stale (presumed dead)", nullptr, stale));
    m_fleetSummary = fleet;

    const bool nothingPublishing = overview.nothingPublishing(nothingPublishingAfterMs);
    m_nothingPublishing->setVisible(nothingPublishing);
    if (!nothingPublishing)
        return;
    const QString waited = TimeFormatter::duration(*overview.oldestUnpublishedAgeMs);
    const QString facts = overview.lastPublishedAgeMs
        ? tr("⚠ Nothing is publishing: rows have waited %1 and nothing was published for %2.")
              .arg(waited, TimeFormatter::duration(*overview.lastPublishedAgeMs))
        : tr("⚠ Nothing is publishing: rows have waited %1 and nothing was ever published.").arg(waited);
    QString why;
    switch (overview.fleetCondition()) {
    case FleetCondition::NoneRunning:
        why = tr("No relay is running: start one (outboxctl relay) or look at why the relays below stopped.");
        break;
    case FleetCondition::AllFailing:
        why = tr("Every relay is failing: %1.")
                  .arg(RelayFleetModel::failingText(*overview.longestFailing(), overview.serverNow));
        break;
    case FleetCondition::AllPaused:
        why = tr("Every running relay is paused: resume one (the pauses are listed above).");
        break;
    case FleetCondition::Publishing:
        why = tr("%n relay(s) alive but none published in that time: the oldest rows below say why they wait.", nullptr,
            states.value(RelayState::Alive));
        break;
    }
    m_nothingPublishing->setText(facts + QLatin1Char(' ') + why);
}

bool OverviewPage::warnsNothingPublishing() const
{
    return !m_nothingPublishing->isHidden();
}

QString OverviewPage::figure(const QString& name) const
{
    const QToolButton* tile = m_tiles.value(name);
    return tile ? tile->text().section(QLatin1Char('\n'), 0, 0) : QString();
}
