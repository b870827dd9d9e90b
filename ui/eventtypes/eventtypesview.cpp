// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventtypes/eventtypesview.h"

#include "common/listviewsetup.h"
#include "core/databaseclient.h"
#include "core/timeformatter.h"
#include "eventtypes/eventtypesmodel.h"
#include "eventtypes/secondspane.h"
#include "operations/eventtypebreakdown.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

EventTypesView::EventTypesView(DatabaseClient& reads, QWidget* parent)
    : QWidget(parent)
    , m_reads(reads)
    , m_model(new EventTypesModel(this))
    , m_table(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_seconds(new SecondsPane(reads, this))
{
    ListViewSetup::setUpSnapshotTable(m_table, m_model, QStringLiteral("eventTypes"));
    // The counts right beside their type's name, each as wide as it needs.
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_table->setToolTip(tr("Double-click a count to see those rows, or a name to see all rows of the type"));
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        OutboxFilter rows;
        rows.eventType = m_model->rows().at(index.row()).eventType;
        if (const std::optional<OutboxStatus> status = EventTypesModel::statusOf(index.column()))
            rows.statuses = { *status };
        emit showOutbox(rows);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const QModelIndexList selected = m_table->selectionModel()->selectedRows();
        const QString type = selected.isEmpty() ? QString() : m_model->rows().at(selected.first().row()).eventType;
        if (type != m_seconds->eventType())
            m_seconds->setEventType(type);
    });
    m_summary->setWordWrap(true);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_seconds);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
}

void EventTypesView::setLive(bool live)
{
    m_seconds->setLive(live);
}

void EventTypesView::refresh()
{
    m_reads.runLatest<EventTypeBreakdown>(
        m_requests, this, [](DbSession& session) { return EventTypeBreakdown::load(session); },
        [this](const EventTypeBreakdown& breakdown) { present(breakdown); },
        [this](const OutboxError& error) { emit loadFailed(error.message()); });
}

void EventTypesView::present(const EventTypeBreakdown& breakdown)
{
    // The selection follows the type's name across reloads.
    const QModelIndexList selected = m_table->selectionModel()->selectedRows();
    const QString selectedType = selected.isEmpty() ? QString() : m_model->rows().at(selected.first().row()).eventType;
    m_model->setRows(breakdown.types);
    if (const int row = m_model->rowOfType(selectedType); row >= 0)
        m_table->selectRow(row);
    QString summary = breakdown.types.isEmpty()
        ? tr("The outbox holds no rows.")
        : tr("%n event type(s), as of %1. Each count stops at %2 so that it stays cheap on large tables.", nullptr,
            int(breakdown.types.size()))
              .arg(
                  TimeFormatter::display(breakdown.serverNow), QLocale().toString(EventTypeBreakdown::DefaultCountCap));
    if (breakdown.moreTypes)
        summary
            += QLatin1Char(' ') + tr("Only the first %1 by name are listed.").arg(EventTypeBreakdown::DefaultTypeLimit);
    m_summary->setText(summary);
}
