// SPDX-License-Identifier: GPL-3.0-or-later
// Throughput benchmarks for the create, replay and relay paths against a real PostgreSQL (the libpq
// environment names it). Not a test: it prints numbers for the README and the issue notes.
//   pg_virtualenv -o fsync=on build/tests/bench/outbox-bench [seconds-per-phase] [clients]
// (pg_virtualenv turns fsync off by default, which would hide the cost of every commit.)

#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "db/unitofwork.h"
#include "metrics/metricsrecorder.h"
#include "orders/createorderhandler.h"
#include "relay/outboxrelay.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <atomic>
#include <cstdio>
#include <functional>
#include <latch>
#include <thread>
#include <vector>

namespace {

struct Phase {
    double perSecond = 0;
    qint64 operations = 0;
};

// Runs `operation(session, client, i)` on `clients` connections for `seconds`; returns operations per second.
Phase measure(const ConnectionSettings& settings, int clients, int seconds,
    const std::function<void(DbSession&, int, qint64)>& operation)
{
    std::atomic<qint64> total { 0 };
    std::atomic<bool> stop { false };
    std::latch ready(clients + 1);
    std::vector<std::thread> threads;
    threads.reserve(clients);
    for (int c = 0; c < clients; ++c) {
        threads.emplace_back([&, c] {
            DbSession session(settings, QStringLiteral("bench"));
            ready.arrive_and_wait();
            qint64 i = 0;
            while (!stop.load(std::memory_order_relaxed))
                operation(session, c, i++);
            total += i;
        });
    }
    ready.arrive_and_wait();
    QElapsedTimer timer;
    timer.start();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    stop = true;
    for (std::thread& t : threads)
        t.join();
    return Phase { double(total) * 1000.0 / double(timer.elapsed()), total };
}

void seedOutbox(DbSession& session, int rows)
{
    session.exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                "SELECT 'order', g::text, 'order.created', jsonb_build_object('n', g), "
                                "gen_random_uuid()::text FROM generate_series(1, ?::int) g"),
        { rows }, QStringLiteral("seeding"));
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int seconds = argc > 1 ? QByteArray(argv[1]).toInt() : 10;
    const int clients = argc > 2 ? QByteArray(argv[2]).toInt() : 16;
    const ConnectionSettings settings;
    DbSession admin(settings, QStringLiteral("bench-admin"));
    SchemaMigrator(admin).migrate();
    admin.execScript(QStringLiteral("TRUNCATE orders, idempotency_keys, outbox, outbox_attempts, metric_rollups "
                                    "RESTART IDENTITY CASCADE"),
        QStringLiteral("reset"));
    std::printf("%d clients, %d s per phase\n", clients, seconds);

    const Phase bare = measure(settings, clients, seconds, [](DbSession& s, int, qint64) {
        UnitOfWork uow(s);
        s.exec(QStringLiteral("INSERT INTO orders (customer, amount, currency) VALUES (?::text, ?::numeric, ?::text)"),
            { QStringLiteral("bench"), QStringLiteral("10.00"), QStringLiteral("EUR") }, QStringLiteral("bare insert"));
        uow.commit();
    });
    std::printf("bare insert-one-order tx : %9.0f /s\n", bare.perSecond);

    MetricsRecorder metrics;
    const auto request = [](int client, qint64 i) {
        CreateOrderRequest r;
        r.key = QStringLiteral("bench-%1-%2").arg(client).arg(i);
        r.customer = QStringLiteral("bench");
        r.amount = QStringLiteral("10.00");
        return r;
    };
    const Phase create = measure(settings, clients, seconds,
        [&](DbSession& s, int c, qint64 i) { CreateOrderHandler(s, metrics).handle(request(c, i)); });
    std::printf("idempotent create        : %9.0f /s  (%.0f %% of bare)\n", create.perSecond,
        100.0 * create.perSecond / bare.perSecond);

    // Replays cycle over keys the create phase stored.
    constexpr qint64 keysPerClient = 50; // every client created far more than this many keys above
    const Phase replay = measure(settings, clients, seconds, [&](DbSession& s, int c, qint64 i) {
        const CreateOrderResult r = CreateOrderHandler(s, metrics).handle(request(c, i % keysPerClient));
        if (r.outcome != CreateOrderResult::Outcome::Replayed)
            std::fprintf(stderr, "unexpected outcome %s\n", qPrintable(CreateOrderResult::outcomeName(r.outcome)));
    });
    std::printf(
        "replay                   : %9.0f /s  (%.1fx create)\n", replay.perSecond, replay.perSecond / create.perSecond);

    constexpr int RelayRows = 100'000;
    admin.execScript(
        QStringLiteral("TRUNCATE outbox, outbox_attempts RESTART IDENTITY CASCADE"), QStringLiteral("reset"));
    seedOutbox(admin, RelayRows);
    QElapsedTimer timer;
    timer.start();
    // Each batch commits on its own, as the relay's do.
    for (;;) {
        QSqlQuery& q = admin.exec(
            QStringLiteral(
                "WITH due AS (SELECT id FROM outbox WHERE status IN ('pending', 'failed') "
                "  AND next_attempt_at <= now() ORDER BY next_attempt_at, id LIMIT 500 FOR UPDATE SKIP LOCKED) "
                "UPDATE outbox o SET status = 'published', published_at = now() FROM due WHERE o.id = due.id"),
            {}, QStringLiteral("raw batched update"));
        if (q.numRowsAffected() == 0)
            break;
    }
    const double raw = RelayRows * 1000.0 / double(timer.elapsed());
    std::printf("raw batched UPDATE loop  : %9.0f rows/s\n", raw);

    admin.execScript(
        QStringLiteral("TRUNCATE outbox, outbox_attempts RESTART IDENTITY CASCADE"), QStringLiteral("reset"));
    seedOutbox(admin, RelayRows);
    RelayOptions options;
    options.workers = 1;
    options.batchSize = 500;
    options.once = true;
    timer.restart();
    const RelayTotals totals = OutboxRelay(settings, SinkSpec::parse(QStringLiteral("null")), options).run();
    const double relay = double(totals.published) * 1000.0 / double(timer.elapsed());
    std::printf("relay, 1 worker, null    : %9.0f rows/s  (%.0f %% of raw)\n", relay, 100.0 * relay / raw);

    admin.execScript(
        QStringLiteral("TRUNCATE outbox, outbox_attempts RESTART IDENTITY CASCADE"), QStringLiteral("reset"));
    seedOutbox(admin, RelayRows);
    options.workers = 4;
    timer.restart();
    const RelayTotals four = OutboxRelay(settings, SinkSpec::parse(QStringLiteral("null")), options).run();
    std::printf("relay, 4 workers, null   : %9.0f rows/s\n", double(four.published) * 1000.0 / double(timer.elapsed()));
    return 0;
}
