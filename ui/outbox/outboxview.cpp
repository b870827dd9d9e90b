// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxview.h"

#include "common/listviewsetup.h"
#include "common/operatoractiondialog.h"
#include "common/statusfilterbutton.h"
#include "common/timerangefilter.h"
#include "core/bulkactionrunner.h"
#include "core/databaseclient.h"
#include "core/timeformatter.h"
#include "export/exporttables.h"
#include "operations/outboxoperator.h"
#include "operations/requeuecandidates.h"
#include "outbox/editcontentdialog.h"
#include "outbox/outboxdetailpane.h"
#include "outbox/outboxtablemodel.h"
#include "outbox/requeuefollowup.h"
#include "outbox/stuckrowclassifier.h"

#include <QAction>
#include <QCheckBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <stdexcept>

namespace {

constexpr int FrozenSetCap = 100'000;

} // namespace

OutboxView::OutboxView(DatabaseClient& reads, DatabaseClient& actions, QWidget* parent)
    : QWidget(parent)
    , m_actions(actions)
    , m_model(new OutboxTableModel(reads, this))
    , m_table(new QTableView(this))
    , m_detail(new OutboxDetailPane(reads, this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_statuses(new StatusFilterButton(OutboxStatusNames.names(), this))
    , m_eventType(ListViewSetup::filterEdit(tr("Event type"), this))
    , m_aggregateId(ListViewSetup::filterEdit(tr("Aggregate id"), this))
    , m_errorContains(ListViewSetup::filterEdit(tr("Error contains"), this))
    , m_dedupeKey(ListViewSetup::filterEdit(tr("Message id (dedupe key), exactly"), this))
    , m_payloadContains(ListViewSetup::filterEdit(tr("Payload contains (within the created range)"), this))
    , m_created(new TimeRangeFilter(tr("Created from"), this))
    , m_stuckOnly(new QCheckBox(tr("Stuck only"), this))
    , m_blockingOnly(new QCheckBox(tr("Blocking keys only"), this))
    , m_group(new QToolButton(this))
    , m_empty(new QLabel(m_table->viewport()))
    , m_followUpLimitMs(RequeueFollowUp::DefaultLimitMs)
    , m_filterDelay(ListViewSetup::filterDelay(this))
    , m_requeueSelected(new QAction(tr("&Retry selected"), this))
    , m_requeueMatching(new QAction(tr("Retry all matchi&ng…"), this))
    , m_releaseSelected(new QAction(tr("Relea&se lease"), this))
    , m_discardSelected(new QAction(tr("Dis&card selected"), this))
    , m_editSelected(new QAction(tr("&Edit and retry…"), this))
{
    auto* filterBar = new QWidget(this);
    buildFilterBar(filterBar);

    ListViewSetup::setUpTable(m_table, m_model);
    ListViewSetup::keepSelectionAndPlace(m_table, m_model);
    m_table->setColumnWidth(OutboxTableModel::Id, 70);
    m_table->setColumnWidth(OutboxTableModel::EventType, 130);
    m_table->setColumnWidth(OutboxTableModel::Aggregate, 110);
    m_table->setColumnWidth(OutboxTableModel::Status, 120);
    m_table->setColumnWidth(OutboxTableModel::Attempts, 70);
    m_table->setColumnWidth(OutboxTableModel::LastError, 320);
    ListViewSetup::fitInstantColumns(m_table,
        { OutboxTableModel::NextAttempt, OutboxTableModel::LeaseExpires, OutboxTableModel::Created,
            OutboxTableModel::Published });
    m_copy = ListViewSetup::addCopyAsJsonAction(m_table, [this](const QList<int>& rows) {
        QList<OutboxRowSummary> selected;
        for (const int row : rows)
            selected.append(m_model->rowAt(row));
        return ExportTables::outbox(selected).jsonArray();
    });

    auto* actionBar = new QHBoxLayout;
    for (QAction* action :
        { m_requeueSelected, m_editSelected, m_discardSelected, m_releaseSelected, m_requeueMatching }) {
        // The button keeps the action's mnemonic (Alt+E: Edit and retry…), which the icon text made of the text
        // would drop.
        action->setIconText(action->text());
        auto* button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        actionBar->addWidget(button);
    }
    ListViewSetup::layOut(this, filterBar, m_splitter, m_table, m_detail, actionBar);

    m_requeueSelected->setToolTip(tr("Move the selected failed, dead or discarded rows back to pending (Ctrl+R)"));
    m_requeueSelected->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_releaseSelected->setToolTip(tr("Put selected in-flight rows whose lease expired back to pending"));
    m_discardSelected->setToolTip(tr("Give up on the selected failed or dead rows: they are not published, the later "
                                     "rows of their ordering keys flow again, and Retry brings them back"));
    m_editSelected->setToolTip(tr("Change the payload or headers of the selected failed, dead or discarded row, see "
                                  "the difference, and requeue it (both versions go into the audit log)"));
    m_requeueMatching->setToolTip(tr("Requeue every failed or dead row matching the filter, not just the loaded ones "
                                     "(discarded ones too if the status filter selects them)"));
    connect(m_requeueSelected, &QAction::triggered, this, &OutboxView::requeueSelected);
    connect(m_requeueMatching, &QAction::triggered, this, &OutboxView::requeueMatching);
    connect(m_releaseSelected, &QAction::triggered, this, &OutboxView::releaseSelected);
    connect(m_discardSelected, &QAction::triggered, this, &OutboxView::discardSelected);
    connect(m_editSelected, &QAction::triggered, this, &OutboxView::editSelected);
    connect(m_table, &QWidget::customContextMenuRequested, this, &OutboxView::showContextMenu);
    // The row another waits behind: the list narrows to it, selected, so Retry and Discard act on it at once.
    connect(m_detail, &OutboxDetailPane::rowLinkActivated, this, [this](qint64 id) {
        OutboxFilter row;
        row.ids = { id };
        showFilter(row);
        m_selectWhenLoaded = id;
        m_detail->showRow(id);
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &OutboxView::selectWhenLoaded);
    connect(m_model, &QAbstractItemModel::modelReset, this, &OutboxView::selectWhenLoaded);

    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &OutboxView::updateActions);
    ListViewSetup::followSelection(
        m_table, OutboxTableModel::IdRole, [this] { return m_detail->shownRow(); },
        [this](qint64 id) { m_detail->showRow(id); });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &OutboxView::updateActions);
    connect(m_model, &QAbstractItemModel::modelReset, this, &OutboxView::updateActions);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &OutboxView::updateActions);
    connect(m_model, &PagedListModelBase::loadingChanged, this, &OutboxView::updateActions);
    connect(m_model, &PagedListModelBase::loadFailed, this, &OutboxView::loadFailed);
    connect(m_filterDelay, &QTimer::timeout, this, &OutboxView::applyFilterControls);

    // An empty list says why, instead of a blank table that looks like a failure to load.
    m_empty->setObjectName(QStringLiteral("emptyState"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setTextFormat(Qt::PlainText);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setMargin(24);
    m_table->viewport()->installEventFilter(this);
    connect(m_model, &QAbstractItemModel::modelReset, this, &OutboxView::updateEmptyState);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &OutboxView::updateEmptyState);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &OutboxView::updateEmptyState);
    connect(m_model, &PagedListModelBase::loadingChanged, this, &OutboxView::updateEmptyState);
    connect(m_model, &PagedListModelBase::loadFailed, this, &OutboxView::updateEmptyState);
    updateEmptyState();
    updateActions();
}

QString OutboxView::emptyText() const
{
    if (m_model->rowCount() > 0 || m_model->isLoading())
        return {};
    if (!m_model->failure().isEmpty())
        return tr("The outbox could not be read: %1").arg(m_model->failure());
    if (m_model->filter() == OutboxFilter {})
        return tr("The outbox is empty.");
    if (!m_lastActed.isEmpty()) {
        return tr("No rows match this filter. The %n row(s) of the last action are no longer where the filter looks "
                  "(requeued rows are pending, then published or failed again): the Messages panel says how they "
                  "fared and opens them.",
            nullptr, int(m_lastActed.size()));
    }
    return tr("No rows match this filter. “Show every row” (✕ beside the filters) drops it.");
}

void OutboxView::updateEmptyState()
{
    const QString text = emptyText();
    m_empty->setText(text);
    m_empty->setVisible(!text.isEmpty());
    m_empty->setGeometry(m_table->viewport()->rect());
}

bool OutboxView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        m_empty->setGeometry(m_table->viewport()->rect());
    return QWidget::eventFilter(watched, event);
}

void OutboxView::buildFilterBar(QWidget* bar)
{
    // Two rows: what narrows the list, then what finds one message by what it carries.
    auto* rows = new QVBoxLayout(bar);
    rows->setContentsMargins(0, 0, 0, 0);
    auto* layout = new QHBoxLayout;
    rows->addLayout(layout);
    auto* find = new QHBoxLayout;
    rows->addLayout(find);
    m_dedupeKey->setToolTip(tr("The row whose dedupe key is exactly this: the message id the broker and the consumers "
                               "see"));
    m_payloadContains->setToolTip(tr("Rows whose payload contains this text (case-insensitive). No index serves it, so "
                                     "it reads the rows created in the range beside it: typing here sets the range to "
                                     "the last 24 hours if none is set. Cancel stops a long search."));
    find->addWidget(m_dedupeKey, 1);
    find->addWidget(m_payloadContains, 2);
    layout->addWidget(m_statuses);
    layout->addWidget(m_eventType, 1);
    layout->addWidget(m_aggregateId, 1);
    layout->addWidget(m_errorContains, 2);
    layout->addWidget(m_created);
    layout->addWidget(m_stuckOnly);
    m_blockingOnly->setToolTip(tr("Only dead rows with an ordering key: each holds back every later row of its key "
                                  "until it is retried or discarded"));
    layout->addWidget(m_blockingOnly);
    // A failure group (from the Failures tab) narrows the list until the operator drops it. On the second row, which
    // has room: on the first it made the bar wider than a laptop's screen.
    m_group->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_group->hide();
    connect(m_group, &QToolButton::clicked, this, [this] {
        setNarrowing({}, {});
        m_filterDelay->start();
    });
    find->insertWidget(0, m_group);
    ListViewSetup::addClearButton(layout, tr("Show every row"), [this] { showFilter(OutboxFilter {}); });

    const auto later = [this] { m_filterDelay->start(); };
    connect(m_statuses, &StatusFilterButton::statusesChanged, this, later);
    for (QLineEdit* edit : { m_eventType, m_aggregateId, m_errorContains, m_dedupeKey, m_payloadContains })
        connect(edit, &QLineEdit::textChanged, this, later);
    // A payload search reads a created range: give it one the operator sees and can widen.
    connect(m_payloadContains, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (!text.trimmed().isEmpty() && !m_created->from().isValid())
            m_created->setRange(QDateTime::currentDateTimeUtc().addDays(-1), m_created->to());
    });
    connect(m_created, &TimeRangeFilter::rangeChanged, this, later);
    connect(m_stuckOnly, &QCheckBox::toggled, this, later);
    connect(m_blockingOnly, &QCheckBox::toggled, this, later);
}

OutboxFilter OutboxView::filterFromControls() const
{
    OutboxFilter filter;
    filter.statuses = OutboxStatusNames.valuesNamed(m_statuses->checkedStatuses());
    filter.eventType = m_eventType->text().trimmed();
    filter.aggregateId = m_aggregateId->text().trimmed();
    filter.errorContains = m_errorContains->text().trimmed();
    filter.dedupeKey = m_dedupeKey->text().trimmed();
    filter.payloadContains = m_payloadContains->text().trimmed();
    filter.createdFrom = m_created->from();
    filter.createdTo = m_created->to();
    filter.stuckOnly = m_stuckOnly->isChecked();
    filter.stuckThresholdMs = m_stuckThresholdMs;
    filter.blockingOnly = m_blockingOnly->isChecked();
    filter.errorSignature = m_errorSignature;
    filter.ids = m_ids;
    return filter;
}

void OutboxView::setNarrowing(const QString& errorSignature, const QList<qint64>& ids)
{
    m_errorSignature = errorSignature;
    m_ids = ids;
    QStringList parts;
    if (!errorSignature.isEmpty())
        parts.append(
            tr("Cause: %1").arg(QFontMetrics(m_group->font()).elidedText(errorSignature, Qt::ElideRight, 260)));
    if (!ids.isEmpty())
        parts.append(tr("%n chosen row(s)", nullptr, int(ids.size())));
    m_group->setText(parts.join(QStringLiteral(" · ")) + QStringLiteral(" ✕"));
    m_group->setToolTip(tr("Only the rows of this failure group or audited action; click to drop it"));
    m_group->setVisible(!parts.isEmpty());
}

void OutboxView::applyFilterControls()
{
    const OutboxFilter filter = filterFromControls();
    if (ListViewSetup::alreadyShows(*m_model, filter))
        return;
    m_lastActed.clear(); // another filter: the last action no longer explains an empty list
    m_detail->showRow(0);
    m_model->setFilter(filter);
}

void OutboxView::showFilter(const OutboxFilter& filter)
{
    const QSignalBlocker blockers[] = { QSignalBlocker(m_statuses), QSignalBlocker(m_eventType),
        QSignalBlocker(m_aggregateId), QSignalBlocker(m_errorContains), QSignalBlocker(m_dedupeKey),
        QSignalBlocker(m_payloadContains), QSignalBlocker(m_stuckOnly), QSignalBlocker(m_blockingOnly) };
    m_statuses->setCheckedStatuses(OutboxStatusNames.names(filter.statuses));
    m_eventType->setText(filter.eventType);
    m_aggregateId->setText(filter.aggregateId);
    m_errorContains->setText(filter.errorContains);
    m_dedupeKey->setText(filter.dedupeKey);
    m_payloadContains->setText(filter.payloadContains);
    m_created->setRange(filter.createdFrom, filter.createdTo);
    m_stuckOnly->setChecked(filter.stuckOnly);
    m_blockingOnly->setChecked(filter.blockingOnly);
    setNarrowing(filter.errorSignature, filter.ids);
    m_lastActed.clear();
    m_filterDelay->stop();
    m_detail->showRow(0);
    m_model->setFilter(filterFromControls());
}

const OutboxFilter& OutboxView::filter() const
{
    return m_model->filter();
}

void OutboxView::setStuckThresholdMs(qint64 ms)
{
    m_stuckThresholdMs = ms;
}

void OutboxView::refresh()
{
    ListViewSetup::refresh(m_table, m_model);
    if (m_detail->shownRow())
        m_detail->showRow(m_detail->shownRow());
}

void OutboxView::focusFilter()
{
    m_errorContains->setFocus(Qt::ShortcutFocusReason);
    m_errorContains->selectAll();
}

void OutboxView::setShown(bool shown)
{
    m_shown = shown;
    updateActions();
}

void OutboxView::setSessionInfo(const SessionInfo& info)
{
    m_session = info;
    updateActions();
}

void OutboxView::updateActions()
{
    int retryable = 0;
    int discardable = 0;
    int releasable = 0;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        const int kind = index.data(OutboxTableModel::StuckRole).toInt();
        const OutboxStatus status = m_model->rowAt(index.row()).status;
        retryable += isRetryable(status) ? 1 : 0;
        discardable += isFailure(status) ? 1 : 0;
        releasable += kind == int(StuckRowClassifier::Kind::LeaseExpired) ? 1 : 0;
    }
    const QString readOnly = m_session.readOnlyReason();
    if (!m_shown) {
        for (QAction* action :
            { m_requeueSelected, m_editSelected, m_discardSelected, m_releaseSelected, m_requeueMatching })
            action->setEnabled(false);
        return;
    }
    m_requeueSelected->setEnabled(readOnly.isEmpty() && retryable > 0);
    m_discardSelected->setEnabled(readOnly.isEmpty() && discardable > 0);
    m_releaseSelected->setEnabled(readOnly.isEmpty() && releasable > 0);
    m_requeueMatching->setEnabled(readOnly.isEmpty() && m_model->rowCount() > 0);
    // One row at a time: an edit is made for one message.
    m_editSelected->setEnabled(
        readOnly.isEmpty() && retryable == 1 && m_table->selectionModel()->selectedRows().size() == 1);
    for (QAction* action :
        { m_requeueSelected, m_editSelected, m_discardSelected, m_releaseSelected, m_requeueMatching }) {
        // The action's own tooltip comes back when a later connection may act again.
        if (!action->property("ownToolTip").isValid())
            action->setProperty("ownToolTip", action->toolTip());
        action->setToolTip(readOnly.isEmpty() ? action->property("ownToolTip").toString() : readOnly);
    }
}

void OutboxView::selectWhenLoaded()
{
    if (!m_selectWhenLoaded)
        return;
    const int row = m_model->rowOfId(m_selectWhenLoaded);
    if (row < 0)
        return;
    m_selectWhenLoaded = 0;
    m_table->selectRow(row);
}

QList<qint64> OutboxView::selectedWhere(bool (*holds)(OutboxStatus)) const
{
    QList<qint64> ids;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        if (holds(m_model->rowAt(index.row()).status))
            ids.append(m_model->rowAt(index.row()).id);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

void OutboxView::requeueSelected()
{
    const QList<qint64> ids = selectedWhere(isRetryable);
    if (ids.isEmpty())
        return;
    const bool anyDiscarded
        = !selectedWhere([](OutboxStatus status) { return status == OutboxStatus::Discarded; }).isEmpty();
    // When they last failed is read first, on the action worker, for the confirmation.
    m_requeueSelected->setEnabled(false);
    m_actions.run<RequeueCandidates>(
        this, [ids](DbSession& session) { return RequeueCandidates::of(session, ids); },
        [this, anyDiscarded](const RequeueCandidates& candidates) {
            updateActions();
            confirmAndRun(RowAction::Requeue, candidates.ids,
                tr("Each row goes back to pending only if it is still failed, dead or discarded when the action "
                   "runs; any other row is left alone and reported.")
                    + (anyDiscarded ? retryOfDiscardedConsequence() : QString()),
                lastFailureNotice(candidates, false), candidates.failedWithin(RecentFailureMs));
        },
        [this](const OutboxError& error) {
            updateActions();
            QMessageBox::warning(this, tr("Cannot requeue"), error.message());
        });
}

void OutboxView::discardSelected()
{
    confirmAndRun(RowAction::Discard, selectedWhere(isFailure),
        tr("Each row is discarded only if it is still failed or dead when the action runs; any other row is left "
           "alone and reported.")
            + discardConsequence(),
        discardWarning(), true);
}

void OutboxView::releaseSelected()
{
    QList<qint64> ids;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        if (index.data(OutboxTableModel::StuckRole).toInt() == int(StuckRowClassifier::Kind::LeaseExpired))
            ids.append(m_model->rowAt(index.row()).id);
    }
    std::sort(ids.begin(), ids.end());
    confirmAndRun(RowAction::ReleaseLease, ids,
        tr("Each row goes back to pending only if it is still in flight with an expired lease when the action "
           "runs."));
}

void OutboxView::editSelected()
{
    const QList<qint64> ids = selectedWhere(isRetryable);
    if (ids.size() != 1)
        return;
    const qint64 id = ids.first();
    m_editSelected->setEnabled(false);
    m_actions.run<ContentEditPreview>(
        this, [id](DbSession& session) { return OutboxOperator(session).previewEdit(id, {}, {}); },
        [this](const ContentEditPreview& row) {
            updateActions();
            if (!row.editable()) {
                QMessageBox::information(this, tr("Cannot edit"),
                    tr("Row %1 is %2 by now: only failed, dead or discarded rows can be edited.")
                        .arg(row.id)
                        .arg(OutboxStatusNames.name(row.status)));
                refresh();
                return;
            }
            EditContentDialog dialog(m_actions, row, this);
            if (dialog.exec() != QDialog::Accepted)
                return;
            const ContentEditPreview edit = dialog.confirmed();
            const QString reason = dialog.reason();
            m_actions.run<OperatorActionReport>(
                this,
                [edit, reason](DbSession& session) { return OutboxOperator(session).editAndRequeue(edit, reason); },
                [this](const OperatorActionReport& report) { reportResult(RowAction::Edit, report); },
                [this](const OutboxError& error) {
                    QMessageBox::warning(this, tr("%1 failed").arg(verbOf(RowAction::Edit)), error.message());
                    refresh();
                });
        },
        [this](const OutboxError& error) {
            updateActions();
            QMessageBox::warning(this, tr("Cannot edit"), error.message());
        });
}

void OutboxView::requeueMatching()
{
    actOnMatching(RowAction::Requeue);
}

void OutboxView::discardMatching()
{
    actOnMatching(RowAction::Discard);
}

void OutboxView::actOnMatching(RowAction action)
{
    // Freeze the set first, on the action worker: what the dialog shows is exactly what will be acted on.
    const OutboxFilter shown = m_model->filter();
    OutboxFilter filter = shown;
    const QList<OutboxStatus> statuses = OutboxOperator::statusesToActOn(
        filter.statuses, action == RowAction::Requeue ? retryableStatuses() : failureStatuses());
    if (statuses.isEmpty()) {
        QMessageBox::information(this, tr("Nothing to act on"),
            action == RowAction::Requeue ? tr("The filter shows no failed, dead or discarded rows.")
                                         : tr("The filter shows no failed or dead rows."));
        return;
    }
    filter.statuses = statuses;
    m_requeueMatching->setEnabled(false);
    m_actions.run<RequeueCandidates>(
        this, [filter](DbSession& session) { return RequeueCandidates::freeze(session, filter, FrozenSetCap); },
        [this, shown, action, statuses](const RequeueCandidates& candidates) {
            updateActions();
            const QList<qint64>& ids = candidates.ids;
            if (ids.isEmpty()) {
                QMessageBox::information(this, tr("Nothing to act on"), tr("No row to act on matches the filter."));
                return;
            }
            // The list behind the dialog shows exactly the frozen rows, whatever state they reach meanwhile, so
            // its count and the dialog's agree; after the action it shows how they fare.
            OutboxFilter frozen;
            frozen.ids = ids;
            showFilter(frozen);
            QString guard = tr("These are all the rows matching the filter right now that the action applies to; the "
                               "list shows exactly them. Rows that change state before the action runs are left "
                               "alone and reported; rows that fail later are not touched.");
            if (ids.size() == FrozenSetCap)
                guard += tr(" The set is capped at %1 rows; run the action again for the rest.").arg(FrozenSetCap);
            const bool discard = action == RowAction::Discard;
            if (discard)
                guard += discardConsequence();
            else if (statuses.contains(OutboxStatus::Discarded))
                guard += retryOfDiscardedConsequence();
            const QString notice
                = discard ? discardWarning() : lastFailureNotice(candidates, !shown.errorSignature.isEmpty());
            if (!confirmAndRun(action, ids, guard, notice, discard || candidates.failedWithin(RecentFailureMs),
                    shown.errorSignature))
                showFilter(shown);
        },
        [this](const OutboxError& error) {
            updateActions();
            QMessageBox::warning(this, tr("Cannot select rows"), error.message());
        });
}

QString OutboxView::lastFailureNotice(const RequeueCandidates& candidates, bool ofGroup)
{
    const qint64 since = candidates.sinceLastFailureMs();
    if (since < 0)
        return {};
    const QString when = ofGroup
        ? tr("This cause last failed a row %1 ago (%2).")
              .arg(TimeFormatter::duration(since), TimeFormatter::display(candidates.lastFailure))
        : tr("These rows last failed %1 ago (%2).")
              .arg(TimeFormatter::duration(since), TimeFormatter::display(candidates.lastFailure));
    if (!candidates.failedWithin(RecentFailureMs))
        return when;
    return when
        + tr(" That is within the last minute: the cause may still be present, and the rows may only fail again. "
             "Fix it first, or retry a few rows to see.");
}

QString OutboxView::discardConsequence()
{
    return tr(" A discarded row is not published: its consumers do not see that event. The later rows of its "
              "ordering key are published next, in order. Retry brings a discarded row back.");
}

QString OutboxView::discardWarning()
{
    return tr("Discard only events the consumers can do without; to have them delivered, fix their cause and retry "
              "them.");
}

QString OutboxView::retryOfDiscardedConsequence()
{
    return tr(" A discarded row that is retried is published after the later rows of its ordering key that went on "
              "meanwhile.");
}

QString OutboxView::verbOf(RowAction action) const
{
    switch (action) {
    case RowAction::Requeue:
        return tr("Requeue");
    case RowAction::Discard:
        return tr("Discard");
    case RowAction::ReleaseLease:
        return tr("Release the lease of");
    case RowAction::Edit:
        return tr("Edit and retry");
    }
    return {};
}

bool OutboxView::confirmAndRun(RowAction action, const QList<qint64>& ids, const QString& guard, const QString& notice,
    bool noticeIsWarning, const QString& group)
{
    if (ids.isEmpty())
        return false;
    const QString verb = verbOf(action);
    OperatorActionDialog dialog(verb, ids, guard, this);
    dialog.setNotice(notice, noticeIsWarning);
    if (action == RowAction::Requeue)
        dialog.offerLater();
    if (dialog.exec() != QDialog::Accepted)
        return false;
    const QDateTime dueAt = dialog.dueAt();
    const BulkActionRunner::Action run = [action, dueAt, group](OutboxOperator& op, const QList<qint64>& ids,
                                             const QString& reason, const OutboxOperator::Progress& progress) {
        op.setSelectedGroup(group);
        switch (action) {
        case RowAction::Discard:
            return op.discard(ids, reason, OutboxOperator::DefaultBatchSize, progress);
        case RowAction::ReleaseLease:
            return op.releaseLeases(ids, reason, OutboxOperator::DefaultBatchSize, progress);
        case RowAction::Requeue:
            return op.requeue(ids, reason, dueAt, OutboxOperator::DefaultBatchSize, progress);
        case RowAction::Edit:
            break;
        }
        // An edit is made for one message with its own dialog (editSelected()), never confirmed here.
        throw std::logic_error("edit and retry is not a bulk action");
    };
    BulkActionRunner* runner = BulkActionRunner::start(m_actions, this, verb, ids, dialog.reason(), run);
    connect(runner, &BulkActionRunner::finished, this,
        [this, action, dueAt](const OperatorActionReport& report) { reportResult(action, report, dueAt); });
    connect(runner, &BulkActionRunner::failed, this, [this, verb](const QString& message) {
        QMessageBox::warning(this, tr("%1 failed").arg(verb), message);
        refresh();
    });
    return true;
}

void OutboxView::reportResult(RowAction action, const OperatorActionReport& report, const QDateTime& dueAt)
{
    const QString verb = verbOf(action);
    QString summary = tr("%1: %n row(s) changed", nullptr, int(report.changed.size())).arg(verb);
    if (dueAt.isValid())
        summary += tr(", due at %1").arg(TimeFormatter::display(dueAt));
    if (!report.leftAlone.isEmpty()) {
        summary += action == RowAction::Edit
            ? tr(", not edited because its state or content changed after it was opened; nothing was written")
            : tr(", %n left alone because their state had changed", nullptr, int(report.leftAlone.size()));
    }
    if (report.cancelled)
        summary += tr(", cancelled before the remaining batches");
    QList<qint64> acted = report.changed + report.leftAlone;
    std::sort(acted.begin(), acted.end());
    m_lastActed = report.changed;
    emit actionFinished(summary, acted);
    if (!report.changed.isEmpty() && action != RowAction::Discard && !dueAt.isValid()) {
        // The rows are pending now; what the relay makes of them is the real outcome. (Discarded rows stay as
        // they are, and rows retried later wait for their time: there is nothing to follow yet.)
        const QString what = action == RowAction::ReleaseLease
            ? tr("Released the leases of %n row(s)", nullptr, int(report.changed.size()))
            : action == RowAction::Edit ? tr("Edited and requeued %n row(s)", nullptr, int(report.changed.size()))
                                        : tr("Requeued %n row(s)", nullptr, int(report.changed.size()));
        RequeueFollowUp* followUp = RequeueFollowUp::start(m_actions, this, what, report.changed, m_followUpLimitMs);
        connect(followUp, &RequeueFollowUp::finished, this,
            [this](const QString& message, const QList<qint64>& rows) { emit outcomeReported(message, rows); });
    }
    if (!report.leftAlone.isEmpty()) {
        // Not modal: the operator may keep working while reading which rows were left alone.
        QStringList ids;
        for (qint64 id : report.leftAlone)
            ids.append(QString::number(id));
        auto* box = new QMessageBox(QMessageBox::Information, verb, summary + QLatin1Char('.'), QMessageBox::Ok, this);
        box->setDetailedText(tr("Ids left alone: %1").arg(ids.join(QStringLiteral(", "))));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    refresh();
    updateEmptyState();
}

void OutboxView::showContextMenu(const QPoint& position)
{
    const QModelIndex index = m_table->indexAt(position);
    QMenu menu(this);
    menu.addAction(m_requeueSelected);
    menu.addAction(m_editSelected);
    menu.addAction(m_discardSelected);
    menu.addAction(m_releaseSelected);
    menu.addAction(m_copy);
    if (index.isValid()) {
        const OutboxRowSummary row = m_model->rowAt(index.row());
        menu.addSeparator();
        ListViewSetup::addNarrowingAction(menu, tr("Show only event type “%1”").arg(row.eventType), this,
            [row](OutboxFilter& filter) { filter.eventType = row.eventType; });
        ListViewSetup::addNarrowingAction(menu, tr("Show only aggregate “%1”").arg(row.aggregateId), this,
            [row](OutboxFilter& filter) { filter.aggregateId = row.aggregateId; });
    }
    menu.exec(m_table->viewport()->mapToGlobal(position));
}

void OutboxView::saveState(QSettings& settings) const
{
    ListViewSetup::saveState(settings, QStringLiteral("outbox"), m_table, m_splitter);
}

void OutboxView::restoreState(const QSettings& settings)
{
    ListViewSetup::restoreState(settings, QStringLiteral("outbox"), m_table, m_splitter);
}
