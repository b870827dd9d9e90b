// SPDX-License-Identifier: GPL-3.0-or-later
#include "failures/failuresview.h"

#include "core/databaseclient.h"
#include "core/timeformatter.h"
#include "failures/failuregroupsmodel.h"
#include "outbox/failuregrouprepository.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

FailuresView::FailuresView(DatabaseClient& reads, QWidget* parent)
    : QWidget(parent)
    , m_reads(reads)
    , m_model(new FailureGroupsModel(this))
    , m_table(new QTableView(this))
    , m_statuses(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_detail(new QPlainTextEdit(this))
    , m_showRows(new QPushButton(tr("&Show rows"), this))
    , m_retry(new QPushButton(tr("&Retry group…"), this))
    , m_discard(new QPushButton(tr("Dis&card group…"), this))
{
    m_statuses->addItem(
        tr("Failed and dead"), QVariant::fromValue(QList<int> { int(OutboxStatus::Failed), int(OutboxStatus::Dead) }));
    m_statuses->addItem(tr("Failed (retry scheduled)"), QVariant::fromValue(QList<int> { int(OutboxStatus::Failed) }));
    m_statuses->addItem(tr("Dead"), QVariant::fromValue(QList<int> { int(OutboxStatus::Dead) }));
    m_statuses->setToolTip(tr("Which rows to group"));

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(FailureGroupsModel::Signature, QHeaderView::Stretch);
    m_detail->setReadOnly(true);
    m_detail->setPlaceholderText(tr("Select a group to see an example of its error."));
    m_showRows->setToolTip(tr("Open the group's rows in the outbox list"));
    m_retry->setToolTip(
        tr("Requeue every row of the group, as it is when you confirm, with a reason for the audit log"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_statuses);
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_showRows);
    bar->addWidget(m_retry);
    bar->addWidget(m_discard);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    connect(m_statuses, &QComboBox::currentIndexChanged, this, [this] {
        m_requests.next();
        load();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &FailuresView::showSelected);
    connect(m_table, &QTableView::doubleClicked, this, [this] { emit showOutbox(selectedGroupFilter()); });
    connect(m_showRows, &QPushButton::clicked, this, [this] { emit showOutbox(selectedGroupFilter()); });
    connect(m_retry, &QPushButton::clicked, this, [this] { emit retryGroup(selectedGroupFilter()); });
    connect(m_discard, &QPushButton::clicked, this, [this] { emit discardGroup(selectedGroupFilter()); });
    showSelected();
}

FailureGroupFilter FailuresView::filter() const
{
    FailureGroupFilter filter;
    filter.statuses.clear();
    for (const int status : m_statuses->currentData().value<QList<int>>())
        filter.statuses.append(OutboxStatus(status));
    return filter;
}

void FailuresView::refresh()
{
    load();
}

void FailuresView::load()
{
    m_reads.runLatest<QList<FailureGroup>>(
        m_requests, this,
        [filter = filter()](DbSession& session) { return FailureGroupRepository(session).groups(filter); },
        [this](const QList<FailureGroup>& groups) { present(groups); },
        [this](const OutboxError& error) { emit loadFailed(error.message()); });
}

void FailuresView::present(const QList<FailureGroup>& groups)
{
    // The selection follows the group, not the row number, across reloads.
    const QString selected = selectedGroupFilter().errorSignature;
    m_model->setRows(groups);
    qint64 rows = 0;
    for (const FailureGroup& group : groups)
        rows += group.rows();
    m_summary->setText(groups.isEmpty()
            ? tr("No failed or dead rows.")
            : tr("%1 rows in %n group(s)", nullptr, int(groups.size())).arg(QLocale().toString(rows)));
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->rows().at(row).signature == selected)
            m_table->selectRow(row);
    }
    showSelected();
}

OutboxFilter FailuresView::selectedGroupFilter() const
{
    OutboxFilter filter;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return filter;
    filter.errorSignature = m_model->rows().at(rows.first().row()).signature;
    filter.statuses = this->filter().statuses;
    return filter;
}

void FailuresView::setMayChangeOutbox(bool may, const QString& whyNot)
{
    m_mayChange = may;
    m_whyNot = whyNot;
    showSelected();
}

void FailuresView::showSelected()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    m_showRows->setEnabled(!rows.isEmpty());
    m_retry->setEnabled(!rows.isEmpty() && m_mayChange);
    m_retry->setToolTip(m_mayChange ? tr("Requeue every row of the group, as it is when you confirm, with a reason "
                                         "for the audit log")
                                    : m_whyNot);
    m_discard->setEnabled(!rows.isEmpty() && m_mayChange);
    m_discard->setToolTip(m_mayChange ? tr("Give up on every row of the group, as it is when you confirm: not "
                                           "published, the later rows of their ordering keys flow again, and Retry "
                                           "brings them back")
                                      : m_whyNot);
    if (rows.isEmpty()) {
        m_detail->clear();
        return;
    }
    const FailureGroup& group = m_model->rows().at(rows.first().row());
    const QString heldBack = FailureGroupsModel::heldBackText(group);
    m_detail->setPlainText(tr("Cause: %1\nGroup id: %2 (outboxctl requeue --signature %2)\nEvent types: %3\n"
                              "First seen %4, last seen %5\n\nExample, row %6:\n%7")
                               .arg(group.signature, group.id, group.eventTypes.join(QStringLiteral(", ")),
                                   TimeFormatter::display(group.firstSeen), TimeFormatter::display(group.lastSeen))
                               .arg(group.sampleId)
                               .arg(group.sampleError)
        + (heldBack.isEmpty() ? QString()
                              : tr("\n\nIts dead rows block their ordering keys: %1 wait behind them until they "
                                   "are retried or discarded (outboxctl discard --signature %2).")
                                    .arg(heldBack, group.id)));
}
