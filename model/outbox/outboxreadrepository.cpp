// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxreadrepository.h"

#include "db/dbsession.h"
#include "db/keysetquery.h"
#include "db/outboxerror.h"
#include "db/sqlvalues.h"
#include "db/unitofwork.h"
#include "outbox/outboxlogbounds.h"
#include "outbox/outboxpartitions.h"
#include "outbox/stuckrowclassifier.h"

#include <QSqlQuery>
#include <algorithm>

namespace {

// How many of the newest rows a search for an error text among failures looks at before it turns to the trigram
// index: ten pages at the console's page size, so an error on one row in ten fills a page from them.
constexpr int ErrorSearchWindowRows = 2000;

// A stuck failed row is overdue: its next attempt is older than the threshold. Failed rows wait for a next attempt
// in the future, so in calm none is overdue, and walking the failed rows in id order for overdue ones reads them all
// (47 ms for 306,000 failed rows at 10 M, heap-fetching each to read its next attempt). While fewer than this many
// pending and failed rows are overdue (counted from at most as many entries of outbox_due_idx, which holds both),
// the overdue failed ones are collected through outbox_due_idx and sorted instead; when more are, as during an
// outage, they are common and the walk meets a page of them soon. (Pending rows are walked: a pending row is due
// from its creation, so it is overdue once older than the threshold, and only the newest few minutes' rows lie in
// the walk's way.)
constexpr int OverdueCollectCap = 10000;

const QString SummaryColumns
    = QStringLiteral("id, aggregate_type, aggregate_id, event_type, status, attempts, epoch_ms(next_attempt_at), "
                     "left(split_part(last_error, E'\\n', 1), 200), lease_owner, epoch_ms(lease_expires_at), "
                     "epoch_ms(created_at), epoch_ms(published_at), ordering_key");

OutboxRowSummary summaryFromRow(const QSqlQuery& q)
{
    return OutboxRowSummary { q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
        q.value(3).toString(), OutboxStatusNames.fromColumn(q.value(4)), q.value(5).toInt(),
        SqlValues::instant(q.value(6)), q.value(7).toString(), q.value(8).toString(), SqlValues::instant(q.value(9)),
        SqlValues::instant(q.value(10)), SqlValues::instant(q.value(11)), q.value(12).toString() };
}

// `text` as a case-insensitive substring of the text expression `column`, literally (no LIKE wildcards).
SqlFragment containsText(const QString& column, const QString& text)
{
    return { column + QStringLiteral(" ILIKE '%' || ?::text || '%' ESCAPE '\\'"), { SqlValues::likeLiteral(text) } };
}

// Case-insensitive substring of last_error; the trigram index serves it (migration 0007).
SqlFragment errorContains(const QString& text)
{
    return containsText(QStringLiteral("last_error"), text);
}

// The statuses a filter lists rows of: all of them when it names none; only dead rows block their key
// (outbox_blocking_idx serves the branch).
QList<OutboxStatus> listedStatuses(const OutboxFilter& filter)
{
    QList<OutboxStatus> statuses
        = SqlValues::distinct(filter.statuses.isEmpty() ? OutboxStatusNames.values() : filter.statuses);
    if (filter.blockingOnly)
        statuses.removeIf([](OutboxStatus status) { return status != OutboxStatus::Dead; });
    return statuses;
}

// The rows matching `filter` as a keyset query, or nullopt when no row can match (e.g. "stuck" published rows).
// `firstId`: no row created in the filter's range has a lower id (OutboxPartitions::firstIdCreatedFrom).
// `logBounds`: logBoundsFor()'s; null when no row of the log can match.
std::optional<KeysetQuery> filteredQuery(
    const OutboxFilter& filter, const QString& columns, std::optional<qint64> firstId, const OutboxLogBounds* logBounds)
{
    KeysetQuery query(QStringLiteral("outbox_messages"), columns);
    if (!filter.eventType.isEmpty())
        query.require(QStringLiteral("event_type = ?::text"), { filter.eventType });
    if (!filter.aggregateId.isEmpty())
        query.require(QStringLiteral("aggregate_id = ?::text"), { filter.aggregateId });
    if (!filter.dedupeKey.isEmpty()) {
        // At most one row per partition, found by its unique index on the key: walking the statuses in id order for
        // it would read the whole table when no row has the key.
        query.require(QStringLiteral("dedupe_key = ?::text"), { filter.dedupeKey });
        query.collectBeforeOrdering();
    }
    if (!filter.payloadContains.isEmpty()) {
        const SqlFragment condition = containsText(QStringLiteral("payload::text"), filter.payloadContains);
        query.require(condition.sql, condition.binds);
    }
    if (!filter.errorContains.isEmpty()) {
        const SqlFragment condition = errorContains(filter.errorContains);
        query.require(condition.sql, condition.binds);
        // The trigram index finds the matches in no particular order; walking the statuses in id order instead
        // reads the whole table when they are rare (2.3 s at 10 M rows).
        query.collectBeforeOrdering();
    }
    if (!filter.errorSignature.isEmpty())
        query.require(QStringLiteral("error_signature = ?::text"), { filter.errorSignature });
    // In literals, not binds: a generic plan proves outbox_blocking_idx's predicate only from them.
    if (filter.blockingOnly)
        query.require(QStringLiteral("stored_status = 'dead' AND ordering_key IS NOT NULL"));
    if (!filter.ids.isEmpty())
        query.require(QStringLiteral("id = ANY(?::bigint[])"), { SqlValues::bigintArray(filter.ids) });
    if (filter.createdFrom.isValid())
        query.require(QStringLiteral("created_at >= ?::timestamptz"), { SqlValues::timestamp(filter.createdFrom) });
    if (filter.createdTo.isValid())
        query.require(QStringLiteral("created_at < ?::timestamptz"), { SqlValues::timestamp(filter.createdTo) });
    // The partitions whose rows were all created before the range are not read (partition pruning).
    if (firstId)
        query.require(QStringLiteral("id >= ?::bigint"), { *firstId });
    if (filter.unchangedForMs > 0) {
        query.require(
            QStringLiteral("updated_at < now() - ?::bigint * interval '1 millisecond'"), { filter.unchangedForMs });
    }
    // A created-time range is read from (status, created_at, id), wherever in the table's history it lies.
    const bool createdOrder = filter.createdFrom.isValid() || filter.createdTo.isValid();
    if (createdOrder)
        query.orderBy(QStringLiteral("created_at"));
    // One branch per distinct status, all of them when the filter names none: every index of a filter the console
    // offers leads with the status or follows it, so each branch reads its rows in order from one index. (Over
    // all statuses at once, an event type that matches nothing walks the whole primary key.)
    // The log's rows are those with no stored status (NULL): ordered within the branch's status, they are read from
    // the indexes leading with it, in order, like those of any other branch.
    query.orderBranchesWithin(QStringLiteral("stored_status"));
    const QList<OutboxStatus> statuses = listedStatuses(filter);
    if (!filter.errorContains.isEmpty() && !filter.stuckOnly) {
        // One search over the statuses: the planner combines the trigram index with nothing, or with the
        // other indexes it judges worth it; a status condition naming every status would only mislead it. Only rows
        // off the log have an error (a row of the log was never tried, or published at its first try).
        if (statuses.size() < OutboxStatusNames.values().size()) {
            query.require(QStringLiteral("stored_status = ANY(?::text[])"),
                { SqlValues::nameArray(OutboxStatusNames.names(statuses)) });
        }
        return query;
    }
    if (statuses.isEmpty())
        return std::nullopt;
    if (!filter.stuckOnly) {
        for (const SqlFragment& branch : outboxStatusBranches(statuses, logBounds, !createdOrder))
            query.addBranch(branch.sql, branch.binds);
        return query;
    }
    bool anyBranch = false;
    for (const OutboxStatus status : statuses) {
        const QString stuck = StuckRowClassifier::condition(status);
        if (stuck.isEmpty())
            continue;
        QVariantList binds;
        if (StuckRowClassifier::needsThreshold(status))
            binds.append(filter.stuckThresholdMs);
        anyBranch = true;
        if (status != OutboxStatus::Failed) {
            for (const SqlFragment& branch : outboxStatusBranches({ status }, logBounds, !createdOrder))
                query.addBranch(branch.sql + QStringLiteral(" AND ") + stuck, branch.binds + binds);
            continue;
        }
        const KeysetQuery::FewMatches fewOverdue {
            { QStringLiteral("(SELECT count(*) FROM (SELECT 1 FROM outbox WHERE status IN ('pending', 'failed') "
                             "AND %1 LIMIT ?::int) overdue) < ?::int")
                    .arg(stuck),
                { filter.stuckThresholdMs, OverdueCollectCap, OverdueCollectCap } },
            QStringLiteral("next_attempt_at, id"), OverdueCollectCap
        };
        query.addBranch(QStringLiteral("stored_status = 'failed' AND ") + stuck, binds, fewOverdue);
    }
    if (!anyBranch)
        return std::nullopt;
    return query;
}

} // namespace

OutboxReadRepository::OutboxReadRepository(DbSession& session)
    : m_session(session)
{ }

std::optional<qint64> OutboxReadRepository::firstIdOf(const OutboxFilter& filter)
{
    if (!filter.createdFrom.isValid())
        return std::nullopt;
    return OutboxPartitions(m_session).firstIdCreatedFrom(filter.createdFrom);
}

static void requireBoundedPayloadSearch(const OutboxFilter& filter)
{
    if (!filter.payloadContains.isEmpty() && !filter.createdFrom.isValid())
        throw OutboxError(OutboxError::Kind::InvalidInput,
            QStringLiteral("a payload search needs a created-from time: no index serves it, so it reads the rows "
                           "created in a range"));
}

// What the filter's branches need of the log: nothing when no row of the log can match it (it has no error, nor
// its signature: only rows off the log were ever tried); else its bounds, read when the branches need them, in a
// transaction whose snapshot the list's own statements then share (`snapshot`, begun for it unless the caller has
// one open).
static std::optional<OutboxLogBounds> logBoundsFor(
    DbSession& session, const OutboxFilter& filter, std::optional<qint64> firstId, std::optional<UnitOfWork>& snapshot)
{
    if (!filter.errorContains.isEmpty() || !filter.errorSignature.isEmpty())
        return std::nullopt;
    QList<OutboxStatus> statuses = listedStatuses(filter);
    if (filter.stuckOnly)
        statuses.removeIf([](OutboxStatus status) { return StuckRowClassifier::condition(status).isEmpty(); });
    if (!OutboxLogBounds::neededFor(statuses, filter.stuckOnly))
        return OutboxLogBounds {};
    UnitOfWork::beginReadSnapshot(session, snapshot, QStringLiteral("listing outbox rows"));
    return OutboxLogBounds::readFrom(session, firstId);
}

OutboxPage OutboxReadRepository::page(const OutboxFilter& filter, int limit, qint64 beforeId)
{
    requireBoundedPayloadSearch(filter);
    OutboxPage page;
    const std::optional<qint64> firstId = firstIdOf(filter);
    std::optional<UnitOfWork> snapshot;
    const std::optional<OutboxLogBounds> logBounds = logBoundsFor(m_session, filter, firstId, snapshot);
    const OutboxLogBounds* logRows = logBounds ? &*logBounds : nullptr;
    page.serverNow = m_session.serverNow();
    // Stuck rows are mostly failed and dead ones too.
    const bool amongFailures = filter.stuckOnly
        || (!filter.statuses.isEmpty()
            && std::all_of(filter.statuses.cbegin(), filter.statuses.cend(),
                [](OutboxStatus status) { return status == OutboxStatus::Failed || status == OutboxStatus::Dead; }));
    if (!filter.errorContains.isEmpty() && amongFailures) {
        // Among failed and dead rows, where errors live, a searched error is often a frequent one: first the newest
        // rows matching every other filter, in list order, searched for the text. When a page's worth of them
        // match, that is the page, read in milliseconds; otherwise the trigram search, whose cost grows with the
        // number of matches (58,000 matches: about 90 ms at 10 M rows).
        OutboxFilter others = filter;
        others.errorContains.clear();
        const std::optional<KeysetQuery> recent
            = filteredQuery(others, SummaryColumns + QStringLiteral(", last_error"), firstId, logRows);
        if (!recent)
            return page;
        const SqlFragment windowed
            = recent->buildWithin(ErrorSearchWindowRows, errorContains(filter.errorContains), true, beforeId, limit);
        page.rows = SqlValues::collect(
            m_session.exec(windowed.sql, windowed.binds, QStringLiteral("listing outbox rows")), summaryFromRow);
        if (page.rows.size() == limit)
            return page;
        // Fewer rows than the window match the other filters (stuck rows in calm): all of them were searched, and
        // the page is complete without the trigram search, which would read every row with the text.
        const SqlFragment window = filteredQuery(others, QStringLiteral("id"), firstId, logRows)
                                       ->build(true, beforeId, ErrorSearchWindowRows);
        QSqlQuery& windowRows
            = m_session.exec(QStringLiteral("SELECT count(*) FROM (") + window.sql + QStringLiteral(") window_rows"),
                window.binds, QStringLiteral("listing outbox rows"));
        if (windowRows.next() && windowRows.value(0).toLongLong() < ErrorSearchWindowRows)
            return page;
    }
    const std::optional<KeysetQuery> query = filteredQuery(filter, SummaryColumns, firstId, logRows);
    if (!query)
        return page;
    const SqlFragment built = query->build(true, beforeId, limit);
    page.rows = SqlValues::collect(
        m_session.exec(built.sql, built.binds, QStringLiteral("listing outbox rows")), summaryFromRow);
    return page;
}

QList<qint64> OutboxReadRepository::matchingIds(const OutboxFilter& filter, int limit, qint64 afterId)
{
    requireBoundedPayloadSearch(filter);
    const std::optional<qint64> firstId = firstIdOf(filter);
    std::optional<UnitOfWork> snapshot;
    const std::optional<OutboxLogBounds> logBounds = logBoundsFor(m_session, filter, firstId, snapshot);
    const OutboxLogBounds* logRows = logBounds ? &*logBounds : nullptr;
    const std::optional<KeysetQuery> query = filteredQuery(filter, QStringLiteral("id"), firstId, logRows);
    if (!query)
        return {};
    const SqlFragment built = query->build(false, afterId, limit);
    return SqlValues::collect(m_session.exec(built.sql, built.binds, QStringLiteral("selecting outbox rows")),
        [](const QSqlQuery& q) { return q.value(0).toLongLong(); });
}

QList<OutboxRowSummary> OutboxReadRepository::rowsByIds(const QList<qint64>& ids)
{
    return SqlValues::collect(
        m_session.exec(QStringLiteral("SELECT ") + SummaryColumns
                + QStringLiteral(" FROM outbox_messages WHERE id = ANY(?::bigint[]) ORDER BY id DESC"),
            { SqlValues::bigintArray(ids) }, QStringLiteral("refreshing outbox rows")),
        summaryFromRow);
}

QList<OutboxRowSummary> OutboxReadRepository::oldestUnpublished(int limit, const QList<qint64>& oldestOfTheLog)
{
    // Off the log outbox_unpublished_created_idx, in its order; of the log the rows the caller found oldest.
    return SqlValues::collect(
        m_session.exec(QStringLiteral("SELECT ") + SummaryColumns
                + QStringLiteral(" FROM outbox_messages WHERE id IN ("
                                 "  (SELECT id FROM outbox WHERE %1 ORDER BY created_at, id LIMIT ?::int) "
                                 "  UNION ALL SELECT unnest(?::bigint[])) "
                                 "ORDER BY created_at, id LIMIT ?::int")
                      .arg(QLatin1String(BacklogCondition)),
            { limit, SqlValues::bigintArray(oldestOfTheLog), limit },
            QStringLiteral("reading the oldest unpublished rows")),
        summaryFromRow);
}

std::optional<OutboxRowSummary> OutboxReadRepository::keyHead(const OutboxRowSummary& row)
{
    if (row.orderingKey.isEmpty())
        return std::nullopt;
    // outbox_ordering_idx: the key's first entry.
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT ") + SummaryColumns
            + QStringLiteral(" FROM outbox_messages WHERE ordering_key = ?::text AND id < ?::bigint "
                             "  AND stored_status IN ('pending', 'in_flight', 'failed', 'dead') ORDER BY id LIMIT 1"),
        { row.orderingKey, row.id }, QStringLiteral("reading the row that outbox row %1 waits behind").arg(row.id));
    if (!q.next())
        return std::nullopt;
    return summaryFromRow(q);
}

qint64 OutboxReadRepository::waitingBehind(const OutboxRowSummary& row, int cap)
{
    if (row.orderingKey.isEmpty())
        return 0;
    // outbox_ordering_idx, at most cap entries.
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT count(*) FROM (SELECT 1 FROM outbox WHERE ordering_key = ?::text AND id > ?::bigint "
                       "  AND status = 'waiting' LIMIT ?::int) w"),
        { row.orderingKey, row.id, cap }, QStringLiteral("counting the rows behind outbox row %1").arg(row.id));
    return q.next() ? q.value(0).toLongLong() : 0;
}

std::optional<OutboxRowDetail> OutboxReadRepository::detail(qint64 id)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT ") + SummaryColumns
            + QStringLiteral(", dedupe_key, payload::text, headers::text, coalesce(last_error, ''), lease_token, "
                             "epoch_ms(updated_at) FROM outbox_messages WHERE id = ?::bigint"),
        { id }, QStringLiteral("reading outbox row %1").arg(id));
    if (!q.next())
        return std::nullopt;
    return OutboxRowDetail { summaryFromRow(q), q.value(13).toString(), q.value(14).toString().toUtf8(),
        q.value(15).toString().toUtf8(), q.value(16).toString(), q.value(17).toLongLong(),
        SqlValues::instant(q.value(18)) };
}

QList<OutboxAttempt> OutboxReadRepository::attempts(qint64 outboxId, int limit)
{
    QSqlQuery& q
        = m_session.exec(QStringLiteral("SELECT attempt, worker, error, epoch_ms(created_at) FROM outbox_attempts "
                                        "WHERE outbox_id = ?::bigint ORDER BY id DESC LIMIT ?::int"),
            { outboxId, limit }, QStringLiteral("reading the attempt history"));
    return SqlValues::collect(q, [](const QSqlQuery& row) {
        return OutboxAttempt { row.value(0).toInt(), row.value(1).toString(), row.value(2).toString(),
            SqlValues::instant(row.value(3)) };
    });
}

int OutboxReadRepository::attemptCount(qint64 outboxId)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT count(*) FROM outbox_attempts WHERE outbox_id = ?::bigint"),
        { outboxId }, QStringLiteral("counting the attempt history"));
    q.next();
    return q.value(0).toInt();
}

QList<OutboxRowSummary> OutboxReadRepository::forAggregate(
    const QString& aggregateType, const QString& aggregateId, int limit)
{
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT ") + SummaryColumns
            + QStringLiteral(" FROM outbox_messages WHERE aggregate_id = ?::text AND aggregate_type = ?::text "
                             "ORDER BY id DESC LIMIT ?::int"),
        { aggregateId, aggregateType, limit }, QStringLiteral("reading the aggregate's events"));
    return SqlValues::collect(q, summaryFromRow);
}

BacklogSample OutboxReadRepository::sampleBacklog(int countCap)
{
    // Off the log the partial index of unpublished rows, the count stopping at the cap; in the log the rows not yet
    // published, read within the cap in all: where that stopped before a lane's end, the count is a lower bound.
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT (SELECT count(*) FROM (SELECT 1 FROM outbox WHERE %1 LIMIT ?::int) s) + log.rows, "
                       "  coalesce(epoch_ms(now()) - epoch_ms(least((SELECT min(created_at) FROM outbox WHERE %1), "
                       "                                            log.oldest_created_at)), 0), "
                       "  coalesce(log.more, false) "
                       "FROM (SELECT count(*) FILTER (WHERE NOT u.more) AS rows, "
                       "        min(u.created_at) AS oldest_created_at, bool_or(u.more) AS more "
                       "      FROM outbox_log_unpublished_within(?::int) u) log")
            .arg(QLatin1String(BacklogCondition)),
        { countCap + 1, countCap + 1 }, QStringLiteral("sampling the outbox backlog"));
    q.next();
    const qint64 counted = q.value(0).toLongLong();
    return BacklogSample { qMin<qint64>(counted, countCap), counted > countCap || q.value(2).toBool(),
        q.value(1).toLongLong() };
}
