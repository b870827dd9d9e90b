// SPDX-License-Identifier: GPL-3.0-or-later
// The create, replay and relay paths against a real PostgreSQL (the libpq environment names it), beside the physical
// limits measured in the same run on the same cluster. Not a test: it prints numbers for docs/benchmarks.md (the
// ordered and claimplan modes: docs/relay.md) and the issue notes. pg_virtualenv turns fsync off by default, which
// would hide the cost of every commit, hence -o fsync=on:
//   pg_virtualenv -t -o fsync=on build/tests/bench/outbox-bench [MODE] [ARGUMENTS...]
// MODE defaults to throughput (also when the first argument is a number). The relays the modes run log their warnings
// to stderr, with OUTBOX_BENCH_VERBOSE set also their progress. The modes:
//
//   throughput [seconds-per-phase=10] [clients,...=1,4,16]                           (throughputbench.cpp)
//     Create and replay rates at each client count: pgbench running the bare statements, the SQL API and the
//     library's statements, the library itself, the replay statement through the Qt driver and raw libpq; then
//     100,000 rows drained by a raw batched UPDATE loop and by the relay (null sink) at 1 and 4 workers.
//
//   latency [seconds=20] [amqp://USER:PASS@HOST:PORT/VHOST[?exchange=NAME]|none] [rates,...=100,1000,5000]
//           [sinks,...=null,file,rabbitmq]                                           (latencybench.cpp)
//     Publish latency (published_at - created_at: p50, p99, max, from the database; and published_at - the moment
//     the writer's INSERT returned, which leaves out the writer's own commit) of an OutboxRelay (1 worker,
//     batch 100; also 4 workers at the highest rate) while rows arrive at each steady rate, one autocommit INSERT
//     per row on a connection per 200 rows/s, for `seconds`; into the null sink, a file in a temporary directory
//     and, with a URI (argument or OUTBOX_TEST_AMQP_URI), RabbitMQ with publisher confirms into a durable queue
//     (exchange outbox-bench unless the URI names one). For RabbitMQ also the broker's own limit: a rabbitmq-c
//     loop publishing the same persistent messages at the same rate, each confirm awaited, against the
//     relay's p99 from the commit.
//
//   drain [rows=100000] [batch=1000] [rounds=3] [workers,...=1,4]                     (drainbench.cpp)
//     `rows` seeded rows drained by a raw libpq loop of the relay's own claim and completion statements, and by
//     the relay (once, null sink), on the full schema, on a relay-only schema (a second database without the
//     console's outbox indexes and triggers), on the unpartitioned outbox of schema version 20 and on the full
//     schema with eight closed partitions beside the open one, and with in-flight rows left out of the console's
//     indexes (not shipped: what that would save); medians of `rounds` rounds, the order rotating, of the
//     wall-clock rate and of the steady rate (read from published_at, between the first and the last completion). With
//     OUTBOX_BENCH_PERF_CONTROL=CTL_FIFO,ACK_FIFO (perf record -D -1 --control fifo:CTL_FIFO,ACK_FIFO) only the
//     relay's drain at the first worker count on the full schema in the first round is profiled.
//
//   ordered [rows=100000] [batch=1000] [rounds=3] [workers=4] [keys,...=0,10000,100,1]     (orderedbench.cpp)
//     `rows` seeded rows spread over each number of ordering keys (0: unordered) drained by the relay (once, null
//     sink); medians of `rounds` rounds, the order rotating every round, and the median of each round's ratio to
//     the unordered drain of that round.
//
//   claimplan [rows=10000000] [keys=1000] [due=100000]                                (orderedbench.cpp)
//     The claim's plan (EXPLAIN (ANALYZE, BUFFERS), rolled back; cold, then warm) over `rows` rows, all but `due`
//     of them published history, the due ones over `keys` ordering keys with each key's oldest row failing.
//
//   wakeup [seconds=15] [clients,...=1,4,16] [rounds=3]                               (wakeupbench.cpp)
//     The create statement under pgbench while a relay (1 worker, null sink) drains: with the wake-up triggers
//     of migration 0012 and wakeOnCommit, without them (disabled, polling relay), with a plain NOTIFY on every
//     insert for reference, and with the triggers beside a polling relay (the triggers' own cost, apart from the
//     eager relay's extra commits); medians of `rounds` rounds, the order rotating every round, and the median of
//     each round's ratio to the polling relay of that round.
//
//   peer [events=100000] [per-transaction=5000] [workers,...=1,4]                   (peerbench.cpp)
//     What an event costs the host with the outbox and with Graphile Worker 0.17.3 (tests/bench/peer: npm ci there
//     first), on the same cluster, each phase after a checkpoint: WAL bytes per event to enqueue (outbox_enqueue,
//     graphile_worker.add_job, one call per event, `per-transaction` per transaction), to drain (the relay, null
//     sink, batch 1,000; as many Graphile Worker instances in its best configuration) and to clean up after the
//     drain (a VACUUM right after it), the drain's rate and the ratios; then twice the events at the most workers
//     while another session holds a snapshot taken before them (REPEATABLE READ), against the calm drain; and each
//     calm drain's WAL by record type (pg_waldump --stats=record; run as the server's user or root).
//
//   pooling [seconds=8] [clients,...=1,4,16] [rows=100000]                          (poolingbench.cpp)
//     Behind a transaction pooler: a PgBouncer (Debian's, transaction mode, pool of 20) started in front of the
//     cluster; pgbench's create statement directly (prepared, simple) and through it (simple); the library's create
//     and replay directly (prepared), directly unprepared (OUTBOX_POOLING=transaction) and through it; the relay's
//     drain of `rows` rows at 1 and 4 workers directly and through it.

#include "outboxbench.h"

#include "db/dbsession.h"
#include "db/schemamigrator.h"

#include <QCoreApplication>
#include <cstdio>
#include <map>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // each line as it is measured, also into a file
    std::map<QString, BenchMode> modes { { QStringLiteral("throughput"), &runThroughput },
        { QStringLiteral("latency"), &runLatency }, { QStringLiteral("drain"), &runDrain },
        { QStringLiteral("ordered"), &runOrdered }, { QStringLiteral("claimplan"), &runClaimPlan },
        { QStringLiteral("wakeup"), &runWakeup }, { QStringLiteral("peer"), &runPeer } };
#ifdef OUTBOX_BENCH_POOLING
    modes.emplace(QStringLiteral("pooling"), &runPooling);
#endif
    QStringList args = app.arguments().mid(1);
    QString mode = QStringLiteral("throughput");
    if (!args.isEmpty() && !args.first().isEmpty() && !args.first().at(0).isDigit())
        mode = args.takeFirst();
    const auto found = modes.find(mode);
    if (found == modes.end()) {
        std::fprintf(stderr,
            "usage: outbox-bench [throughput|latency|drain|ordered|claimplan|wakeup|peer|pooling] [arguments...]\n"
            "unknown mode '%s'; the modes are described at the top of tests/bench/outboxbench.cpp\n",
            qPrintable(mode));
        return 2;
    }
    const ConnectionSettings settings;
    DbSession admin(settings, QStringLiteral("bench-admin"));
    SchemaMigrator(admin).migrate();
    return found->second(settings, admin, args);
}
