// SPDX-License-Identifier: GPL-3.0-or-later
// How fast the console is on a large outbox (the libpq environment names the server): every filter combination of
// the outbox list, first page and 50 pages deep, the failure groups and the overview. Not a test: it prints
// numbers for docs/benchmarks.md and the issue notes.
//   pg_virtualenv -t build/tests/bench/console-bench [rows] [--reuse]     (default 10,000,000 rows)
// --reuse keeps the rows of an earlier run (same row count) instead of seeding again. --backlog=N then writes N rows
// into the log that no relay publishes, as during a relay's outage, and measures the console at that moment.

#include "benchtiming.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "operations/auditrepository.h"
#include "operations/eventtypebreakdown.h"
#include "operations/outboxoverview.h"
#include "outbox/failuregrouprepository.h"
#include "outbox/outboxreadrepository.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSqlQuery>
#include <cstdio>

namespace {

constexpr int SeedPartitions = 10;

// The distribution an operator met at 10 M rows (issue 11): 95.9 % published, 3.06 % failed, 1 % dead, 0.07 %
// pending, 0.005 % in flight, created over the last 30 days; failed and dead rows in seven error families whose
// numbers, hosts and ids vary inside each family, three attempts each; an audit trail and an hour of rollups.
void seed(DbSession& session, int rows)
{
    session.execScript(QStringLiteral("TRUNCATE outbox, outbox_attempts, audit_log, metric_rollups, relay_nodes "
                                      "RESTART IDENTITY CASCADE"),
        QStringLiteral("reset"));
    // In ten partitions of three days each (migration 0021), as a purge that keeps 30 days of history leaves them:
    // a search of a created range then reads only the partitions that can hold its rows.
    for (int part = 0; part < SeedPartitions; ++part) {
        const int first = int(qint64(rows) * part / SeedPartitions) + 1;
        const int last = int(qint64(rows) * (part + 1) / SeedPartitions);
        session.exec(
            QStringLiteral(
                "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, attempts, "
                "  last_error, created_at, updated_at, published_at, next_attempt_at, lease_owner, lease_expires_at) "
                "SELECT 'order', (g % 100000)::text, "
                "  (ARRAY['order.created', 'order.paid', 'order.shipped', 'order.cancelled'])[1 + g % 4], "
                "  jsonb_build_object('id', g, 'customer', 'C-' || g % 50000, 'amount', (g % 100000) / 100.0, "
                "    'sku', 'SKU-' || g % 997), 'bench:' || g, nullif(s.status, 'published'), "
                "  CASE WHEN s.status IN ('failed', 'dead') "
                "THEN 3 ELSE 1 END, "
                "  CASE WHEN s.status IN ('failed', 'dead') THEN CASE g % 7 "
                "    WHEN 0 THEN 'message size ' || (g % 90000) || ' larger than max 16384' "
                "    WHEN 1 THEN 'connect to 10.0.' || (g % 250) || '.' || (g % 200) || ':5672 failed: Connection "
                "refused' "
                "    WHEN 2 THEN 'publish not confirmed within ' || (1000 + g % 9000) || ' ms' "
                "    WHEN 3 THEN 'returned by the broker: 312 NO_ROUTE (exchange ''orders'', routing key ''order.x' "
                "|| (g % 50) || ''')' "
                "    WHEN 4 THEN 'TLS handshake with rabbit-' || (g % 9) || '.internal:5671 failed: certificate has "
                "expired' "
                "    WHEN 5 THEN 'invalid JSON at offset ' || (g % 5000) || ': unterminated string' "
                "    ELSE 'upstream error, request id ' || md5(g::text)::uuid END END, "
                "  t.created, t.created + interval '1 second', NULL, "
                "  CASE WHEN s.status = 'failed' THEN now() + (g % 600) * interval '1 second' ELSE t.created END, "
                "  CASE WHEN s.status = 'in_flight' THEN 'relay/w0' END, "
                "  CASE WHEN s.status = 'in_flight' THEN now() + interval '30 s' END "
                "FROM generate_series(?::int, ?::int) g, "
                "  LATERAL (SELECT now() - interval '30 days' * (1 - g::float8 / ?::int) AS created) t, "
                "  LATERAL (SELECT CASE WHEN g % 10000 < 306 THEN 'failed' WHEN g % 10000 < 406 THEN 'dead' "
                "    WHEN g % 10000 < 413 THEN 'pending' WHEN g % 20000 = 413 THEN 'in_flight' "
                "    ELSE 'published' END AS status) s"),
            { first, last, rows }, QStringLiteral("seeding the outbox"));
        session.execScript(QStringLiteral("CALL outbox_roll()"), QStringLiteral("closing a partition"));
    }
    // Published rows are rows of the log (migration 0028) behind their lanes' cursors, published by one batch per
    // lane.
    session.execScript(
        QStringLiteral("WITH tick AS (SELECT id FROM outbox_take_tick()), "
                       "lanes AS (UPDATE outbox_lanes l SET done_tick = tick.id, lease_token = 1 "
                       "  FROM tick RETURNING l.lane) "
                       "INSERT INTO outbox_lane_batches (lane, lease_token, from_tick, to_tick, after_id, "
                       "  through_id, worker) "
                       "SELECT lanes.lane, 1, (SELECT min(id) FROM outbox_ticks), tick.id, 0, "
                       "  (SELECT max(id) FROM outbox), 'relay/w0' FROM lanes, tick"),
        QStringLiteral("publishing the log's rows"));
    // One statement each: VACUUM refuses to run inside the implicit transaction of a multi-statement script.
    const QString history[] = {
        QStringLiteral(
            "INSERT INTO outbox_attempts (outbox_id, attempt, worker, error, created_at) "
            "SELECT o.id, a, 'relay/w' || (o.id % 4), o.last_error, o.updated_at - (3 - a) * interval '10 minutes' "
            "FROM outbox o, generate_series(1, 3) a WHERE o.status IN ('failed', 'dead')"),
        QStringLiteral(
            "INSERT INTO audit_log (at, actor, action, reason, entity, entity_ids, state_before, state_after) "
            "SELECT now() - g * interval '1 minute', (ARRAY['alice', 'bob', 'carol', 'dave'])[1 + g % 4], "
            "  (ARRAY['requeue', 'release', 'purge'])[1 + g % 3], 'bench ' || g, 'outbox', ARRAY[g::bigint], "
            "  jsonb_build_object(g::text, 'dead'), jsonb_build_object(g::text, 'pending') "
            "FROM generate_series(1, 100000) g"),
        QStringLiteral("INSERT INTO metric_rollups (bucket, shard, published, failed_attempts) "
                       "SELECT date_trunc('minute', now()) - m * interval '1 minute', 0, 3000 + m, 40 "
                       "FROM generate_series(0, 59) m"),
        // The failure-group sizes as running relays keep them (they fold the trigger's delta rows with every
        // heartbeat): unfolded, the 406,000 delta rows of the seed made the groups read 92-96 ms instead of 13.
        QStringLiteral("SELECT outbox_fold_failure_counts()"),
        QStringLiteral("VACUUM ANALYZE outbox"),
        QStringLiteral("VACUUM ANALYZE outbox_attempts"),
        QStringLiteral("VACUUM ANALYZE outbox_failure_counts"),
        QStringLiteral("VACUUM ANALYZE audit_log"),
    };
    for (const QString& statement : history)
        session.execScript(statement, QStringLiteral("seeding the history"));
}

OutboxFilter with(const QList<OutboxStatus>& statuses, const std::function<void(OutboxFilter&)>& narrow = {})
{
    OutboxFilter filter;
    filter.statuses = statuses;
    if (narrow)
        narrow(filter);
    return filter;
}

void reportPages(OutboxReadRepository& outbox, const char* name, const OutboxFilter& filter)
{
    const double first = medianMs(7, [&] { outbox.page(filter, 200, 0); });
    // Walk 50 pages down once to find the cursor, then time that page.
    qint64 cursor = 0;
    int walked = 0;
    for (; walked < 50; ++walked) {
        const OutboxPage rows = outbox.page(filter, 200, cursor);
        if (rows.rows.size() < 200)
            break;
        cursor = rows.rows.last().id;
    }
    if (walked < 50) {
        std::printf("%-52s %9.1f ms %16s\n", name, first, "(fewer pages)");
        return;
    }
    const double deep = medianMs(7, [&] { outbox.page(filter, 200, cursor); });
    std::printf("%-52s %9.1f ms %13.1f ms\n", name, first, deep);
}

// The lanes done through a tick taken now, as a relay that has just drained the log leaves them; then `rows` rows
// written into the log by transactions of 5,000, as a service writes them while no relay runs.
void writeBacklog(DbSession& session, int rows)
{
    session.execScript(QStringLiteral("SELECT outbox_take_tick()"), QStringLiteral("taking a tick"));
    session.execScript(QStringLiteral("UPDATE outbox_lanes SET done_tick = (SELECT max(id) FROM outbox_ticks), "
                                      "range_tick = NULL, range_first_id = NULL, done_id = 0, claimed_through = NULL, "
                                      "lease_owner = NULL, lease_expires_at = NULL"),
        QStringLiteral("settling the lanes"));
    for (int written = 0; written < rows; written += 5000) {
        session.exec(
            QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                           "SELECT 'order', (g % 100000)::text, 'order.paid', jsonb_build_object('id', g), "
                           "  'backlog:' || epoch_ms(now()) || ':' || g FROM generate_series(?::int, ?::int) g"),
            { written + 1, qMin(rows, written + 5000) }, QStringLiteral("writing the backlog"));
    }
    session.execScript(QStringLiteral("VACUUM ANALYZE outbox"), QStringLiteral("analyzing the backlog"));
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const bool reuse = args.contains(QStringLiteral("--reuse"));
    int rows = 10'000'000;
    int backlog = 0;
    for (const QString& arg : args) {
        if (arg.startsWith(QLatin1String("--backlog=")))
            backlog = arg.mid(10).toInt();
        else if (!arg.startsWith(QLatin1String("--")))
            rows = arg.toInt();
    }
    DbSession session(ConnectionSettings(), QStringLiteral("console-bench"));
    session.planEachSearch(); // as the console does
    QElapsedTimer timer;
    timer.start();
    SchemaMigrator(session).migrate();
    std::printf("migrations in %.1f s\n", double(timer.restart()) / 1000.0);
    if (!reuse) {
        seed(session, rows);
        std::printf("%d outbox rows seeded in %.1f s\n", rows, double(timer.elapsed()) / 1000.0);
    }
    if (backlog > 0) {
        timer.restart();
        writeBacklog(session, backlog);
        std::printf("%d rows left in the log in %.1f s\n", backlog, double(timer.elapsed()) / 1000.0);
    }

    const QList<OutboxStatus> all;
    const QList<OutboxStatus> failed { OutboxStatus::Failed };
    const QList<OutboxStatus> dead { OutboxStatus::Dead };
    const QList<OutboxStatus> failedOrDead { OutboxStatus::Failed, OutboxStatus::Dead };
    const QList<OutboxStatus> pending { OutboxStatus::Pending };
    const QList<OutboxStatus> published { OutboxStatus::Published };
    const QDateTime now = QDateTime::currentDateTimeUtc();
    // The status sets the status button offers most, each with every other filter of the list.
    const std::pair<const char*, QList<OutboxStatus>> statusSets[] = { { "all", all }, { "failed", failed },
        { "dead", dead }, { "failed+dead", failedOrDead }, { "pending", pending }, { "published", published } };
    const std::pair<const char*, std::function<void(OutboxFilter&)>> narrowings[] = {
        { "no other filter", {} },
        { "event type order.paid", [](OutboxFilter& f) { f.eventType = QStringLiteral("order.paid"); } },
        { "event type matching nothing", [](OutboxFilter& f) { f.eventType = QStringLiteral("order.none"); } },
        { "aggregate id", [](OutboxFilter& f) { f.aggregateId = QStringLiteral("4242"); } },
        { "aggregate id matching nothing", [](OutboxFilter& f) { f.aggregateId = QStringLiteral("nobody"); } },
        { "error contains 'NO_ROUTE'", [](OutboxFilter& f) { f.errorContains = QStringLiteral("NO_ROUTE"); } },
        { "error contains, no match", [](OutboxFilter& f) { f.errorContains = QStringLiteral("zebra crossing"); } },
        { "created last 24 h", [&](OutboxFilter& f) { f.createdFrom = now.addDays(-1); } },
        { "message id (dedupe key)", [](OutboxFilter& f) { f.dedupeKey = QStringLiteral("bench:9999001"); } },
        { "message id matching nothing", [](OutboxFilter& f) { f.dedupeKey = QStringLiteral("bench:none"); } },
        { "payload contains a customer, last 24 h",
            [&](OutboxFilter& f) {
                f.createdFrom = now.addDays(-1);
                f.payloadContains = QStringLiteral("\"C-4242\"");
            } },
        { "payload contains nothing, last 24 h",
            [&](OutboxFilter& f) {
                f.createdFrom = now.addDays(-1);
                f.payloadContains = QStringLiteral("zebra crossing");
            } },
        { "created 3 weeks back, 1 week",
            [&](OutboxFilter& f) {
                f.createdFrom = now.addDays(-28);
                f.createdTo = now.addDays(-21);
            } },
        { "created before any row",
            [&](OutboxFilter& f) {
                f.createdFrom = now.addDays(-90);
                f.createdTo = now.addDays(-60);
            } },
        { "stuck only", [](OutboxFilter& f) { f.stuckOnly = true; } },
        { "stuck only + error contains 'NO_ROUTE'",
            [](OutboxFilter& f) {
                f.stuckOnly = true;
                f.errorContains = QStringLiteral("NO_ROUTE");
            } },
        { "event type + error contains + created 3 weeks back",
            [&](OutboxFilter& f) {
                f.eventType = QStringLiteral("order.paid");
                f.errorContains = QStringLiteral("certificate");
                f.createdFrom = now.addDays(-28);
                f.createdTo = now.addDays(-21);
            } },
    };
    // The limits in the same run: a round trip that does nothing, and the bare trigram search for a frequent error
    // (what any plan must do to find its 58,000 matches when they are not among the newest rows).
    std::printf("%-52s %9.1f ms\n", "baseline: SELECT 1 round trip", medianMs(7, [&] { session.ping(); }));
    std::printf("%-52s %9.1f ms\n", "baseline: count(*) of 'NO_ROUTE' by the trigram index", medianMs(7, [&] {
        session.exec(QStringLiteral("SELECT count(*) FROM outbox WHERE last_error ILIKE '%NO_ROUTE%'"), {},
            QStringLiteral("counting"));
    }));
    // And the bare scan a payload search of the last 24 hours must make: every row of the range, its JSON as text.
    std::printf("%-52s %9.1f ms\n", "baseline: count(*) of a payload text, last 24 h", medianMs(3, [&] {
        session.exec(QStringLiteral("SELECT count(*) FROM outbox WHERE created_at >= now() - interval '1 day' "
                                    "AND payload::text ILIKE '%zebra crossing%'"),
            {}, QStringLiteral("counting"));
    }));
    OutboxReadRepository outbox(session);
    std::printf("%-52s %12s %16s\n", "outbox list, page of 200 rows", "first page", "page 50 deep");
    for (const auto& [statusName, statuses] : statusSets) {
        for (const auto& [narrowName, narrow] : narrowings) {
            const QByteArray name = QByteArray(statusName) + ", " + narrowName;
            reportPages(outbox, name.constData(), with(statuses, narrow));
        }
    }

    FailureGroupRepository groups(session);
    const QList<FailureGroup> allGroups = groups.groups(FailureGroupFilter {});
    if (!allGroups.isEmpty()) {
        reportPages(outbox, "failed+dead, one failure group",
            with(failedOrDead, [&](OutboxFilter& f) { f.errorSignature = allGroups.first().signature; }));
    }
    std::printf("%-52s %9.1f ms\n", "failure groups (Failures tab)",
        medianMs(7, [&] { groups.groups(FailureGroupFilter {}); }));
    FailureGroupFilter sinceHour;
    sinceHour.seenSince = now.addSecs(-3600);
    std::printf(
        "%-52s %9.1f ms\n", "failure groups seen in the last hour", medianMs(7, [&] { groups.groups(sinceHour); }));
    std::printf("%-52s %9.1f ms\n", "overview",
        medianMs(7, [&] { OutboxOverview::load(session, OutboxFilter::DefaultStuckThresholdMs); }));
    const EventTypeBreakdown breakdown = EventTypeBreakdown::load(session);
    const QByteArray typesName
        = "event types (Event types tab, " + QByteArray::number(breakdown.types.size()) + " types)";
    std::printf("%-52s %9.1f ms\n", typesName.constData(), medianMs(7, [&] { EventTypeBreakdown::load(session); }));
    AuditRepository audit(session);
    AuditFilter byActor;
    byActor.actor = QStringLiteral("carol");
    std::printf("%-52s %9.1f ms\n", "audit, first page", medianMs(7, [&] { audit.page(AuditFilter {}, 200, 0); }));
    std::printf("%-52s %9.1f ms\n", "audit, one actor", medianMs(7, [&] { audit.page(byActor, 200, 0); }));
    return 0;
}
