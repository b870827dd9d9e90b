// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/exporttables.h"

#include "outbox/outboxreadrepository.h"

#include "db/outboxerror.h"

namespace {

template<typename Row>
qint64 stream(QIODevice& out, RecordTable::Format format, const std::function<QList<Row>(qint64 beforeId)>& page,
    const std::function<RecordTable(const QList<Row>&)>& table, const std::function<bool(qint64)>& progress,
    int pageSize)
{
    qint64 written = 0;
    qint64 cursor = 0;
    for (bool first = true;; first = false) {
        const QList<Row> rows = page(cursor);
        const RecordTable records = table(rows);
        const QByteArray bytes
            = format == RecordTable::Format::JsonLines ? records.jsonLines() : records.csvRecords(first);
        if (out.write(bytes) != bytes.size())
            throw OutboxError(
                OutboxError::Kind::Other, QStringLiteral("cannot write the export: %1").arg(out.errorString()));
        written += rows.size();
        if (rows.size() < pageSize || (progress && !progress(written)))
            return written;
        cursor = rows.last().id;
    }
}

} // namespace

RecordTable ExportTables::outbox(const QList<OutboxRowSummary>& rows)
{
    RecordTable table({ QStringLiteral("id"), QStringLiteral("event_type"), QStringLiteral("aggregate_type"),
        QStringLiteral("aggregate_id"), QStringLiteral("status"), QStringLiteral("attempts"),
        QStringLiteral("next_attempt_at"), QStringLiteral("lease_owner"), QStringLiteral("lease_expires_at"),
        QStringLiteral("created_at"), QStringLiteral("published_at"), QStringLiteral("last_error") });
    for (const OutboxRowSummary& row : rows) {
        table.addRow({ Cell::integer(row.id), Cell::text(row.eventType), Cell::text(row.aggregateType),
            Cell::text(row.aggregateId), Cell::text(OutboxStatusNames.name(row.status)), Cell::integer(row.attempts),
            Cell::instant(row.nextAttemptAt), Cell::text(row.leaseOwner), Cell::instant(row.leaseExpiresAt),
            Cell::instant(row.createdAt), Cell::instant(row.publishedAt), Cell::text(row.lastErrorLine) });
    }
    return table;
}

RecordTable ExportTables::keys(const QList<IdempotencyRecord>& rows)
{
    RecordTable table({ QStringLiteral("id"), QStringLiteral("scope"), QStringLiteral("key"), QStringLiteral("status"),
        QStringLiteral("failure_retryable"), QStringLiteral("response_status"), QStringLiteral("replay_count"),
        QStringLiteral("last_replayed_at"), QStringLiteral("order_id"), QStringLiteral("created_at"),
        QStringLiteral("expires_at"), QStringLiteral("fingerprint") });
    for (const IdempotencyRecord& row : rows) {
        // The list query reads 0 for "no response yet".
        const std::optional<qint64> responseStatus
            = row.responseStatus ? std::optional<qint64>(row.responseStatus) : std::nullopt;
        table.addRow({ Cell::integer(row.id), Cell::text(row.scope), Cell::text(row.key),
            Cell::text(KeyStatusNames.name(row.status)), Cell::boolean(row.failureRetryable),
            Cell::integer(responseStatus), Cell::integer(row.replayCount), Cell::instant(row.lastReplayedAt),
            Cell::integer(row.orderId), Cell::instant(row.createdAt), Cell::instant(row.expiresAt),
            Cell::text(row.fingerprint) });
    }
    return table;
}

RecordTable ExportTables::failureGroups(const QList<FailureGroup>& groups, bool everyField)
{
    QStringList columns { QStringLiteral("id"), QStringLiteral("rows"), QStringLiteral("failed"),
        QStringLiteral("dead"), QStringLiteral("last_seen"), QStringLiteral("event_types"),
        QStringLiteral("signature") };
    if (everyField)
        columns += { QStringLiteral("first_seen"), QStringLiteral("sample_id"), QStringLiteral("sample_error") };
    RecordTable table(columns);
    for (const FailureGroup& group : groups) {
        QList<Cell> cells { Cell::text(group.id), Cell::integer(group.rows()), Cell::integer(group.failed),
            Cell::integer(group.dead), Cell::instant(group.lastSeen),
            Cell::text(group.eventTypes.join(QLatin1Char(','))), Cell::text(group.signature) };
        if (everyField) {
            cells += { Cell::instant(group.firstSeen),
                Cell::integer(group.sampleId ? std::optional(group.sampleId) : std::nullopt),
                Cell::text(group.sampleError) };
        }
        table.addRow(cells);
    }
    return table;
}

QString ExportTables::zonedTimestamp(const QDateTime& instant, const QTimeZone& zone)
{
    const QDateTime local = instant.toTimeZone(zone);
    const int offsetMinutes = local.offsetFromUtc() / 60;
    return local.toString(QStringLiteral("yyyy-MM-dd'T'HH:mm:ss"))
        + QStringLiteral("%1%2:%3")
              .arg(offsetMinutes < 0 ? QLatin1Char('-') : QLatin1Char('+'))
              .arg(qAbs(offsetMinutes) / 60, 2, 10, QLatin1Char('0'))
              .arg(qAbs(offsetMinutes) % 60, 2, 10, QLatin1Char('0'));
}

RecordTable ExportTables::metrics(const QList<MetricPoint>& points, const QTimeZone& zone)
{
    RecordTable table({ QStringLiteral("bucket_start"), QStringLiteral("requests"), QStringLiteral("executions"),
        QStringLiteral("replays"), QStringLiteral("mismatches"), QStringLiteral("in_progress_rejections"),
        QStringLiteral("duplicate_hit_rate"), QStringLiteral("published"), QStringLiteral("publish_latency_p50_ms"),
        QStringLiteral("publish_latency_p95_ms"), QStringLiteral("publish_latency_p99_ms"),
        QStringLiteral("publish_latency_max_ms"), QStringLiteral("failed_attempts"), QStringLiteral("retry_rate"),
        QStringLiteral("dead_letters"), QStringLiteral("lease_rescues"), QStringLiteral("backlog"),
        QStringLiteral("backlog_capped"), QStringLiteral("oldest_pending_age_ms"), QStringLiteral("consumed"),
        QStringLiteral("consumer_duplicates"), QStringLiteral("backlog_last"),
        QStringLiteral("oldest_pending_age_ms_last") });
    for (const MetricPoint& point : points) {
        const MetricCounters& c = point.counters;
        const std::optional<BacklogSample>& backlog = point.backlog;
        const std::optional<BacklogSample>& last = point.lastBacklog;
        table.addRow({ Cell::text(zonedTimestamp(point.start, zone)), Cell::integer(c.requests),
            Cell::integer(c.executions), Cell::integer(c.replays), Cell::integer(c.mismatches),
            Cell::integer(c.inProgressRejections), Cell::rate(point.duplicateHitRate()), Cell::integer(c.published),
            Cell::integer(point.publishLatencyQuantileMs(0.50)), Cell::integer(point.publishLatencyQuantileMs(0.95)),
            Cell::integer(point.publishLatencyQuantileMs(0.99)),
            Cell::integer(c.published ? std::optional<qint64>(c.publishLatencyMaxMs) : std::nullopt),
            Cell::integer(c.failedAttempts), Cell::rate(point.retryRate()), Cell::integer(c.deadLetters),
            Cell::integer(c.leaseRescues), Cell::integer(backlog ? std::optional(backlog->unpublished) : std::nullopt),
            Cell::boolean(backlog ? std::optional(backlog->capped) : std::nullopt),
            Cell::integer(backlog ? std::optional(backlog->oldestUnpublishedAgeMs) : std::nullopt),
            Cell::integer(c.consumed), Cell::integer(c.consumerDuplicates),
            Cell::integer(last ? std::optional(last->unpublished) : std::nullopt),
            Cell::integer(last ? std::optional(last->oldestUnpublishedAgeMs) : std::nullopt) });
    }
    return table;
}

QByteArray ExportTables::metricsCsv(
    DbSession& session, const QDateTime& from, const QDateTime& to, int bucketSeconds, const QTimeZone& zone)
{
    const QList<MetricPoint> points
        = MetricsRepository(session).series(from, to, bucketSeconds, QString::fromUtf8(zone.id()));
    return metrics(points, zone).csvRecords(true);
}

qint64 ExportTables::streamOutbox(DbSession& session, const OutboxFilter& filter, RecordTable::Format format,
    QIODevice& out, const std::function<bool(qint64)>& progress, int pageSize)
{
    OutboxReadRepository repository(session);
    return stream<OutboxRowSummary>(
        out, format, [&](qint64 beforeId) { return repository.page(filter, pageSize, beforeId).rows; }, &outbox,
        progress, pageSize);
}

qint64 ExportTables::streamKeys(DbSession& session, const KeyFilter& filter, RecordTable::Format format, QIODevice& out,
    const std::function<bool(qint64)>& progress, int pageSize)
{
    IdempotencyRepository repository(session);
    return stream<IdempotencyRecord>(
        out, format, [&](qint64 beforeId) { return repository.page(filter, pageSize, beforeId); }, &keys, progress,
        pageSize);
}
