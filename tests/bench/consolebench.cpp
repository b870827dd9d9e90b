// SPDX-License-Identifier: GPL-3.0-or-later
// How fast the console's list pages and overview are on a large outbox (the libpq environment names the
// server). Not a test: it prints numbers for the README and the issue notes.
//   pg_virtualenv -t build/tests/bench/console-bench [rows]        (default 1,000,000 rows)

#include "benchtiming.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "operations/outboxoverview.h"
#include "outbox/outboxreadrepository.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

OutboxFilter withStatuses(const QStringList& statuses)
{
    OutboxFilter filter;
    filter.statuses = OutboxStatusNames.valuesNamed(statuses);
    return filter;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int rows = argc > 1 ? QByteArray(argv[1]).toInt() : 1'000'000;
    DbSession session(ConnectionSettings(), QStringLiteral("console-bench"));
    SchemaMigrator(session).migrate();
    session.execScript(
        QStringLiteral("TRUNCATE outbox, outbox_attempts RESTART IDENTITY CASCADE"), QStringLiteral("reset"));
    QElapsedTimer seeding;
    seeding.start();
    // 97 % published, 1 % each pending, failed and dead, spread over 30 days; a few in flight with lost leases.
    session.exec(
        QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, "
            "  attempts, last_error, created_at, published_at, next_attempt_at, lease_owner, lease_expires_at) "
            "SELECT 'order', g::text, CASE WHEN g % 7 = 0 THEN 'order.paid' ELSE 'order.created' END, "
            "  jsonb_build_object('id', g), 'bench:' || g, s, CASE WHEN s = 'published' THEN 1 ELSE 3 END, "
            "  CASE WHEN s IN ('failed', 'dead') THEN 'broker unavailable: connection refused #' || (g % 13) END, "
            "  now() - (?::int - g) * interval '2 seconds', CASE WHEN s = 'published' THEN now() END, now(), "
            "  CASE WHEN s = 'in_flight' THEN 'relay/w0' END, "
            "  CASE WHEN s = 'in_flight' THEN now() - interval '1 hour' END "
            "FROM generate_series(1, ?::int) g, "
            "  LATERAL (SELECT CASE WHEN g % 100 = 1 THEN 'pending' WHEN g % 100 = 2 THEN 'failed' "
            "    WHEN g % 100 = 3 THEN 'dead' WHEN g % 10007 = 4 THEN 'in_flight' ELSE 'published' END AS s) st"),
        { rows, rows }, QStringLiteral("seeding"));
    session.execScript(QStringLiteral("VACUUM ANALYZE outbox"), QStringLiteral("analyze"));
    std::printf("%d outbox rows seeded in %.1f s\n", rows, double(seeding.elapsed()) / 1000.0);

    OutboxReadRepository outbox(session);
    OutboxFilter stuck;
    stuck.stuckOnly = true;
    OutboxFilter deadWithError = withStatuses({ QStringLiteral("dead") });
    deadWithError.errorContains = QStringLiteral("#7");
    OutboxFilter aggregate;
    aggregate.aggregateId = QString::number(rows / 2);
    OutboxFilter eventType;
    eventType.eventType = QStringLiteral("order.paid");
    const std::pair<const char*, OutboxFilter> filters[] = {
        { "all rows", OutboxFilter {} },
        { "status = dead", withStatuses({ QStringLiteral("dead") }) },
        { "status in (failed, dead)", withStatuses({ QStringLiteral("failed"), QStringLiteral("dead") }) },
        { "stuck only", stuck },
        { "dead, error contains", deadWithError },
        { "aggregate id", aggregate },
        { "event type (not indexed)", eventType },
    };
    std::printf("%-28s %12s %16s\n", "page of 200 rows", "first page", "page 50 deep");
    for (const auto& [name, filter] : filters) {
        const double first = medianMs(11, [&] { outbox.page(filter, 200, 0); });
        // Walk 50 pages down once to find the cursor, then time that page.
        qint64 cursor = 0;
        for (int page = 0; page < 50; ++page) {
            const OutboxPage rowsOfPage = outbox.page(filter, 200, cursor);
            if (rowsOfPage.rows.isEmpty())
                break;
            cursor = rowsOfPage.rows.last().id;
        }
        const double deep = medianMs(11, [&] { outbox.page(filter, 200, cursor); });
        std::printf("%-28s %9.1f ms %13.1f ms\n", name, first, deep);
    }
    const double overview = medianMs(5, [&] { OutboxOverview::load(session, OutboxFilter::DefaultStuckThresholdMs); });
    std::printf("%-28s %9.1f ms\n", "overview (capped counts)", overview);
    return 0;
}
