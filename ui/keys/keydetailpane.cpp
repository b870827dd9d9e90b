// SPDX-License-Identifier: GPL-3.0-or-later
#include "keys/keydetailpane.h"

#include "common/detailviews.h"
#include "core/databaseclient.h"
#include "core/jsonformat.h"
#include "core/timeformatter.h"
#include "keys/keystablemodel.h"
#include "operations/keydossier.h"

#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <optional>

namespace {

// The tabs whose titles change with what is shown.
enum Tab { ResponseTab, EventsTab };

// What the pane says about where a key stands: whether a repeat of the request executes, waits or replays.
QString describeState(const IdempotencyRecord& record, const QDateTime& now)
{
    if (record.status == KeyStatus::InProgress) {
        if (record.lockedUntil > now) {
            return KeyDetailPane::tr("In progress: a request with this key is executing; duplicates are refused "
                                     "(409) until its lease ends at %1.")
                .arg(TimeFormatter::display(record.lockedUntil));
        }
        return KeyDetailPane::tr("In progress, but its lease expired at %1 (the worker presumably crashed): the "
                                 "next request with this key takes it over.")
            .arg(TimeFormatter::display(record.lockedUntil));
    }
    if (record.expiresAt <= now) {
        return KeyDetailPane::tr("Expired at %1: the next request with this key is treated as new.")
            .arg(TimeFormatter::display(record.expiresAt));
    }
    if (record.failureRetryable.value_or(false))
        return KeyDetailPane::tr("Failed, retryable (released): the next request with this key executes again.");
    if (record.failureRetryable) {
        return KeyDetailPane::tr("Failed, final: repeats of the request get the stored failure until %1.")
            .arg(TimeFormatter::display(record.expiresAt));
    }
    return KeyDetailPane::tr("Completed: repeats of the request get the stored response until %1.")
        .arg(TimeFormatter::display(record.expiresAt));
}

void addField(QTreeWidget* record, const QString& name, const QString& value, const QString& toolTip = {})
{
    auto* item = new QTreeWidgetItem(record, { name, value });
    item->setToolTip(1, toolTip.isEmpty() ? value : toolTip);
}

void addInstant(QTreeWidget* record, const QString& name, const QDateTime& instant)
{
    addField(record, name, TimeFormatter::display(instant), TimeFormatter::exact(instant));
}

} // namespace

KeyDetailPane::KeyDetailPane(DatabaseClient& worker, QWidget* parent)
    : DossierPane(worker, parent)
    , m_record(DetailViews::historyView({ tr("Field"), tr("Value") }, this))
    , m_response(DetailViews::codeView(this))
    , m_events(DetailViews::historyView({ tr("ID"), tr("Event"), tr("Status"), tr("Created") }, this))
    , m_showOutboxRows(new QPushButton(tr("Show its outbox rows"), this))
{
    // Named for tests and style sheets.
    summary()->setObjectName(QStringLiteral("summary"));
    m_record->setObjectName(QStringLiteral("record"));
    m_response->setObjectName(QStringLiteral("response"));
    m_events->setObjectName(QStringLiteral("events"));
    m_showOutboxRows->setObjectName(QStringLiteral("showOutboxRows"));
    m_showOutboxRows->setToolTip(tr("Open in the Outbox tab the rows this key's request wrote"));
    connect(m_showOutboxRows, &QPushButton::clicked, this, &KeyDetailPane::showOutboxRowsRequested);
    auto* events = new QWidget(this);
    auto* eventsLayout = new QVBoxLayout(events);
    eventsLayout->setContentsMargins(0, 0, 0, 0);
    eventsLayout->addWidget(m_events);
    eventsLayout->addWidget(m_showOutboxRows, 0, Qt::AlignLeft);
    tabs()->addTab(m_response, tr("Response"));
    tabs()->addTab(events, tr("Outbox rows"));
    tabs()->addTab(m_record, tr("Record"));
    showKey(0);
}

void KeyDetailPane::showKey(qint64 id)
{
    showDossier<KeyDossier>(
        id,
        { tr("Select an idempotency key to see its stored response and the outbox rows of its order."),
            tr("Loading key %1…").arg(id), tr("Could not load key %1: %2").arg(id) },
        [id](DbSession& session) { return KeyDossier::load(session, id); },
        [this](const KeyDossier& dossier) { present(dossier); });
}

void KeyDetailPane::present(const KeyDossier& dossier)
{
    m_record->clear();
    m_events->clear();
    m_showOutboxRows->setEnabled(dossier.record && dossier.record->orderId);
    tabs()->setTabText(ResponseTab, tr("Response"));
    tabs()->setTabText(EventsTab, tr("Outbox rows"));
    if (!dossier.record) {
        if (dossier.id)
            summary()->setText(tr("Key %1 no longer exists (purged).").arg(dossier.id));
        m_response->clear();
        return;
    }
    const IdempotencyRecord& record = *dossier.record;
    const QString response = record.responseStatus ? tr(" · response %1").arg(record.responseStatus) : QString();
    summary()->setText(
        tr("<b>%1</b> (scope %2) · %3%4<br>fingerprint <code>%5</code><br>%6")
            .arg(record.key.toHtmlEscaped(), record.scope.toHtmlEscaped(), KeysTableModel::statusText(record), response,
                record.fingerprint, describeState(record, dossier.serverNow).toHtmlEscaped()));

    addField(m_record, tr("ID"), QString::number(record.id));
    addField(m_record, tr("Scope"), record.scope);
    addField(m_record, tr("Key"), record.key);
    addField(m_record, tr("Status"), KeysTableModel::statusText(record));
    addField(m_record, tr("Fingerprint"), record.fingerprint);
    addInstant(m_record, tr("Lease until"), record.lockedUntil);
    addInstant(m_record, tr("Expires (TTL)"), record.expiresAt);
    addInstant(m_record, tr("Created"), record.createdAt);
    addInstant(m_record, tr("Updated"), record.updatedAt);
    addField(m_record, tr("Replays"), QLocale().toString(record.replayCount));
    addInstant(m_record, tr("Last replay"), record.lastReplayedAt);
    addField(m_record, tr("Order"), record.orderId ? QString::number(*record.orderId) : tr("none"));
    m_record->resizeColumnToContents(0);

    if (record.responseStatus) {
        tabs()->setTabText(ResponseTab,
            tr("Response (%1 · %2)")
                .arg(QString::number(record.responseStatus), QLocale().formattedDataSize(record.responseBody.size())));
        m_response->setPlainText(JsonFormat::pretty(record.responseBody));
    } else {
        m_response->setPlainText(tr("(no response stored yet: the request has not finished)"));
    }

    for (const OutboxRowSummary& row : dossier.events) {
        auto* item = new QTreeWidgetItem(m_events,
            { QString::number(row.id), row.eventType, OutboxStatusNames.name(row.status),
                TimeFormatter::display(row.createdAt) });
        item->setToolTip(3, TimeFormatter::exact(row.createdAt));
        item->setTextAlignment(0, Qt::AlignRight | Qt::AlignVCenter);
    }
    if (record.orderId)
        tabs()->setTabText(EventsTab, tr("Outbox rows (%1)").arg(dossier.events.size()));
}
