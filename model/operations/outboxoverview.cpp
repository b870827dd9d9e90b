// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/outboxoverview.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/sqlvalues.h"
#include "db/unitofwork.h"
#include "metrics/metricsrepository.h"
#include "operations/publishpauses.h"
#include "operations/relayfleet.h"
#include "outbox/failuregrouprepository.h"
#include "outbox/outboxreadrepository.h"
#include "outbox/stuckrowclassifier.h"

#include <QSqlQuery>
#include <algorithm>
#include <optional>

namespace {

// count(*) over at most cap + 1 index entries: the cost is bounded by the cap, not by the table.
QString cappedCount(const QString& condition)
{
    return QStringLiteral("(SELECT count(*) FROM (SELECT 1 FROM outbox WHERE %1 LIMIT ?::int) c)").arg(condition);
}

CappedCount capped(qint64 counted, bool atLeast = false)
{
    return CappedCount::of(counted, OutboxOverview::CountCap, atLeast);
}

// Counts that reached the cap get the planner's estimate: the share of the status among the most common values
// of each partition's status (pg_stats, kept by ANALYZE and autovacuum, which analyse the partitions, never the
// partitioned table) times the partition's estimated rows. One catalogue read, whatever the table's size; a status
// too rare to be among the most common values stays "cap+".
void estimateCapped(DbSession& session, OutboxOverview& overview)
{
    const std::pair<OutboxStatus, CappedCount*> counts[]
        = { { OutboxStatus::Pending, &overview.pending }, { OutboxStatus::InFlight, &overview.inFlight },
              { OutboxStatus::Failed, &overview.failed }, { OutboxStatus::Dead, &overview.dead },
              { OutboxStatus::Waiting, &overview.waiting }, { OutboxStatus::Paused, &overview.paused } };
    if (std::none_of(std::begin(counts), std::end(counts), [](const auto& count) { return count.second->capped; }))
        return;
    QSqlQuery& q = session.exec(
        QStringLiteral("SELECT v.status, sum(round(v.freq * greatest(c.reltuples, 0)))::bigint "
                       "FROM pg_partition_tree('outbox') t JOIN pg_class c ON c.oid = t.relid "
                       "  JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = c.relname "
                       "    AND s.attname = 'status', "
                       "  LATERAL unnest(s.most_common_vals::text::text[], s.most_common_freqs) AS v(status, freq) "
                       "WHERE t.isleaf GROUP BY v.status"),
        {}, QStringLiteral("estimating the counts"));
    while (q.next()) {
        const std::optional<OutboxStatus> status = OutboxStatusNames.parse(q.value(0).toString());
        for (const auto& [counted, count] : counts) {
            // An estimate below the exact lower bound is stale statistics: the bound is the better answer.
            if (status == counted && count->capped && q.value(1).toLongLong() > count->value)
                count->estimate = q.value(1).toLongLong();
        }
    }
}

// The backlog this overview shows is a sample of its minute (migration 0026): the charts' peak for the minute is
// raised to it, so they never show less than the Overview did. A role without the function's grant (neither viewer
// nor operator) still sees its overview; the peak then stays the relays'.
void noteBacklog(DbSession& session, const OutboxOverview& overview)
{
    const CappedCount* const backlog[]
        = { &overview.pending, &overview.inFlight, &overview.failed, &overview.waiting, &overview.paused };
    qint64 unpublished = 0;
    bool capped = false;
    for (const CappedCount* count : backlog) {
        unpublished += count->value;
        capped = capped || count->capped;
    }
    try {
        session.exec(QStringLiteral("SELECT outbox_note_backlog(?::bigint, ?::boolean, ?::bigint, ?::timestamptz)"),
            { unpublished, capped, overview.oldestUnpublishedAgeMs.value_or(0),
                SqlValues::timestamp(overview.serverNow) },
            QStringLiteral("noting the backlog shown"));
    } catch (const OutboxError& error) {
        if (error.kind() != OutboxError::Kind::Permission)
            throw;
    }
}

// The last hour per minute, and the rates and totals from it. Read after the backlog this overview shows was noted, so
// that the chart's minute in progress holds at least that backlog; a rollup only grows, so reading it a moment after
// the figures above adds no contradiction with them.
void readLastHour(DbSession& session, OutboxOverview& overview)
{
    overview.lastHour = MetricsRepository(session).series(
        overview.serverNow.addSecs(-3600), overview.serverNow, 60, QStringLiteral("UTC"));
    QList<const MetricPoint*> window; // the last RecentMinutes complete minutes, newest first
    for (auto point = overview.lastHour.crbegin(); point != overview.lastHour.crend(); ++point) {
        overview.lastHourTotals.add(point->counters);
        const bool complete = point->start.addSecs(60) <= overview.serverNow;
        if (complete && window.size() < OutboxOverview::RecentMinutes)
            window.append(&*point);
    }
    // From the oldest minute with data on: the empty minutes after it count (a stall is a rate of 0), those before
    // it do not (dividing by them made a relay that had run two minutes publish at two fifths of its rate).
    const auto firstWithData
        = std::find_if(window.crbegin(), window.crend(), [](const MetricPoint* point) { return point->hasData(); });
    overview.rateMinutes = int(window.crend() - firstWithData);
    MetricPoint recent;
    for (int minute = 0; minute < overview.rateMinutes; ++minute)
        recent.counters.add(window.at(minute)->counters);
    overview.publishedPerMinute = overview.rateMinutes ? double(recent.counters.published) / overview.rateMinutes : 0.0;
    overview.duplicateHitRate = recent.duplicateHitRate();
}

} // namespace

OutboxOverview OutboxOverview::load(DbSession& session, qint64 stuckThresholdMs)
{
    const QString stuckInFlight
        = QStringLiteral("status = 'in_flight' AND ") + StuckRowClassifier::condition(OutboxStatus::InFlight);
    const QString stuckDue
        = QStringLiteral("status IN ('pending', 'failed') AND ") + StuckRowClassifier::condition(OutboxStatus::Pending);
    const int limit = CountCap + 1;
    // Every figure of one overview from one snapshot: read statement by statement, a row committed between the counts
    // and the list of waiting rows was listed beside counts that said nothing waits. Read only: the one write, the
    // backlog noted for the charts, comes after, in a transaction of its own, and the last hour's chart after that.
    // A caller's transaction is the snapshot instead (its figures are then of its own moment), and the backlog is
    // noted in it.
    std::optional<UnitOfWork> snapshot;
    UnitOfWork::beginReadSnapshot(session, snapshot, QStringLiteral("reading the overview"));
    // The rows of the log (migration 0028) not yet published are counted within the cap in all
    // (outbox_log_unpublished_within()); where it stopped before a lane's end, the counts it gave are lower bounds:
    // pending always, in flight if a lane it did not finish is leased, stuck if that lane's lease expired or its
    // next row is overdue (the rows of a lane come in id order, and so about in the order they were written).
    QSqlQuery& q = session.exec(QStringLiteral("SELECT ")
            + QStringList { cappedCount(QStringLiteral("status = 'pending'")),
                cappedCount(QStringLiteral("status = 'in_flight'")), cappedCount(QStringLiteral("status = 'failed'")),
                cappedCount(QStringLiteral("status = 'dead'")), cappedCount(stuckInFlight), cappedCount(stuckDue),
                cappedCount(QStringLiteral("status = 'waiting'")),
                // outbox_blocking_idx; a key has one dead row at a time, since its later rows are never claimed.
                cappedCount(QStringLiteral("status = 'dead' AND ordering_key IS NOT NULL")),
                cappedCount(QStringLiteral("status = 'paused'")) }
                  .join(QStringLiteral(", "))
            + QStringLiteral(", epoch_ms(now()) - epoch_ms(least((SELECT min(created_at) FROM outbox WHERE ")
            + QLatin1String(BacklogCondition)
            + QStringLiteral("), log.oldest)), epoch_ms(now()), "
                             // outbox_published_at_idx: one index entry, however many rows were published; each
                             // lane's last batch.
                             "  epoch_ms(now()) - epoch_ms(greatest("
                             "    (SELECT max(published_at) FROM outbox WHERE status = 'published'), "
                             "    (SELECT max(b.settled_at) FROM outbox_lanes l CROSS JOIN LATERAL ("
                             "       SELECT x.settled_at FROM outbox_lane_batches x WHERE x.lane = l.lane "
                             "       ORDER BY x.lease_token DESC LIMIT 1) b))), "
                             "  log.pending, log.in_flight, log.lease_expired, log.overdue, "
                             "  coalesce(log.more, false), coalesce(log.more_in_flight, false), "
                             "  coalesce(log.more_stuck, false), log.oldest_ids "
                             "FROM (SELECT count(*) FILTER (WHERE NOT u.more AND u.status = 'pending') AS pending, "
                             "        count(*) FILTER (WHERE NOT u.more AND u.status = 'in_flight') AS in_flight, "
                             "        count(*) FILTER (WHERE NOT u.more AND u.lease_expires_at < now()) "
                             "          AS lease_expired, "
                             "        count(*) FILTER (WHERE NOT u.more AND u.status = 'pending' "
                             "          AND u.created_at < b.overdue_before) AS overdue, "
                             "        min(u.created_at) AS oldest, bool_or(u.more) AS more, "
                             "        bool_or(u.more AND u.lease_expires_at IS NOT NULL) AS more_in_flight, "
                             "        bool_or(u.more AND (u.lease_expires_at < now() "
                             "          OR u.created_at < b.overdue_before)) AS more_stuck, "
                             "        (array_agg(u.id ORDER BY u.created_at, u.id))[1:?::int]::text AS oldest_ids "
                             "      FROM (SELECT now() - ?::bigint * interval '1 millisecond' AS overdue_before) b "
                             "      CROSS JOIN outbox_log_unpublished_within(?::int) u) log"),
        { limit, limit, limit, limit, limit, stuckThresholdMs, limit, limit, limit, limit, ExplainedRows,
            stuckThresholdMs, limit },
        QStringLiteral("reading the overview"));
    q.next();
    OutboxOverview overview;
    overview.pending = capped(q.value(0).toLongLong() + q.value(12).toLongLong(), q.value(16).toBool());
    overview.inFlight = capped(q.value(1).toLongLong() + q.value(13).toLongLong(), q.value(17).toBool());
    overview.failed = capped(q.value(2).toLongLong());
    overview.dead = capped(q.value(3).toLongLong());
    overview.stuck = capped(
        q.value(4).toLongLong() + q.value(5).toLongLong() + q.value(14).toLongLong() + q.value(15).toLongLong(),
        q.value(18).toBool());
    overview.waiting = capped(q.value(6).toLongLong());
    overview.blockedKeys = capped(q.value(7).toLongLong());
    overview.paused = capped(q.value(8).toLongLong());
    if (!q.value(9).isNull())
        overview.oldestUnpublishedAgeMs = q.value(9).toLongLong();
    overview.serverNow = SqlValues::instant(q.value(10));
    if (!q.value(11).isNull())
        overview.lastPublishedAgeMs = q.value(11).toLongLong();
    // The oldest rows of the log among those counted, so that the list below and the oldest age above agree.
    const QList<qint64> oldestOfTheLog = SqlValues::parseBigintArray(q.value(19).toString());
    estimateCapped(session, overview);

    overview.relays = RelayFleet(session).recent();

    FailureGroupFilter largest;
    largest.limit = ExplainedRows;
    overview.failureGroups = FailureGroupRepository(session).groups(largest);
    const FleetCondition fleet = overview.fleetCondition();
    OutboxReadRepository outbox(session);
    for (const OutboxRowSummary& row : outbox.oldestUnpublished(ExplainedRows, oldestOfTheLog)) {
        WaitingRow waiting { row, waitCauseOf(row, overview.serverNow, fleet, stuckThresholdMs), std::nullopt };
        if (waiting.cause == WaitCause::BehindOlderRow)
            waiting.blocker = outbox.keyHead(row);
        overview.oldestUnpublished.append(waiting);
    }
    overview.recentActions = AuditRepository(session).page(AuditFilter {}, ExplainedRows, 0);
    overview.pauses = PublishPauses(session).current();
    if (snapshot)
        snapshot->commit();
    noteBacklog(session, overview);
    readLastHour(session, overview);
    return overview;
}

bool OutboxOverview::anyRelayAlive() const
{
    return std::any_of(relays.cbegin(), relays.cend(), [](const RelayNode& node) { return isRunning(node.state); });
}

FleetCondition OutboxOverview::fleetCondition() const
{
    if (!anyRelayAlive())
        return FleetCondition::NoneRunning;
    const auto anyIn = [this](RelayState state) {
        return std::any_of(
            relays.cbegin(), relays.cend(), [state](const RelayNode& node) { return node.state == state; });
    };
    if (anyIn(RelayState::Alive))
        return FleetCondition::Publishing;
    return anyIn(RelayState::Failing) ? FleetCondition::AllFailing : FleetCondition::AllPaused;
}

const RelayNode* OutboxOverview::longestFailing() const
{
    const RelayNode* longest = nullptr;
    for (const RelayNode& node : relays) {
        if (node.state == RelayState::Failing && (!longest || node.failingSince < longest->failingSince))
            longest = &node;
    }
    return longest;
}

bool OutboxOverview::nothingPublishing(qint64 afterMs) const
{
    return oldestUnpublishedAgeMs && *oldestUnpublishedAgeMs > afterMs
        && (!lastPublishedAgeMs || *lastPublishedAgeMs > afterMs);
}
