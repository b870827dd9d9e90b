// SPDX-License-Identifier: GPL-3.0-or-later
#include "listcommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "export/exporttables.h"
#include "idempotency/idempotencyrepository.h"
#include "outbox/outboxreadrepository.h"
#include "pageoptions.h"
#include "signatureoption.h"

#include <functional>
#include <limits>

QString ListCommand::summary() const
{
    return QStringLiteral("List outbox rows or idempotency keys, newest first, one page at a time.");
}

QString ListCommand::synopsis() const
{
    return QStringLiteral("outbox|keys [--status S] [--limit N] [--after CURSOR] [--format table|json|csv] "
                          "[outbox: --event-type T] [--aggregate ID] [--dedupe-key KEY] [--error-contains TEXT] "
                          "[--signature SIG] [--created-from TIME] [--created-to TIME] [--payload-contains TEXT] "
                          "[--stuck] [--blocking]]");
}

void ListCommand::addOptions(ArgumentParser& parser) const
{
    parser.addPositional(QStringLiteral("what"), QStringLiteral("outbox or keys."), QStringLiteral("outbox|keys"));
    parser.addValue(QStringLiteral("status"), QStringLiteral("S"),
        QStringLiteral("Only rows in this state. outbox: %1; keys: %2.")
            .arg(OutboxStatusNames.names().join(QStringLiteral(", ")),
                KeyStatusNames.names().join(QStringLiteral(", "))));
    PageOptions::add(parser, QStringLiteral("Rows"));
    // The console's outbox filters, through the same OutboxFilter and query code.
    parser.addValue(QStringLiteral("event-type"), QStringLiteral("T"), QStringLiteral("outbox: this event type only."));
    parser.addValue(
        QStringLiteral("aggregate"), QStringLiteral("ID"), QStringLiteral("outbox: this aggregate id only."));
    parser.addValue(QStringLiteral("dedupe-key"), QStringLiteral("KEY"),
        QStringLiteral("outbox: the row with this dedupe key, which is also its message id at the broker."));
    parser.addValue(QStringLiteral("error-contains"), QStringLiteral("TEXT"),
        QStringLiteral("outbox: rows whose last error contains TEXT (case-insensitive)."));
    parser.addValue(QStringLiteral("signature"), QStringLiteral("SIG"),
        QStringLiteral("outbox: a failure group, by its id as `outboxctl failures` shows it or its signature."));
    parser.addValue(QStringLiteral("created-from"), QStringLiteral("TIME"),
        QStringLiteral("outbox: created at or after TIME (ISO-8601 in UTC unless it has an offset, now, now-1h)."));
    parser.addValue(
        QStringLiteral("created-to"), QStringLiteral("TIME"), QStringLiteral("outbox: created before TIME."));
    parser.addValue(QStringLiteral("payload-contains"), QStringLiteral("TEXT"),
        QStringLiteral("outbox: rows whose payload (as JSON text) contains TEXT (case-insensitive); needs "
                       "--created-from, since it reads every row created in the range."));
    parser.addFlag(
        QStringLiteral("stuck"), QStringLiteral("outbox: only rows that look stuck (see docs/operators-guide.md)."));
    parser.addFlag(QStringLiteral("blocking"),
        QStringLiteral("outbox: only dead rows with an ordering key, each holding back the later rows of its key."));
}

static const QStringList OutboxOnlyOptions { QStringLiteral("event-type"), QStringLiteral("aggregate"),
    QStringLiteral("dedupe-key"), QStringLiteral("error-contains"), QStringLiteral("signature"),
    QStringLiteral("created-from"), QStringLiteral("created-to"), QStringLiteral("payload-contains"),
    QStringLiteral("stuck"), QStringLiteral("blocking") };

namespace {

struct Page {
    RecordTable table;
    std::optional<qint64> nextCursor; // set when the page is full, so more rows may follow
};

Page makePage(RecordTable table, std::optional<qint64> lastId, qsizetype rows, int limit)
{
    return Page { std::move(table), rows == limit ? lastId : std::nullopt };
}

// One status, or every status when `status` is empty (it was validated against `names`).
template<typename Filter, typename Names> Filter statusFilter(const Names& names, const QString& status)
{
    Filter filter;
    if (const auto parsed = names.parse(status))
        filter.statuses = { *parsed };
    return filter;
}

// The outbox filter the options describe.
OutboxFilter outboxFilter(const ArgumentParser& parser, DbSession& session, const QString& status)
{
    OutboxFilter filter = statusFilter<OutboxFilter>(OutboxStatusNames, status);
    filter.eventType = parser.value(QStringLiteral("event-type"));
    filter.aggregateId = parser.value(QStringLiteral("aggregate"));
    filter.errorContains = parser.value(QStringLiteral("error-contains"));
    filter.dedupeKey = parser.value(QStringLiteral("dedupe-key"));
    filter.payloadContains = parser.value(QStringLiteral("payload-contains"));
    if (!filter.payloadContains.isEmpty() && !parser.isSet(QStringLiteral("created-from")))
        throw parser.usageError(QStringLiteral("--payload-contains needs --created-from (e.g. now-1h): no index serves "
                                               "a payload search, so it reads the rows created in that range"));
    if (parser.isSet(QStringLiteral("signature")))
        filter.errorSignature = SignatureOption::resolve(parser, session);
    const QDateTime now = session.serverNow();
    const QTimeZone utc = QTimeZone::utc();
    if (parser.isSet(QStringLiteral("created-from")))
        filter.createdFrom = parser.instant(QStringLiteral("created-from"), now, utc);
    if (parser.isSet(QStringLiteral("created-to")))
        filter.createdTo = parser.instant(QStringLiteral("created-to"), now, utc);
    filter.stuckOnly = parser.isSet(QStringLiteral("stuck"));
    filter.blockingOnly = parser.isSet(QStringLiteral("blocking"));
    return filter;
}

Page outboxPage(DbSession& session, const OutboxFilter& filter, int limit, qint64 beforeId)
{
    const QList<OutboxRowSummary> rows = OutboxReadRepository(session).page(filter, limit, beforeId).rows;
    return makePage(
        ExportTables::outbox(rows), rows.isEmpty() ? std::nullopt : std::optional(rows.last().id), rows.size(), limit);
}

Page keysPage(DbSession& session, const QString& status, int limit, qint64 beforeId)
{
    const QList<IdempotencyRecord> rows
        = IdempotencyRepository(session).page(statusFilter<KeyFilter>(KeyStatusNames, status), limit, beforeId);
    return makePage(
        ExportTables::keys(rows), rows.isEmpty() ? std::nullopt : std::optional(rows.last().id), rows.size(), limit);
}

} // namespace

int ListCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const QStringList what = parser.positionalArguments();
    if (what.size() != 1 || (what.first() != QLatin1String("outbox") && what.first() != QLatin1String("keys")))
        throw parser.usageError(QStringLiteral("say what to list: outbox or keys"));
    const bool outbox = what.first() == QLatin1String("outbox");
    const QString status = parser.isSet(QStringLiteral("status"))
        ? parser.choice(QStringLiteral("status"), outbox ? OutboxStatusNames.names() : KeyStatusNames.names())
        : QString();
    const PageOptions paging = PageOptions::parse(parser);

    if (!outbox) {
        for (const QString& option : OutboxOnlyOptions) {
            if (parser.isSet(option))
                throw parser.usageError(QStringLiteral("--%1 applies to outbox rows only").arg(option));
        }
    }
    const auto session = connect(settings);
    const Page page = outbox
        ? outboxPage(*session, outboxFilter(parser, *session, status), paging.limit, paging.beforeId)
        : keysPage(*session, status, paging.limit, paging.beforeId);
    paging.print(page.table, QStringLiteral("items"), page.nextCursor);
    return ExitCode::Success;
}
