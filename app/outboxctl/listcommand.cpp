#include "listcommand.h"

#include "argumentparser.h"
#include "console.h"
#include "dbsession.h"
#include "exitcode.h"
#include "idempotencyrepository.h"
#include "outboxrepository.h"
#include "recordtable.h"

#include <functional>
#include <limits>

static const QStringList OutboxStatuses { QStringLiteral("pending"), QStringLiteral("in_flight"),
    QStringLiteral("published"), QStringLiteral("failed"), QStringLiteral("dead") };
static const QStringList KeyStatuses { QStringLiteral("in_progress"), QStringLiteral("completed"),
    QStringLiteral("failed") };

QString ListCommand::summary() const
{
    return QStringLiteral("List outbox rows or idempotency keys, newest first, one page at a time.");
}

QString ListCommand::synopsis() const
{
    return QStringLiteral("outbox|keys [--status S] [--limit N] [--after CURSOR] [--format table|json|csv]");
}

void ListCommand::addOptions(ArgumentParser& parser) const
{
    parser.addPositional(QStringLiteral("what"), QStringLiteral("outbox or keys."), QStringLiteral("outbox|keys"));
    parser.addValue(QStringLiteral("status"), QStringLiteral("S"),
        QStringLiteral("Only rows in this state. outbox: %1; keys: %2.")
            .arg(OutboxStatuses.join(QStringLiteral(", ")), KeyStatuses.join(QStringLiteral(", "))));
    parser.addValue(QStringLiteral("limit"), QStringLiteral("N"), QStringLiteral("Rows per page (1 to 10000)."),
        QStringLiteral("50"));
    parser.addValue(QStringLiteral("after"), QStringLiteral("CURSOR"),
        QStringLiteral("Continue after this cursor (the last id of the previous page)."));
    parser.addValue(
        QStringLiteral("format"), QStringLiteral("F"), QStringLiteral("table, json or csv."), QStringLiteral("table"));
}

namespace {

struct Page {
    RecordTable table;
    std::optional<qint64> nextCursor; // set when the page is full, so more rows may follow
};

template<typename Row>
Page makePage(
    const QList<Row>& rows, int limit, const QStringList& columns, const std::function<QList<Cell>(const Row&)>& cells)
{
    Page page { RecordTable(columns), std::nullopt };
    for (const Row& row : rows)
        page.table.addRow(cells(row));
    if (rows.size() == limit)
        page.nextCursor = rows.last().id;
    return page;
}

// One status, or every status when `status` is empty.
template<typename Filter> Filter statusFilter(const QString& status)
{
    Filter filter;
    if (!status.isEmpty())
        filter.statuses = QStringList { status };
    return filter;
}

Page outboxPage(DbSession& session, const QString& status, int limit, qint64 beforeId)
{
    static const QStringList columns { QStringLiteral("id"), QStringLiteral("event_type"),
        QStringLiteral("aggregate_type"), QStringLiteral("aggregate_id"), QStringLiteral("status"),
        QStringLiteral("attempts"), QStringLiteral("next_attempt_at"), QStringLiteral("lease_owner"),
        QStringLiteral("lease_expires_at"), QStringLiteral("created_at"), QStringLiteral("published_at"),
        QStringLiteral("last_error") };
    return makePage<OutboxRowSummary>(
        OutboxRepository(session).page(statusFilter<OutboxFilter>(status), limit, beforeId).rows, limit, columns,
        [](const OutboxRowSummary& row) {
            return QList<Cell> { Cell::integer(row.id), Cell::text(row.eventType), Cell::text(row.aggregateType),
                Cell::text(row.aggregateId), Cell::text(row.status), Cell::integer(row.attempts),
                Cell::instant(row.nextAttemptAt), Cell::text(row.leaseOwner), Cell::instant(row.leaseExpiresAt),
                Cell::instant(row.createdAt), Cell::instant(row.publishedAt), Cell::text(row.lastErrorLine) };
        });
}

Page keysPage(DbSession& session, const QString& status, int limit, qint64 beforeId)
{
    static const QStringList columns { QStringLiteral("id"), QStringLiteral("scope"), QStringLiteral("key"),
        QStringLiteral("status"), QStringLiteral("failure_retryable"), QStringLiteral("response_status"),
        QStringLiteral("replay_count"), QStringLiteral("last_replayed_at"), QStringLiteral("order_id"),
        QStringLiteral("created_at"), QStringLiteral("expires_at"), QStringLiteral("fingerprint") };
    return makePage<IdempotencyRecord>(
        IdempotencyRepository(session).page(statusFilter<KeyFilter>(status), limit, beforeId), limit, columns,
        [](const IdempotencyRecord& row) {
            // The list query reads 0 for "no response yet".
            const std::optional<qint64> responseStatus
                = row.responseStatus ? std::optional<qint64>(row.responseStatus) : std::nullopt;
            return QList<Cell> { Cell::integer(row.id), Cell::text(row.scope), Cell::text(row.key),
                Cell::text(row.status), Cell::boolean(row.failureRetryable), Cell::integer(responseStatus),
                Cell::integer(row.replayCount), Cell::instant(row.lastReplayedAt), Cell::integer(row.orderId),
                Cell::instant(row.createdAt), Cell::instant(row.expiresAt), Cell::text(row.fingerprint) };
        });
}

} // namespace

int ListCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const QStringList what = parser.positionalArguments();
    if (what.size() != 1 || (what.first() != QLatin1String("outbox") && what.first() != QLatin1String("keys")))
        throw parser.usageError(QStringLiteral("say what to list: outbox or keys"));
    const bool outbox = what.first() == QLatin1String("outbox");
    const QString status = parser.isSet(QStringLiteral("status"))
        ? parser.choice(QStringLiteral("status"), outbox ? OutboxStatuses : KeyStatuses)
        : QString();
    const int limit = int(parser.integer(QStringLiteral("limit"), 1, 10'000));
    const qint64 beforeId = parser.isSet(QStringLiteral("after"))
        ? parser.integer(QStringLiteral("after"), 1, std::numeric_limits<qint64>::max())
        : 0;
    const RecordTable::Format format = RecordTable::formatNamed(parser.choice(
        QStringLiteral("format"), { QStringLiteral("table"), QStringLiteral("json"), QStringLiteral("csv") }));

    const auto session = connect(settings);
    const Page page
        = outbox ? outboxPage(*session, status, limit, beforeId) : keysPage(*session, status, limit, beforeId);
    const QJsonValue nextCursor = page.nextCursor ? QJsonValue(QString::number(*page.nextCursor)) : QJsonValue::Null;
    Console::write(
        page.table.render(format, QStringLiteral("items"), { { QStringLiteral("next_cursor"), nextCursor } }));
    if (page.nextCursor && format != RecordTable::Format::Json)
        Console::hint(QStringLiteral("next page: --after %1").arg(*page.nextCursor));
    return ExitCode::Success;
}
