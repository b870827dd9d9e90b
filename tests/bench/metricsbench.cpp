// SPDX-License-Identifier: GPL-3.0-or-later
// How long the metrics charts' query and the CSV export take for long windows (the libpq environment names
// the server). Not a test: it prints numbers for docs/benchmarks.md and the issue notes.
//   pg_virtualenv -t build/tests/bench/metrics-bench [outbox-rows] [shards]   (defaults: 100,000 and 4)
// The series reads only metric_rollups and backlog_samples; the outbox rows are seeded to show that their
// number does not matter.

#include "benchtiming.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "export/exporttables.h"
#include "metrics/metricsrepository.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int outboxRows = argc > 1 ? QByteArray(argv[1]).toInt() : 100'000;
    const int shards = argc > 2 ? QByteArray(argv[2]).toInt() : 4;
    DbSession session(ConnectionSettings(), QStringLiteral("metrics-bench"));
    SchemaMigrator(session).migrate();
    session.execScript(QStringLiteral("TRUNCATE outbox, metric_rollups, backlog_samples RESTART IDENTITY CASCADE"),
        QStringLiteral("reset"));
    session.exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                "  status, published_at) "
                                "SELECT 'order', g::text, 'order.created', '{}', 'b' || g, 'published', now() "
                                "FROM generate_series(1, ?::int) g"),
        { outboxRows }, QStringLiteral("seeding the outbox"));
    // Eight days of per-minute rollups from `shards` writers, with latency histograms, and backlog samples.
    session.exec(
        QStringLiteral(
            "INSERT INTO metric_rollups (bucket, shard, requests, executions, replays, mismatches, "
            "  in_progress_rejections, published, publish_latency_sum_ms, publish_latency_max_ms, "
            "  publish_latency_hist, failed_attempts, dead_letters, lease_rescues) "
            "SELECT m, s, 100, 95, 5, 1, 1, 95, 95 * 40, 900, "
            "  array_fill(3::bigint, ARRAY[24]), 3, 0, 0 "
            "FROM generate_series(date_trunc('minute', now()) - interval '8 days', date_trunc('minute', now()), "
            "  interval '1 minute') m, generate_series(0, ?::int - 1) s"),
        { shards }, QStringLiteral("seeding rollups"));
    session.execScript(QStringLiteral("INSERT INTO backlog_samples (bucket, sampled_at, pending, pending_capped, "
                                      "  oldest_pending_ms) "
                                      "SELECT m, m, 12, false, 3000 FROM generate_series(date_trunc('minute', now()) - "
                                      "  interval '8 days', date_trunc('minute', now()), interval '1 minute') m; "
                                      "ANALYZE metric_rollups; ANALYZE backlog_samples"),
        QStringLiteral("seeding backlog samples"));

    const QDateTime to = QDateTime::currentDateTimeUtc();
    const QDateTime from = to.addDays(-7);
    MetricsRepository metrics(session);
    const double series5m = medianMs(7, [&] { metrics.series(from, to, 300, QStringLiteral("UTC")); });
    const double series1h = medianMs(7, [&] { metrics.series(from, to, 3600, QStringLiteral("Europe/Berlin")); });
    QByteArray csv;
    const double csv1m = medianMs(5, [&] { csv = ExportTables::metricsCsv(session, from, to, 60, QTimeZone("UTC")); });
    std::printf("%d outbox rows, %d rollup shards per minute\n", outboxRows, shards);
    std::printf("7 days at 5-minute buckets (2,016 points)   : %7.1f ms\n", series5m);
    std::printf("7 days at 1-hour buckets, Europe/Berlin      : %7.1f ms\n", series1h);
    std::printf("CSV export, 7 days at 1-minute buckets       : %7.1f ms (%lld rows, %lld bytes)\n", csv1m,
        qint64(csv.count('\n') - 1), qint64(csv.size()));
    return 0;
}
