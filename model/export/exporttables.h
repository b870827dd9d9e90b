// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/recordtable.h"
#include "idempotency/idempotencyrepository.h"
#include "metrics/metricsrepository.h"
#include "outbox/failuregroup.h"
#include "outbox/outboxfilter.h"
#include "outbox/outboxrows.h"

#include <QIODevice>
#include <QTimeZone>
#include <functional>

// The columns of every export, defined once: outboxctl's list and metrics output and the console's exports
// use these, so the same rows or the same metrics window give identical bytes from either.
class ExportTables final {
public:
    static RecordTable outbox(const QList<OutboxRowSummary>& rows);
    static RecordTable keys(const QList<IdempotencyRecord>& rows);
    // The failure groups; with `everyField` also first seen, the sample row and its full error (for JSON and
    // CSV), else what an operator scans in a terminal.
    static RecordTable failureGroups(const QList<FailureGroup>& groups, bool everyField);
    // One row per bucket; bucket_start is ISO-8601 in `zone` with an explicit offset (+00:00 for UTC).
    static RecordTable metrics(const QList<MetricPoint>& points, const QTimeZone& zone);

    // The metrics of [from, to) in `bucketSeconds` buckets of `zone` as RFC 4180 CSV: the one function behind
    // `outboxctl metrics --format csv` and the console's "Export metrics CSV".
    static QByteArray metricsCsv(
        DbSession& session, const QDateTime& from, const QDateTime& to, int bucketSeconds, const QTimeZone& zone);

    // Streams every outbox row matching `filter` to `out` as CSV (RecordTable::Format::Csv) or JSON lines
    // (Format::JsonLines), reading keyset pages of `pageSize`, so memory stays flat for any number of rows.
    // `progress(rowsWritten)` is called after each page; returning false stops. Returns the rows written.
    // Throws OutboxError (with kind Other) if `out` refuses the write.
    static qint64 streamOutbox(DbSession& session, const OutboxFilter& filter, RecordTable::Format format,
        QIODevice& out, const std::function<bool(qint64)>& progress = {}, int pageSize = 1000);
    static qint64 streamKeys(DbSession& session, const KeyFilter& filter, RecordTable::Format format, QIODevice& out,
        const std::function<bool(qint64)>& progress = {}, int pageSize = 1000);

    static QString zonedTimestamp(const QDateTime& instant, const QTimeZone& zone);
};
