// SPDX-License-Identifier: GPL-3.0-or-later
#include "audit/auditview.h"

#include "audit/audittablemodel.h"
#include "common/auditsubject.h"
#include "common/detailviews.h"
#include "common/listviewsetup.h"
#include "common/timerangefilter.h"
#include "core/timeformatter.h"
#include "operations/auditrepository.h"
#include "operations/linediff.h"
#include "operations/outboxoperator.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>

AuditView::AuditView(DatabaseClient& reads, QWidget* parent)
    : QWidget(parent)
    , m_model(new AuditTableModel(reads, this))
    , m_table(new QTableView(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_actor(ListViewSetup::filterEdit(tr("Who (database user)"), this))
    , m_action(new QComboBox(this))
    , m_when(new TimeRangeFilter(tr("From"), this))
    , m_detail(DetailViews::codeView(this))
    , m_reads(reads)
    , m_showRows(new QPushButton(tr("&Show rows"), this))
    , m_filterDelay(ListViewSetup::filterDelay(this))
{
    // The actions OutboxOperator records; the names are the audit log's own.
    m_action->addItem(tr("Every action"), QString());
    m_action->addItem(tr("Requeue"), AuditAction::Requeue);
    m_action->addItem(tr("Discard"), AuditAction::Discard);
    m_action->addItem(tr("Edit and retry"), AuditAction::Edit);
    m_action->addItem(tr("Release lease"), AuditAction::ReleaseLease);
    m_action->addItem(tr("Forget relay"), AuditAction::ForgetRelay);
    m_action->addItem(tr("Pause"), AuditAction::Pause);
    m_action->addItem(tr("Resume"), AuditAction::Resume);

    auto* filterBar = new QWidget(this);
    auto* bar = new QHBoxLayout(filterBar);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_actor, 1);
    bar->addWidget(m_action);
    bar->addWidget(m_when);
    ListViewSetup::addClearButton(bar, tr("Show every action"), [this] { showFilter(AuditFilter {}); });

    ListViewSetup::setUpTable(m_table, m_model);
    ListViewSetup::keepSelectionAndPlace(m_table, m_model);
    ListViewSetup::fitInstantColumns(m_table, { AuditTableModel::At });
    m_table->setColumnWidth(AuditTableModel::Actor, 120);
    m_table->setColumnWidth(AuditTableModel::Action, 110);
    m_table->setColumnWidth(AuditTableModel::Rows, 60);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_detail->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_detail->setPlaceholderText(tr("Select an action to see its reason, its rows and their states."));
    m_showRows->setToolTip(tr("Open the rows this action touched in the outbox list"));
    auto* actions = new QHBoxLayout;
    actions->addWidget(m_showRows);
    actions->addStretch(1);
    ListViewSetup::layOut(this, filterBar, m_splitter, m_table, m_detail, actions);

    const auto later = [this] { m_filterDelay->start(); };
    connect(m_actor, &QLineEdit::textChanged, this, later);
    connect(m_action, &QComboBox::currentIndexChanged, this, later);
    connect(m_when, &TimeRangeFilter::rangeChanged, this, later);
    connect(m_filterDelay, &QTimer::timeout, this, [this] {
        const AuditFilter filter = filterFromControls();
        if (!ListViewSetup::alreadyShows(*m_model, filter))
            m_model->setFilter(filter);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &AuditView::showSelected);
    connect(m_model, &QAbstractItemModel::modelReset, this, &AuditView::showSelected);
    connect(m_model, &PagedListModelBase::loadFailed, this, &AuditView::loadFailed);
    connect(m_showRows, &QPushButton::clicked, this, [this] {
        if (m_shownRows.isEmpty())
            return;
        OutboxFilter filter;
        filter.ids = m_shownRows;
        emit showOutbox(filter);
    });
    showSelected();
}

AuditFilter AuditView::filterFromControls() const
{
    AuditFilter filter;
    filter.actor = m_actor->text().trimmed();
    filter.action = m_action->currentData().toString();
    filter.from = m_when->from();
    filter.to = m_when->to();
    return filter;
}

void AuditView::showFilter(const AuditFilter& filter)
{
    const QSignalBlocker blockers[] = { QSignalBlocker(m_actor), QSignalBlocker(m_action), QSignalBlocker(m_when) };
    m_actor->setText(filter.actor);
    m_action->setCurrentIndex(qMax(0, m_action->findData(filter.action)));
    m_when->setRange(filter.from, filter.to);
    m_filterDelay->stop();
    m_model->setFilter(filterFromControls());
}

const AuditFilter& AuditView::filter() const
{
    return m_model->filter();
}

void AuditView::refresh()
{
    ListViewSetup::refresh(m_table, m_model);
}

QString AuditView::detailsText(const AuditEntry& entry)
{
    const QJsonObject details = QJsonDocument::fromJson(entry.details).object();
    QString text;
    // A group retry or discard: which group.
    if (const QJsonValue group = details.value(QStringLiteral("signature")); group.isString())
        text += tr("From the failure group: %1").arg(group.toString()) + QLatin1Char('\n');
    // A retry later: when the rows became due.
    if (const QJsonValue dueAt = details.value(QStringLiteral("next_attempt_at")); dueAt.isString()) {
        text += tr("Due at: %1").arg(TimeFormatter::display(QDateTime::fromString(dueAt.toString(), Qt::ISODateWithMs)))
            + QLatin1Char('\n');
    }
    if (entry.action != AuditAction::Edit)
        return text;
    // The list's reads leave an edit's content out; showSelected() reads it.
    if (entry.contentAfter.payload.isEmpty())
        return text + QLatin1Char('\n') + tr("Reading the edit…") + QLatin1Char('\n');
    const auto section = [&text](const QString& title, const QString& before, const QString& after) {
        const LineDiff diff(before, after);
        text += QLatin1Char('\n') + title + QLatin1Char('\n');
        text += (diff.isEmpty() ? tr("unchanged") : diff.unified(EditContext).join(QLatin1Char('\n')))
            + QLatin1Char('\n');
    };
    section(tr("Payload (- before, + after):"), entry.contentBefore.payload, entry.contentAfter.payload);
    section(tr("Headers (- before, + after):"), entry.contentBefore.headers, entry.contentAfter.headers);
    return text;
}

QString AuditView::statesTable(const AuditEntry& entry)
{
    // One line per row or relay, in columns: 27 ids in a JSON map were a wall of text.
    const QJsonObject before = QJsonDocument::fromJson(entry.stateBefore).object();
    const QJsonObject after = QJsonDocument::fromJson(entry.stateAfter).object();
    const QString idHeader = entry.entity == AuditEntity::Relay ? tr("Relay")
        : entry.entity == AuditEntity::Pause                    ? tr("Pause")
                                                                : tr("Row");
    const QString beforeHeader = tr("Before");
    int idWidth = int(idHeader.size());
    int beforeWidth = int(beforeHeader.size());
    for (const qint64 id : entry.entityIds) {
        idWidth = qMax(idWidth, int(QString::number(id).size()));
        beforeWidth = qMax(beforeWidth, int(before.value(QString::number(id)).toString().size()));
    }
    const auto line = [&](const QString& id, const QString& from, const QString& to) {
        return id.leftJustified(idWidth + 2) + from.leftJustified(beforeWidth + 2) + to;
    };
    QStringList lines { line(idHeader, beforeHeader, tr("After")) };
    const qsizetype shown = qMin<qsizetype>(entry.entityIds.size(), ListedStates);
    for (qsizetype i = 0; i < shown; ++i) {
        const QString id = QString::number(entry.entityIds.at(i));
        lines.append(line(id, before.value(id).toString(), after.value(id).toString()));
    }
    // A list's entry of an action with later batches has its first batch's rows: showSelected() reads the others.
    if (entry.partial)
        lines.append(tr("… and %n more, being read", nullptr, int(entry.rows - shown)));
    else if (entry.entityIds.size() > shown)
        lines.append(tr("… and %n more", nullptr, int(entry.entityIds.size() - shown)));
    return lines.join(QLatin1Char('\n'));
}

void AuditView::showSelected()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    m_contentRequests.next();
    if (rows.isEmpty()) {
        m_detail->clear();
        m_shownRows.clear();
        m_showRows->setEnabled(false);
        return;
    }
    const AuditEntry entry = m_model->rowAt(rows.first().row());
    showEntry(entry);
    const bool edit = entry.action == AuditAction::Edit;
    if (!edit && !entry.partial)
        return;
    // An edit's payloads and an action's later batches stay out of the list's reads: this entry is read whole now,
    // on the reading connection.
    const qint64 id = entry.id;
    m_reads.runLatest<std::optional<AuditEntry>>(
        m_contentRequests, this, [id](DbSession& session) { return AuditRepository(session).whole(id); },
        [this](const std::optional<AuditEntry>& whole) {
            if (whole)
                showEntry(*whole);
        },
        [this, edit](const OutboxError& error) {
            m_detail->appendPlainText(QLatin1Char('\n')
                + (edit ? tr("The edit could not be read: %1") : tr("The action's other rows could not be read: %1"))
                      .arg(error.message()));
        });
}

void AuditView::showEntry(const AuditEntry& entry)
{
    m_detail->setPlainText(tr("%1 by %2 at %3 — %4\nReason: %5\n")
                               .arg(entry.action, entry.actor, TimeFormatter::display(entry.at),
                                   AuditSubject::describe(entry), entry.reason)
        + detailsText(entry) + QLatin1Char('\n') + statesTable(entry));
    // The outbox list shows outbox rows (a relay's id is no row of it), and all the action's: an entry with only its
    // first batch's waits for the whole one.
    m_shownRows = entry.entityIds;
    m_showRows->setEnabled(entry.entity == AuditEntity::Outbox && !entry.partial);
}
