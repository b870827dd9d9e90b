// SPDX-License-Identifier: GPL-3.0-or-later
#include "keys/keysview.h"

#include "export/exporttables.h"

#include "common/listviewsetup.h"
#include "common/statusfilterbutton.h"
#include "common/timerangefilter.h"
#include "core/databaseclient.h"
#include "keys/keydetailpane.h"
#include "keys/keystablemodel.h"
#include "operations/keydossier.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QTimer>

KeysView::KeysView(DatabaseClient& reads, QWidget* parent)
    : QWidget(parent)
    , m_model(new KeysTableModel(reads, this))
    , m_table(new QTableView(this))
    , m_detail(new KeyDetailPane(reads, this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_keyPrefix(ListViewSetup::filterEdit(tr("Key starts with"), this))
    , m_statuses(new StatusFilterButton(KeyStatusNames.names(), this))
    , m_created(new TimeRangeFilter(tr("Created from"), this))
    , m_filterDelay(ListViewSetup::filterDelay(this))
    , m_reads(reads)
    , m_showOutboxRows(new QAction(tr("Show its outbox rows"), this))
{
    auto* filterBar = new QWidget(this);
    buildFilterBar(filterBar);

    ListViewSetup::setUpTable(m_table, m_model);
    ListViewSetup::keepSelectionAndPlace(m_table, m_model);
    m_table->setColumnWidth(KeysTableModel::Scope, 90);
    m_table->setColumnWidth(KeysTableModel::Key, 170);
    m_table->setColumnWidth(KeysTableModel::Status, 125);
    m_table->setColumnWidth(KeysTableModel::Fingerprint, 115);
    m_table->setColumnWidth(KeysTableModel::Replays, 60);
    ListViewSetup::fitInstantColumns(
        m_table, { KeysTableModel::LastReplay, KeysTableModel::Created, KeysTableModel::Expires });
    m_table->setColumnWidth(KeysTableModel::Order, 60);
    m_copy = ListViewSetup::addCopyAsJsonAction(m_table, [this](const QList<int>& rows) {
        QList<IdempotencyRecord> selected;
        for (const int row : rows)
            selected.append(m_model->rowAt(row));
        return ExportTables::keys(selected).jsonArray();
    });

    ListViewSetup::layOut(this, filterBar, m_splitter, m_table, m_detail, new QHBoxLayout);

    connect(m_table, &QWidget::customContextMenuRequested, this, &KeysView::showContextMenu);
    ListViewSetup::followSelection(
        m_table, KeysTableModel::IdRole, [this] { return m_detail->shownKey(); },
        [this](qint64 id) { m_detail->showKey(id); });
    connect(m_model, &PagedListModelBase::loadFailed, this, &KeysView::loadFailed);
    connect(m_filterDelay, &QTimer::timeout, this, &KeysView::applyFilterControls);

    m_showOutboxRows->setToolTip(tr("Open in the Outbox tab the rows the selected key's request wrote"));
    connect(m_showOutboxRows, &QAction::triggered, this, &KeysView::showOutboxRowsOfSelectedKey);
    connect(m_detail, &KeyDetailPane::showOutboxRowsRequested, m_showOutboxRows, &QAction::trigger);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &KeysView::updateShowOutboxRows);
    connect(m_model, &QAbstractItemModel::modelReset, this, &KeysView::updateShowOutboxRows);
    updateShowOutboxRows();
}

void KeysView::updateShowOutboxRows()
{
    const int row = m_model->rowOfId(m_detail->shownKey());
    m_showOutboxRows->setEnabled(row >= 0 && m_model->rowAt(row).orderId);
}

void KeysView::showOutboxRowsOfSelectedKey()
{
    const int row = m_model->rowOfId(m_detail->shownKey());
    if (row < 0)
        return;
    const IdempotencyRecord key = m_model->rowAt(row);
    m_outboxRowsRequests.next();
    m_reads.runLatest<QList<qint64>>(
        m_outboxRowsRequests, this, [id = key.id](DbSession& session) { return KeyDossier::requestRows(session, id); },
        [this, key](const QList<qint64>& ids) {
            // An empty list of ids would open every row.
            if (ids.isEmpty())
                emit loadFailed(tr("The outbox rows key “%1” wrote are no longer there (purged)").arg(key.key));
            else
                emit showOutboxRows(ids);
        },
        [this](const OutboxError& error) { emit loadFailed(error.message()); });
}

void KeysView::buildFilterBar(QWidget* bar)
{
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_statuses);
    layout->addWidget(m_keyPrefix, 1);
    layout->addWidget(m_created);
    ListViewSetup::addClearButton(layout, tr("Show every key"), [this] { showFilter(KeyFilter {}); });

    m_keyPrefix->setToolTip(tr("Keys beginning with this text, exactly as typed (% and _ are not wildcards)"));
    const auto later = [this] { m_filterDelay->start(); };
    connect(m_statuses, &StatusFilterButton::statusesChanged, this, later);
    connect(m_keyPrefix, &QLineEdit::textChanged, this, later);
    connect(m_created, &TimeRangeFilter::rangeChanged, this, later);
}

KeyFilter KeysView::filterFromControls() const
{
    KeyFilter filter;
    // Not trimmed: a key may begin or end with a space, and the prefix matches literally.
    filter.keyPrefix = m_keyPrefix->text();
    filter.statuses = KeyStatusNames.valuesNamed(m_statuses->checkedStatuses());
    filter.createdFrom = m_created->from();
    filter.createdTo = m_created->to();
    return filter;
}

void KeysView::applyFilterControls()
{
    const KeyFilter filter = filterFromControls();
    if (ListViewSetup::alreadyShows(*m_model, filter))
        return;
    m_detail->showKey(0);
    m_model->setFilter(filter);
}

void KeysView::showFilter(const KeyFilter& filter)
{
    const QSignalBlocker blockers[] = { QSignalBlocker(m_keyPrefix), QSignalBlocker(m_statuses) };
    m_keyPrefix->setText(filter.keyPrefix);
    m_statuses->setCheckedStatuses(KeyStatusNames.names(filter.statuses));
    m_created->setRange(filter.createdFrom, filter.createdTo);
    m_filterDelay->stop();
    m_detail->showKey(0);
    m_model->setFilter(filterFromControls());
}

const KeyFilter& KeysView::filter() const
{
    return m_model->filter();
}

void KeysView::refresh()
{
    ListViewSetup::refresh(m_table, m_model);
    if (m_detail->shownKey())
        m_detail->showKey(m_detail->shownKey());
}

void KeysView::focusFilter()
{
    m_keyPrefix->setFocus(Qt::ShortcutFocusReason);
    m_keyPrefix->selectAll();
}

void KeysView::showContextMenu(const QPoint& position)
{
    const QModelIndex index = m_table->indexAt(position);
    QMenu menu(this);
    menu.addAction(m_copy);
    if (index.isValid()) {
        const IdempotencyRecord record = m_model->rowAt(index.row());
        menu.addAction(tr("Copy key"), this, [record] { QApplication::clipboard()->setText(record.key); });
        menu.addAction(
            tr("Copy fingerprint"), this, [record] { QApplication::clipboard()->setText(record.fingerprint); });
        menu.addSeparator();
        ListViewSetup::addNarrowingAction(menu, tr("Show only status “%1”").arg(KeyStatusNames.name(record.status)),
            this, [record](KeyFilter& filter) { filter.statuses = { record.status }; });
        ListViewSetup::addNarrowingAction(menu, tr("Show only keys starting with “%1”").arg(record.key), this,
            [record](KeyFilter& filter) { filter.keyPrefix = record.key; });
        menu.addSeparator();
        menu.addAction(m_showOutboxRows);
    }
    menu.exec(m_table->viewport()->mapToGlobal(position));
}

void KeysView::saveState(QSettings& settings) const
{
    ListViewSetup::saveState(settings, QStringLiteral("keys"), m_table, m_splitter);
}

void KeysView::restoreState(const QSettings& settings)
{
    ListViewSetup::restoreState(settings, QStringLiteral("keys"), m_table, m_splitter);
}
