// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxdetailpane.h"

#include "common/detailviews.h"
#include "core/databaseclient.h"
#include "core/jsonformat.h"
#include "core/timeformatter.h"
#include "operations/outboxdossier.h"
#include "operations/outboxoperator.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

QString describeChange(const QByteArray& before, const QByteArray& after)
{
    return QString::fromUtf8(before) + QStringLiteral(" → ") + QString::fromUtf8(after);
}

} // namespace

QString OutboxDetailPane::attemptsText(const OutboxDossier& dossier)
{
    const int counted = dossier.detail->summary.attempts;
    const int total = dossier.totalAttempts();
    if (total == counted)
        return tr("%n attempt(s)", nullptr, counted);
    // A requeue starts the count the relay's limit applies to from 0; the failures before it stay in the history.
    const QDateTime requeued = dossier.lastRequeuedAt();
    const QString inTotal = tr("%n in total", nullptr, total);
    if (requeued.isValid())
        return tr("%n attempt(s) since the requeue at %1", nullptr, counted).arg(TimeFormatter::display(requeued))
            + QStringLiteral(", ") + inTotal;
    return tr("%n attempt(s) counted", nullptr, counted) + QStringLiteral(", ") + inTotal;
}

QString OutboxDetailPane::orderingText(const OutboxDossier& dossier)
{
    const OutboxRowSummary& row = dossier.detail->summary;
    if (row.orderingKey.isEmpty())
        return {};
    const QString key = tr("ordering key <code>%1</code>").arg(row.orderingKey.toHtmlEscaped());
    if (row.status == OutboxStatus::Waiting) {
        const std::optional<OutboxRowSummary>& blocker = dossier.waitsBehind;
        if (!blocker)
            return tr("Waiting behind an older row of its %1, published meanwhile: due again at the next claim")
                .arg(key);
        QString text = tr("Waiting behind <a href=\"row:%1\">#%1</a> of its %2, %3")
                           .arg(QString::number(blocker->id), key, OutboxStatusNames.name(blocker->status));
        if (!blocker->lastErrorLine.isEmpty())
            text += QStringLiteral(": ") + blocker->lastErrorLine.toHtmlEscaped();
        return text;
    }
    if (dossier.heldBack == 0)
        return tr("Published in order with the other rows of its %1").arg(key);
    const QString count = dossier.heldBack >= OutboxDossier::HeldBackCap
        ? tr("at least %1").arg(QLocale().toString(dossier.heldBack))
        : QLocale().toString(dossier.heldBack);
    const QString holds
        = tr("Holds back %1 later row(s) of its %2", nullptr, int(qMin<qint64>(dossier.heldBack, 1 << 30)))
              .arg(count, key);
    if (row.status == OutboxStatus::Dead)
        return QStringLiteral("<span style=\"color:#dc322f\">%1</span>")
            .arg(holds + tr(" until it is retried or discarded"));
    return holds;
}

OutboxDetailPane::OutboxDetailPane(DatabaseClient& worker, QWidget* parent)
    : DossierPane(worker, parent)
    , m_payload(DetailViews::codeView(this))
    , m_headers(DetailViews::codeView(this))
    , m_error(DetailViews::codeView(this))
    , m_attempts(DetailViews::historyView({ tr("Time"), tr("Attempt"), tr("Worker"), tr("Error") }, this))
    , m_audit(DetailViews::historyView({ tr("Time"), tr("Who"), tr("Action"), tr("Reason"), tr("Change") }, this))
    , m_links(new QLabel(this))
{
    m_links->setWordWrap(true);
    m_links->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_links->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    tabs()->addTab(m_payload, tr("Payload"));
    tabs()->addTab(m_headers, tr("Headers"));
    tabs()->addTab(m_error, tr("Last error"));
    tabs()->addTab(m_attempts, tr("Attempts"));
    tabs()->addTab(m_audit, tr("Audit"));
    tabs()->addTab(m_links, tr("Origin"));
    summary()->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    connect(summary(), &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QLatin1String("row:")))
            emit rowLinkActivated(link.mid(4).toLongLong());
    });
    showRow(0);
}

void OutboxDetailPane::showRow(qint64 id)
{
    showDossier<OutboxDossier>(
        id,
        { tr("Select an outbox row to see its payload, errors and history."), tr("Loading row %1…").arg(id),
            tr("Could not load row %1: %2").arg(id) },
        [id](DbSession& session) { return OutboxDossier::load(session, id); },
        [this](const OutboxDossier& dossier) { present(dossier); });
}

void OutboxDetailPane::present(const OutboxDossier& dossier)
{
    m_attempts->clear();
    m_audit->clear();
    if (!dossier.detail) {
        if (dossier.id)
            summary()->setText(tr("Row %1 no longer exists (purged).").arg(dossier.id));
        m_payload->clear();
        tabs()->setTabText(tabs()->indexOf(m_payload), tr("Payload"));
        m_headers->clear();
        m_error->clear();
        m_links->clear();
        return;
    }
    const OutboxRowDetail& detail = *dossier.detail;
    const OutboxRowSummary& row = detail.summary;
    // A row that failed is read for its error first; a refresh of the row shown keeps the operator's tab.
    if (dossier.id != m_presentedId) {
        m_presentedId = dossier.id;
        const bool failing = row.status == OutboxStatus::Failed || row.status == OutboxStatus::Dead;
        if (failing)
            tabs()->setCurrentWidget(m_error);
        else if (tabs()->currentWidget() == m_error)
            tabs()->setCurrentWidget(m_payload);
    }
    QString lease;
    if (!row.leaseOwner.isEmpty())
        lease = tr(" · leased to %1 until %2")
                    .arg(row.leaseOwner.toHtmlEscaped(), TimeFormatter::display(row.leaseExpiresAt));
    summary()->setText(tr("<b>#%1 %2</b> · %3 · %4%5")
                           .arg(QString::number(row.id), row.eventType.toHtmlEscaped(),
                               OutboxStatusNames.name(row.status), attemptsText(dossier), lease)
        + QStringLiteral("<br>")
        + tr("%1 %2 · dedupe key <code>%3</code> · created %4%5")
              .arg(row.aggregateType.toHtmlEscaped(), row.aggregateId.toHtmlEscaped(), detail.dedupeKey.toHtmlEscaped(),
                  TimeFormatter::display(row.createdAt),
                  row.publishedAt.isValid() ? tr(" · published %1").arg(TimeFormatter::display(row.publishedAt))
                                            : QString())
        + (row.orderingKey.isEmpty() ? QString() : QStringLiteral("<br>") + orderingText(dossier)));
    m_payload->setPlainText(JsonFormat::pretty(detail.payload));
    // What the broker receives, in the locale's way of writing sizes.
    tabs()->setTabText(
        tabs()->indexOf(m_payload), tr("Payload (%1)").arg(QLocale().formattedDataSize(detail.payload.size())));
    m_headers->setPlainText(JsonFormat::pretty(detail.headers));
    m_error->setPlainText(detail.lastError.isEmpty() ? tr("(no error)") : detail.lastError);
    // The requeues between the failures, newest first like them: after one, the attempt numbers start again.
    qsizetype audit = 0;
    const auto addRequeuesAfter = [&](const QDateTime& instant) {
        for (; audit < dossier.audit.size() && (!instant.isValid() || dossier.audit.at(audit).at > instant); ++audit) {
            const AuditEntry& entry = dossier.audit.at(audit);
            if (!AuditAction::startsAttemptsAgain(entry.action))
                continue;
            const bool edited = entry.action == AuditAction::Edit;
            auto* item = new QTreeWidgetItem(m_attempts,
                { TimeFormatter::display(entry.at), edited ? tr("edited") : tr("requeued"), entry.actor,
                    (edited ? tr("Edited and requeued by %1: %2 (attempts count from 0 again)")
                            : tr("Requeued by %1: %2 (attempts count from 0 again)"))
                        .arg(entry.actor, entry.reason) });
            item->setToolTip(0, TimeFormatter::exact(entry.at));
            for (int column = 0; column < 4; ++column)
                item->setForeground(column, palette().placeholderText());
        }
    };
    for (const OutboxAttempt& attempt : dossier.attempts) {
        addRequeuesAfter(attempt.at);
        auto* item = new QTreeWidgetItem(m_attempts,
            { TimeFormatter::display(attempt.at), QString::number(attempt.attempt), attempt.worker,
                attempt.error.section(QLatin1Char('\n'), 0, 0) });
        item->setToolTip(0, TimeFormatter::exact(attempt.at));
        item->setToolTip(3, attempt.error);
    }
    addRequeuesAfter({}); // and those before the oldest failure on record
    for (const AuditEntry& entry : dossier.audit) {
        auto* item = new QTreeWidgetItem(m_audit,
            { TimeFormatter::display(entry.at), entry.actor, entry.action, entry.reason,
                describeChange(entry.stateBefore, entry.stateAfter) });
        item->setToolTip(0, TimeFormatter::exact(entry.at));
    }
    tabs()->setTabText(3, tr("Attempts (%1)").arg(dossier.failedAttempts));
    tabs()->setTabText(4, tr("Audit (%1)").arg(dossier.audit.size()));
    if (const auto& key = dossier.idempotencyRecord) {
        m_links->setText(tr("Order <b>%1</b> was created by the request with idempotency key <b>%2</b> (scope %3): "
                            "status %4, response %5, replayed %n time(s), fingerprint <code>%6</code>.",
            nullptr, key->replayCount)
                             .arg(row.aggregateId.toHtmlEscaped(), key->key.toHtmlEscaped(), key->scope.toHtmlEscaped(),
                                 KeyStatusNames.name(key->status))
                             .arg(key->responseStatus)
                             .arg(key->fingerprint));
    } else {
        m_links->setText(tr("No idempotency record links to %1 %2.")
                             .arg(row.aggregateType.toHtmlEscaped(), row.aggregateId.toHtmlEscaped()));
    }
}
