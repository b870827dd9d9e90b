// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/latencyhistogram.h"

#include <QList>
#include <QtGlobal>

// Counters of one minute (or one chart bucket). Addable, so rollups from many shards, processes and
// minutes combine by plain summation.
struct MetricCounters {
    qint64 requests = 0; // idempotent requests answered (bad requests excluded)
    qint64 executions = 0; // requests that actually ran the operation
    qint64 replays = 0; // duplicates answered from the stored response
    qint64 mismatches = 0; // same key, different request (422)
    qint64 inProgressRejections = 0; // duplicate while the first was executing (409)
    qint64 published = 0;
    qint64 publishLatencySumMs = 0;
    qint64 publishLatencyMaxMs = 0;
    QList<qint64> publishLatencyHistogram = QList<qint64>(LatencyHistogram::Buckets, 0);
    qint64 failedAttempts = 0;
    qint64 deadLetters = 0;
    qint64 leaseRescues = 0;
    qint64 consumed = 0; // messages consumers applied (through the inbox)
    qint64 consumerDuplicates = 0; // deliveries consumers dropped because their inbox had them already

    void add(const MetricCounters& other)
    {
        requests += other.requests;
        executions += other.executions;
        replays += other.replays;
        mismatches += other.mismatches;
        inProgressRejections += other.inProgressRejections;
        published += other.published;
        publishLatencySumMs += other.publishLatencySumMs;
        publishLatencyMaxMs = qMax(publishLatencyMaxMs, other.publishLatencyMaxMs);
        for (int i = 0; i < LatencyHistogram::Buckets; ++i)
            publishLatencyHistogram[i] += other.publishLatencyHistogram.value(i);
        failedAttempts += other.failedAttempts;
        deadLetters += other.deadLetters;
        leaseRescues += other.leaseRescues;
        consumed += other.consumed;
        consumerDuplicates += other.consumerDuplicates;
    }

    void addPublishLatency(qint64 latencyMs)
    {
        ++published;
        publishLatencySumMs += latencyMs;
        publishLatencyMaxMs = qMax(publishLatencyMaxMs, latencyMs);
        ++publishLatencyHistogram[LatencyHistogram::bucketFor(latencyMs)];
    }
};
