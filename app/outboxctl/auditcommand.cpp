// SPDX-License-Identifier: GPL-3.0-or-later
#include "auditcommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "operations/auditrepository.h"
#include "operations/outboxoperator.h"
#include "pageoptions.h"

QString AuditCommand::summary() const
{
    return QStringLiteral("List operator actions (who requeued or released what, when and why), newest first.");
}

QString AuditCommand::synopsis() const
{
    return QStringLiteral("[--actor USER] [--action A] [--since DURATION] [--limit N] [--after CURSOR] "
                          "[--format table|json|csv]");
}

void AuditCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(
        QStringLiteral("actor"), QStringLiteral("USER"), QStringLiteral("Only this database user's actions."));
    parser.addValue(QStringLiteral("action"), QStringLiteral("A"),
        QStringLiteral("Only this action: requeue, discard or \"release lease\"."));
    parser.addValue(QStringLiteral("since"), QStringLiteral("DURATION"), QStringLiteral("Only this recent, e.g. 12h."));
    PageOptions::add(parser, QStringLiteral("Entries"));
}

// Ids as a JSON array for JSON, comma-separated text for the table and CSV (Cell has no list type).
static Cell idsCell(const QList<qint64>& ids)
{
    QStringList texts;
    for (const qint64 id : ids)
        texts.append(QString::number(id));
    return Cell::text(texts.join(QLatin1Char(',')));
}

int AuditCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    AuditFilter filter;
    filter.actor = parser.value(QStringLiteral("actor"));
    filter.action = parser.value(QStringLiteral("action"));
    const PageOptions paging = PageOptions::parse(parser);
    const auto session = connect(settings);
    if (parser.isSet(QStringLiteral("since")))
        filter.from = session->serverNow().addMSecs(-parser.durationMs(QStringLiteral("since")));

    const QList<AuditEntry> entries = AuditRepository(*session).page(filter, paging.limit, paging.beforeId);
    RecordTable table({ QStringLiteral("id"), QStringLiteral("at"), QStringLiteral("actor"), QStringLiteral("action"),
        QStringLiteral("rows"), QStringLiteral("reason"), QStringLiteral("entity"), QStringLiteral("ids"),
        QStringLiteral("state_before"), QStringLiteral("state_after"), QStringLiteral("details") });
    AuditRepository audit(*session);
    for (AuditEntry entry : entries) {
        // The page's read leaves an edit's payloads and an action's later batches out; the command prints every row
        // and what the entry keeps, so it reads them.
        if (entry.action == AuditAction::Edit || entry.partial) {
            if (const std::optional<AuditEntry> whole = audit.whole(entry.id))
                entry = *whole;
        }
        table.addRow({ Cell::integer(entry.id), Cell::instant(entry.at), Cell::text(entry.actor),
            Cell::text(entry.action), Cell::integer(entry.rows), Cell::text(entry.reason), Cell::text(entry.entity),
            idsCell(entry.entityIds), Cell::text(QString::fromUtf8(entry.stateBefore)),
            Cell::text(QString::fromUtf8(entry.stateAfter)), Cell::text(QString::fromUtf8(entry.details)) });
    }
    paging.print(table, QStringLiteral("entries"),
        entries.size() == paging.limit ? std::optional(entries.last().id) : std::nullopt);
    return ExitCode::Success;
}
