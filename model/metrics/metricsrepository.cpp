// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/metricsrepository.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/sqlvalues.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QTimeZone>

std::optional<double> MetricPoint::duplicateHitRate() const
{
    if (counters.requests == 0)
        return std::nullopt;
    return double(counters.replays) / double(counters.requests);
}

std::optional<double> MetricPoint::retryRate() const
{
    const qint64 attempts = counters.published + counters.failedAttempts;
    if (attempts == 0)
        return std::nullopt;
    return double(counters.failedAttempts) / double(attempts);
}

std::optional<qint64> MetricPoint::publishLatencyQuantileMs(double q) const
{
    const qint64 value
        = LatencyHistogram::quantileMs(counters.publishLatencyHistogram, q, counters.publishLatencyMaxMs);
    if (value < 0)
        return std::nullopt;
    return value;
}

bool MetricsRepository::isSupportedTimeZone(const QString& zoneId)
{
    static const QRegularExpression posixOffset(QStringLiteral("^(UTC|GMT)[+-]"));
    return QTimeZone(zoneId.toUtf8()).isValid() && !posixOffset.match(zoneId).hasMatch();
}

MetricsRepository::MetricsRepository(DbSession& session)
    : m_session(session)
{ }

void MetricsRepository::addRollups(int shard, const QMap<qint64, MetricCounters>& minutes)
{
    if (minutes.isEmpty())
        return;
    QJsonArray rows;
    for (auto it = minutes.cbegin(); it != minutes.cend(); ++it) {
        const MetricCounters& c = it.value();
        QList<qint64> histogram = c.publishLatencyHistogram;
        rows.append(QJsonObject {
            { QStringLiteral("bucket_ms"), it.key() },
            { QStringLiteral("requests"), c.requests },
            { QStringLiteral("executions"), c.executions },
            { QStringLiteral("replays"), c.replays },
            { QStringLiteral("mismatches"), c.mismatches },
            { QStringLiteral("in_progress_rejections"), c.inProgressRejections },
            { QStringLiteral("published"), c.published },
            { QStringLiteral("latency_sum"), c.publishLatencySumMs },
            { QStringLiteral("latency_max"), c.publishLatencyMaxMs },
            { QStringLiteral("hist"), SqlValues::bigintArray(histogram) },
            { QStringLiteral("failed_attempts"), c.failedAttempts },
            { QStringLiteral("dead_letters"), c.deadLetters },
            { QStringLiteral("lease_rescues"), c.leaseRescues },
            { QStringLiteral("consumed"), c.consumed },
            { QStringLiteral("consumer_duplicates"), c.consumerDuplicates },
        });
    }
    m_session.exec(QStringLiteral("SELECT set_config('synchronous_commit', 'off', true)"), {},
        QStringLiteral("writing metric rollups"));
    // Rows are upserted in bucket order, so two writers that share a shard cannot deadlock.
    m_session.exec(
        QStringLiteral(
            "INSERT INTO metric_rollups AS m (bucket, shard, requests, executions, replays, mismatches, "
            "  in_progress_rejections, published, publish_latency_sum_ms, publish_latency_max_ms, "
            "  publish_latency_hist, failed_attempts, dead_letters, lease_rescues, consumed, consumer_duplicates) "
            "SELECT to_timestamp(r.bucket_ms / 1000), ?::smallint, r.requests, r.executions, r.replays, r.mismatches, "
            "  r.in_progress_rejections, r.published, r.latency_sum, r.latency_max, r.hist::bigint[], "
            "  r.failed_attempts, r.dead_letters, r.lease_rescues, r.consumed, r.consumer_duplicates "
            "FROM jsonb_to_recordset(?::jsonb) AS r(bucket_ms bigint, requests bigint, executions bigint, "
            "  replays bigint, mismatches bigint, in_progress_rejections bigint, published bigint, "
            "  latency_sum bigint, latency_max bigint, hist text, failed_attempts bigint, dead_letters bigint, "
            "  lease_rescues bigint, consumed bigint, consumer_duplicates bigint) "
            "ORDER BY r.bucket_ms "
            "ON CONFLICT (bucket, shard) DO UPDATE SET "
            "  requests = m.requests + EXCLUDED.requests, executions = m.executions + EXCLUDED.executions, "
            "  replays = m.replays + EXCLUDED.replays, mismatches = m.mismatches + EXCLUDED.mismatches, "
            "  in_progress_rejections = m.in_progress_rejections + EXCLUDED.in_progress_rejections, "
            "  published = m.published + EXCLUDED.published, "
            "  publish_latency_sum_ms = m.publish_latency_sum_ms + EXCLUDED.publish_latency_sum_ms, "
            "  publish_latency_max_ms = greatest(m.publish_latency_max_ms, EXCLUDED.publish_latency_max_ms), "
            "  publish_latency_hist = ARRAY(SELECT coalesce(a, 0) + coalesce(b, 0) "
            "    FROM unnest(m.publish_latency_hist, EXCLUDED.publish_latency_hist) WITH ORDINALITY AS h(a, b, i) "
            "    ORDER BY h.i), "
            "  failed_attempts = m.failed_attempts + EXCLUDED.failed_attempts, "
            "  dead_letters = m.dead_letters + EXCLUDED.dead_letters, "
            "  lease_rescues = m.lease_rescues + EXCLUDED.lease_rescues, "
            "  consumed = m.consumed + EXCLUDED.consumed, "
            "  consumer_duplicates = m.consumer_duplicates + EXCLUDED.consumer_duplicates"),
        { shard, QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Compact)) },
        QStringLiteral("writing metric rollups"));
}

void MetricsRepository::recordBacklogSample(const BacklogSample& sample)
{
    // The minute keeps the peak of each gauge and the last sample beside it: a backlog that peaks and drains
    // within one minute is still seen in that minute.
    m_session.exec(QStringLiteral("INSERT INTO backlog_samples AS b (bucket, sampled_at, pending, pending_capped, "
                                  "  oldest_pending_ms, last_pending, last_pending_capped, last_oldest_pending_ms) "
                                  "VALUES (date_trunc('minute', now()), now(), ?::bigint, ?::boolean, ?::bigint, "
                                  "  ?::bigint, ?::boolean, ?::bigint) "
                                  "ON CONFLICT (bucket) DO UPDATE SET sampled_at = EXCLUDED.sampled_at, "
                                  "  pending = greatest(b.pending, EXCLUDED.pending), "
                                  "  pending_capped = b.pending_capped OR EXCLUDED.pending_capped, "
                                  "  oldest_pending_ms = greatest(b.oldest_pending_ms, EXCLUDED.oldest_pending_ms), "
                                  "  last_pending = EXCLUDED.last_pending, "
                                  "  last_pending_capped = EXCLUDED.last_pending_capped, "
                                  "  last_oldest_pending_ms = EXCLUDED.last_oldest_pending_ms"),
        { sample.unpublished, sample.capped, sample.oldestUnpublishedAgeMs, sample.unpublished, sample.capped,
            sample.oldestUnpublishedAgeMs },
        QStringLiteral("recording a backlog sample"));
}

QList<MetricPoint> MetricsRepository::series(
    const QDateTime& from, const QDateTime& to, int bucketSeconds, const QString& timeZone)
{
    if (!from.isValid() || !to.isValid() || from > to)
        throw OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("the time window ends before it starts"));
    if (from == to)
        return {}; // an empty window has no buckets
    if (bucketSeconds < 60 || bucketSeconds % 60 != 0)
        throw OutboxError(
            OutboxError::Kind::InvalidInput, QStringLiteral("the bucket must be a whole number of minutes"));
    if (from.secsTo(to) / bucketSeconds > MaxSeriesPoints)
        throw OutboxError(OutboxError::Kind::InvalidInput,
            QStringLiteral("the window holds more than %1 buckets; choose a larger bucket").arg(MaxSeriesPoints));
    if (!isSupportedTimeZone(timeZone))
        throw OutboxError(OutboxError::Kind::InvalidInput,
            QStringLiteral("unknown time zone '%1': use an IANA name such as UTC or Europe/Berlin").arg(timeZone));

    // Buckets are aligned to a local midnight of `timeZone`, so hourly buckets in e.g. Asia/Kolkata start at
    // local whole hours. Histograms are summed element by element, one sum per fixed bucket, in the same single
    // pass over the rollups as the counters.
    static const QString histogramSums = [] {
        QString sums;
        for (int i = 1; i <= LatencyHistogram::Buckets; ++i)
            sums += QStringLiteral(", sum(coalesce(m.publish_latency_hist[%1], 0))::bigint AS h%1").arg(i);
        return sums;
    }();
    static const QString histogramColumns = [] {
        QString columns;
        for (int i = 1; i <= LatencyHistogram::Buckets; ++i)
            columns += QStringLiteral(", coalesce(r.h%1, 0)").arg(i);
        return columns;
    }();
    QSqlQuery& q = m_session.exec(
        QStringLiteral(
            "WITH p AS (SELECT ?::timestamptz AS t0, ?::timestamptz AS t1, make_interval(secs => ?::int) AS stride, "
            "                  timestamp '2000-01-03 00:00:00' AT TIME ZONE ?::text AS origin), "
            "w AS (SELECT date_bin(p.stride, p.t0, p.origin) AS first_slot, p.* FROM p), "
            "slots AS (SELECT generate_series(w.first_slot, w.t1 - interval '1 microsecond', w.stride) AS slot "
            "  FROM w), "
            "roll AS (SELECT date_bin(w.stride, m.bucket, w.origin) AS slot, "
            "    sum(m.requests)::bigint AS requests, sum(m.executions)::bigint AS executions, "
            "    sum(m.replays)::bigint AS replays, sum(m.mismatches)::bigint AS mismatches, "
            "    sum(m.in_progress_rejections)::bigint AS in_progress_rejections, "
            "    sum(m.published)::bigint AS published, sum(m.publish_latency_sum_ms)::bigint AS latency_sum, "
            "    max(m.publish_latency_max_ms) AS latency_max, sum(m.failed_attempts)::bigint AS failed_attempts, "
            "    sum(m.dead_letters)::bigint AS dead_letters, sum(m.lease_rescues)::bigint AS lease_rescues, "
            "    sum(m.consumed)::bigint AS consumed, sum(m.consumer_duplicates)::bigint AS consumer_duplicates")
            + histogramSums
            + QStringLiteral(
                "  FROM metric_rollups m, w WHERE m.bucket >= w.first_slot AND m.bucket < w.t1 GROUP BY 1), "
                "backlog AS (SELECT date_bin(w.stride, b.bucket, w.origin) AS slot, max(b.pending) AS pending, "
                "    bool_or(b.pending_capped) AS capped, max(b.oldest_pending_ms) AS oldest, "
                "    (array_agg(b.last_pending ORDER BY b.bucket DESC))[1] AS last_pending, "
                "    (array_agg(b.last_pending_capped ORDER BY b.bucket DESC))[1] AS last_capped, "
                "    (array_agg(b.last_oldest_pending_ms ORDER BY b.bucket DESC))[1] AS last_oldest "
                "  FROM backlog_samples b, w WHERE b.bucket >= w.first_slot AND b.bucket < w.t1 GROUP BY 1) "
                "SELECT epoch_ms(s.slot), coalesce(r.requests, 0), coalesce(r.executions, 0), "
                "  coalesce(r.replays, 0), coalesce(r.mismatches, 0), coalesce(r.in_progress_rejections, 0), "
                "  coalesce(r.published, 0), coalesce(r.latency_sum, 0), coalesce(r.latency_max, 0), "
                "  coalesce(r.failed_attempts, 0), coalesce(r.dead_letters, 0), coalesce(r.lease_rescues, 0), "
                "  b.pending, b.capped, b.oldest, coalesce(r.consumed, 0), coalesce(r.consumer_duplicates, 0), "
                "  b.last_pending, b.last_capped, b.last_oldest, r.slot IS NOT NULL")
            + histogramColumns
            + QStringLiteral(" FROM slots s LEFT JOIN roll r USING (slot) LEFT JOIN backlog b USING (slot) "
                             "ORDER BY s.slot"),
        { SqlValues::timestamp(from), SqlValues::timestamp(to), bucketSeconds, timeZone },
        QStringLiteral("reading metrics"));
    constexpr int CountedColumn = 20;
    constexpr int FirstHistogramColumn = 21;
    QList<MetricPoint> points;
    while (q.next()) {
        MetricPoint point;
        point.start = SqlValues::instant(q.value(0));
        MetricCounters& c = point.counters;
        c.requests = q.value(1).toLongLong();
        c.executions = q.value(2).toLongLong();
        c.replays = q.value(3).toLongLong();
        c.mismatches = q.value(4).toLongLong();
        c.inProgressRejections = q.value(5).toLongLong();
        c.published = q.value(6).toLongLong();
        c.publishLatencySumMs = q.value(7).toLongLong();
        c.publishLatencyMaxMs = q.value(8).toLongLong();
        c.failedAttempts = q.value(9).toLongLong();
        c.deadLetters = q.value(10).toLongLong();
        c.leaseRescues = q.value(11).toLongLong();
        c.consumed = q.value(15).toLongLong();
        c.consumerDuplicates = q.value(16).toLongLong();
        if (!q.value(12).isNull()) {
            point.backlog = BacklogSample { q.value(12).toLongLong(), q.value(13).toBool(), q.value(14).toLongLong() };
            point.lastBacklog
                = BacklogSample { q.value(17).toLongLong(), q.value(18).toBool(), q.value(19).toLongLong() };
        }
        point.counted = q.value(CountedColumn).toBool();
        for (int i = 0; i < LatencyHistogram::Buckets; ++i)
            c.publishLatencyHistogram[i] = q.value(FirstHistogramColumn + i).toLongLong();
        points.append(point);
    }
    return points;
}
