// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/metriccounters.h"
#include "outbox/backlogsample.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <optional>

class DbSession;

// One bucket of a metrics time series.
struct MetricPoint {
    QDateTime start; // UTC instant the bucket starts at
    MetricCounters counters;
    // The backlog gauges of the bucket, if a relay sampled in it: each gauge's peak (over every sample of the
    // bucket, and in a coarser bucket over its minutes), and the bucket's last sample. Charts show the peak.
    std::optional<BacklogSample> backlog;
    std::optional<BacklogSample> lastBacklog;
    // Whether the bucket has rollups: something was counted in it, as opposed to a bucket filled with zeros.
    bool counted = false;

    // A bucket has data when something was counted in it or the backlog was sampled (a running relay samples it
    // every minute, idle or not); a bucket without is one in which nothing that records metrics ran.
    bool hasData() const { return counted || backlog.has_value(); }

    // Derived figures; nullopt where the denominator is zero.
    std::optional<double> duplicateHitRate() const; // replays / requests
    std::optional<double> retryRate() const; // failed attempts / (published + failed attempts)
    std::optional<qint64> publishLatencyQuantileMs(double q) const;
};

class MetricsRepository final {
public:
    static constexpr int ShardCount = 64;
    static constexpr int MaxSeriesPoints = 20'000;

    explicit MetricsRepository(DbSession& session);

    // IANA names that Qt and PostgreSQL both know. POSIX-style offsets such as "UTC+01:00" are refused:
    // PostgreSQL reads them with the opposite sign to Qt, so buckets and labels would disagree.
    static bool isSupportedTimeZone(const QString& zoneId);

    // Adds `minutes` (minute start in ms since epoch -> counters) into the shard's rows. Switches the
    // surrounding transaction to asynchronous commit: counters may lose their last fraction of a second in a
    // crash, which is the price for never making a request wait on a counter's WAL flush.
    void addRollups(int shard, const QMap<qint64, MetricCounters>& minutes);

    // Into the current minute of backlog_samples, which keeps each gauge's peak and the last sample.
    void recordBacklogSample(const BacklogSample& sample);

    // Buckets of `bucketSeconds` covering [from, to), aligned to whole buckets in `timeZone` (an IANA name
    // such as "UTC" or "Europe/Berlin"), zero-filled where nothing happened.
    // An empty window (from == to) has no buckets. Throws OutboxError(InvalidInput) for a window that ends
    // before it starts or is too large, or an unknown time zone.
    QList<MetricPoint> series(const QDateTime& from, const QDateTime& to, int bucketSeconds, const QString& timeZone);

private:
    DbSession& m_session;
};
