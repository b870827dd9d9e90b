// SPDX-License-Identifier: GPL-3.0-or-later
// outbox-bench drain (see outboxbench.cpp): a seeded backlog drained by the relay's own statements through raw libpq
// (the relay's limit) and by the relay itself, on the full schema and on a relay-only schema (what the console's
// indexes and triggers on outbox cost the relay), and on the outbox as it was before partitioning (schema version
// 20), partitioned with eight closed partitions beside the open one (what partitioning costs the relay), and with
// in-flight rows left out of the console's indexes (a layout not shipped, priced).

#include "outboxbench.h"

#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "relay/outboxleaserepository.h"
#include "relay/outboxrelay.h"

#include <QElapsedTimer>
#include <QFile>
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <latch>
#include <limits>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

constexpr int UnpartitionedVersion = 20; // the last schema before migration 0021 partitioned the outbox
constexpr int ClosedPartitions = 8;
constexpr qint64 LeaseMs = 30'000;

struct Schema {
    const char* name;
    ConnectionSettings settings;
    QByteArray conninfo; // for libpq, over the environment
    DbSession& admin;
};

// The outbox without what only the console needs: every index but the primary key and the relay's five
// (outbox_due_idx for claims, outbox_ordering_idx for the claim's search of each key's blocker, outbox_lease_idx for
// rescues, and the log's outbox_log_idx and outbox_log_txid_idx for the lanes' batches and ranges), and no
// error-signature (0005) or failure-count (0008) trigger. The wake-up (0012), ordering (0013) and dedupe-key (0021)
// triggers stay: the relay and the writers rely on them. Without outbox_ordering_idx this schema drained slower than
// the full one, so it priced nothing.
void dropConsoleIndexesAndTriggers(DbSession& admin)
{
    admin.execScript(
        QStringLiteral("DO $$ DECLARE r record; BEGIN "
                       "FOR r IN SELECT i.indexrelid::regclass AS name FROM pg_index i "
                       "  WHERE i.indrelid = 'outbox'::regclass "
                       "    AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conindid = i.indexrelid) "
                       "    AND i.indexrelid::regclass::text "
                       "      NOT IN ('outbox_due_idx', 'outbox_ordering_idx', 'outbox_lease_idx', 'outbox_log_idx', "
                       "              'outbox_log_txid_idx') LOOP "
                       "  EXECUTE format('DROP INDEX %s', r.name); "
                       "END LOOP; END $$; "
                       "DROP TRIGGER outbox_sign_last_error ON outbox; "
                       "DROP TRIGGER outbox_count_failures_insert ON outbox; "
                       "DROP TRIGGER outbox_count_failures_update ON outbox; "
                       "DROP TRIGGER outbox_count_failures_delete ON outbox; "
                       "DROP TRIGGER outbox_count_failures_truncate ON outbox;"),
        QStringLiteral("dropping the console's indexes and triggers"));
}

// A layout not shipped, measured to price it: the console's five indexes that hold in-flight rows (four over every
// row, and the unpublished rows by creation) leave them out, so that the claim, which makes rows in flight and is
// never a HOT update, adds entries only to the relay's own indexes. The console would read in-flight rows (at most
// the leases held) through outbox_lease_idx instead.
void leaveInFlightRowsOutOfConsoleIndexes(DbSession& admin)
{
    admin.execScript(
        QStringLiteral(
            "DROP INDEX outbox_status_id_idx, outbox_status_created_idx, outbox_event_type_idx, "
            "  outbox_aggregate_id_idx, outbox_unpublished_created_idx; "
            "CREATE INDEX outbox_status_id_idx ON outbox (status, id) WHERE status <> 'in_flight'; "
            "CREATE INDEX outbox_status_created_idx ON outbox (status, created_at, id) WHERE status <> 'in_flight'; "
            "CREATE INDEX outbox_event_type_idx ON outbox (event_type, status, id) WHERE status <> 'in_flight'; "
            "CREATE INDEX outbox_aggregate_id_idx ON outbox (aggregate_id, id) WHERE status <> 'in_flight'; "
            "CREATE INDEX outbox_unpublished_created_idx ON outbox (created_at, id) "
            "  WHERE status IN ('pending', 'failed', 'waiting', 'paused')"),
        QStringLiteral("leaving in-flight rows out of the console's indexes"));
}

QString outboxIndexesAndTriggers(DbSession& admin)
{
    QSqlQuery& q = admin.exec(
        QStringLiteral(
            "SELECT (SELECT string_agg(indexrelid::regclass::text, ', ' ORDER BY indexrelid::regclass::text) "
            "        FROM pg_index WHERE indrelid = 'outbox'::regclass), "
            "  (SELECT string_agg(tgname, ', ' ORDER BY tgname) FROM pg_trigger "
            "        WHERE tgrelid = 'outbox'::regclass AND NOT tgisinternal)"),
        {}, QStringLiteral("listing the outbox's indexes and triggers"));
    q.next();
    return QStringLiteral("indexes %1; triggers %2").arg(q.value(0).toString(), q.value(1).toString());
}

// The relay claims and completes through the functions of migration 0027, whose claim reads the live floor
// (migration 0025). One table has nothing to prune: its floor is the lowest id, and the functions are the migration's
// own, so that the relay sends the same statements as on the partitioned schemas.
void addRelayFunctionsToOneTable(DbSession& admin)
{
    admin.execScript(QStringLiteral("CREATE FUNCTION outbox_live_floor() RETURNS bigint LANGUAGE sql STABLE "
                                    "RETURN '-9223372036854775808'::bigint"),
        QStringLiteral("adding the live floor to the unpartitioned outbox"));
    QFile functions(QStringLiteral(":/sql/migrations/0027_relay_functions.sql"));
    if (!functions.open(QIODevice::ReadOnly))
        throw std::runtime_error("migration 0027 is not among the embedded resources");
    admin.execScript(QString::fromUtf8(functions.readAll()), QStringLiteral("adding the relay's functions"));
}

// Eight closed partitions beside the open one (a week of daily partitions kept by the purge), each closed with
// one row in it.
void closePartitions(DbSession& admin)
{
    for (int i = 0; i < ClosedPartitions; ++i) {
        seedOutbox(admin, 1);
        admin.execScript(QStringLiteral("CALL outbox_roll()"), QStringLiteral("closing a partition"));
    }
}

void seed(const Schema& schema, int rows)
{
    resetOutbox(schema.admin);
    seedOutbox(schema.admin, rows);
    schema.admin.execScript(QStringLiteral("VACUUM ANALYZE outbox"), QStringLiteral("vacuum"));
    schema.admin.execScript(QStringLiteral("CHECKPOINT"), QStringLiteral("checkpoint"));
}

// The relay's claim and fenced completion (OutboxLeaseRepository's own SQL: outbox_claim, outbox_complete) through
// libpq on `workers` threads, each completion in its own transaction as the relay's UnitOfWork commits it, until a
// claim finds nothing.
double rawLeasedLoop(const QByteArray& conninfo, int workers, int batch, int rows)
{
    std::atomic<qint64> total { 0 };
    std::latch ready(workers + 1);
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) {
        threads.emplace_back([&, w] {
            PgConnection connection(conninfo);
            // As the relay's sessions (OutboxRelay::workerLoop).
            connection.exec("SET jit = off");
            connection.exec("SET enable_bitmapscan = off");
            connection.prepare("claim", OutboxLeaseRepository::ClaimSql);
            connection.prepare("publish", OutboxLeaseRepository::CompleteSql);
            const QString worker = QStringLiteral("raw/w%1").arg(w);
            qint64 published = 0;
            ready.arrive_and_wait();
            for (;;) {
                const PgResult claimed = connection.execPreparedWithValues(
                    "claim", { QStringLiteral("raw"), worker, batch, qint64(LeaseMs) });
                const int count = PQntuples(claimed.get());
                if (count == 0)
                    break;
                QByteArray ids = "{";
                QByteArray tokens = "{";
                for (int r = 0; r < count; ++r) {
                    if (r > 0) {
                        ids += ',';
                        tokens += ',';
                    }
                    ids += PQgetvalue(claimed.get(), r, 0);
                    tokens += PQgetvalue(claimed.get(), r, 1);
                }
                ids += '}';
                tokens += '}';
                connection.exec("BEGIN");
                published += PQntuples(connection.execPrepared("publish", { ids, tokens }).get());
                connection.exec("COMMIT");
            }
            total += published;
        });
    }
    ready.arrive_and_wait();
    QElapsedTimer timer;
    timer.start();
    for (std::thread& thread : threads)
        thread.join();
    const double elapsedMs = double(timer.nsecsElapsed()) / 1e6;
    if (total != rows)
        std::fprintf(stderr, "raw loop: %lld of %d rows published\n", qint64(total), rows);
    return double(total) * 1000.0 / elapsedMs;
}

// The drain's steady rate, read from the database the same way for both loops: the rows published after the first
// completion began, over the time from its start to the last completion's start (published_at is the completion's
// transaction start). It leaves out what the wall-clock rate includes once per drain: the relay's start (its
// sessions, the schema check, the registry) and its stop (a last heartbeat and backlog sample), about a quarter of
// a second, which is 4 % of a 100,000-row drain but nothing to a relay that runs for days.
double steadyRate(DbSession& admin)
{
    QSqlQuery& q
        = admin.exec(QStringLiteral("SELECT count(*) - count(*) FILTER (WHERE published_at = first), "
                                    "  extract(epoch FROM max(published_at) - min(published_at)) "
                                    "FROM (SELECT published_at, min(published_at) OVER () AS first FROM outbox "
                                    "      WHERE status = 'published') p"),
            {}, QStringLiteral("reading the drain's steady rate"));
    q.next();
    const double seconds = q.value(1).toDouble();
    return seconds > 0 ? q.value(0).toDouble() / seconds : 0;
}

// perf record -D -1 --control fifo:CTL,ACK: OUTBOX_BENCH_PERF_CONTROL=CTL,ACK lets the benchmark switch the
// profile on and off around one phase.
class PerfControl final {
public:
    PerfControl()
    {
        const QStringList fifos = qEnvironmentVariable("OUTBOX_BENCH_PERF_CONTROL").split(QLatin1Char(','));
        if (fifos.size() != 2)
            return;
        m_control = std::fopen(QFile::encodeName(fifos.at(0)).constData(), "w");
        m_ack = std::fopen(QFile::encodeName(fifos.at(1)).constData(), "r");
        if (!m_control || !m_ack)
            qFatal("cannot open the perf control fifos %s", qPrintable(fifos.join(QLatin1Char(','))));
    }
    ~PerfControl()
    {
        if (m_control)
            std::fclose(m_control);
        if (m_ack)
            std::fclose(m_ack);
    }
    Q_DISABLE_COPY_MOVE(PerfControl)

    bool active() const { return m_control != nullptr; }

    void send(const char* command)
    {
        if (!m_control)
            return;
        std::fprintf(m_control, "%s\n", command);
        std::fflush(m_control);
        char ack[16];
        if (!std::fgets(ack, sizeof ack, m_ack))
            qFatal("perf did not acknowledge '%s'", command);
    }

private:
    std::FILE* m_control = nullptr;
    std::FILE* m_ack = nullptr;
};

struct Rates {
    std::vector<double> raw;
    std::vector<double> relay;
    std::vector<double> rawSteady;
    std::vector<double> relaySteady;
};

} // namespace

// Arguments: [rows=100000] [batch=1000] [rounds=3] [workers,...=1,4]
int runDrain(const ConnectionSettings& settings, DbSession& admin, const QStringList& args)
{
    const int rows = intArgument(args, 0, 100'000);
    const int batch = intArgument(args, 1, 1000);
    const int rounds = intArgument(args, 2, 3);
    const QList<int> workerCounts = intListArgument(args, 3, { 1, 4 });

    // The other schemas, each in a database of its own: (name, database, version, what changes after migrating).
    struct Variant {
        const char* name;
        QString database;
        int version;
        void (*prepare)(DbSession&);
    };
    const Variant variants[] = {
        { "relay-only", QStringLiteral("outbox_bench_relay_only"), SchemaMigrator::latestVersion(),
            &dropConsoleIndexesAndTriggers },
        { "v20 table", QStringLiteral("outbox_bench_unpartitioned"), UnpartitionedVersion,
            &addRelayFunctionsToOneTable },
        { "8 closed", QStringLiteral("outbox_bench_closed_partitions"), SchemaMigrator::latestVersion(),
            &closePartitions },
        { "no flight", QStringLiteral("outbox_bench_in_flight_apart"), SchemaMigrator::latestVersion(),
            &leaveInFlightRowsOutOfConsoleIndexes },
    };
    const auto dropVariants = [&] {
        for (const Variant& variant : variants)
            admin.execScript(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(variant.database),
                QStringLiteral("dropping a bench database"));
    };
    dropVariants();
    {
        std::vector<std::unique_ptr<DbSession>> variantAdmins;
        std::vector<Schema> schemas { { "full", settings, QByteArray(), admin } };
        for (const Variant& variant : variants) {
            admin.execScript(QStringLiteral("CREATE DATABASE %1").arg(variant.database),
                QStringLiteral("creating a bench database"));
            const QString dsn = QStringLiteral("dbname=") + variant.database;
            const ConnectionSettings variantSettings = ConnectionSettings::fromDsn(dsn);
            variantAdmins.push_back(std::make_unique<DbSession>(variantSettings, QStringLiteral("bench-admin")));
            SchemaMigrator(*variantAdmins.back()).migrate(variant.version);
            if (variant.prepare)
                variant.prepare(*variantAdmins.back());
            schemas.push_back({ variant.name, variantSettings, dsn.toUtf8(), *variantAdmins.back() });
        }
        for (const Schema& schema : schemas)
            std::printf("%-10s schema: %s\n", schema.name, qPrintable(outboxIndexesAndTriggers(schema.admin)));
        std::printf("%d rows, batch %d, %d rounds; rows/s\n", rows, batch, rounds);

        PerfControl perf;
        const size_t count = schemas.size();
        std::vector<std::vector<Rates>> rates(size_t(workerCounts.size()), std::vector<Rates>(count));
        for (int round = 0; round < rounds; ++round) {
            for (int w = 0; w < workerCounts.size(); ++w) {
                const int workers = workerCounts.at(w);
                for (size_t i = 0; i < count; ++i) {
                    const size_t s = (i + size_t(round)) % count; // another schema first every round
                    const Schema& schema = schemas[s];
                    Rates& into = rates[size_t(w)][s];
                    seed(schema, rows);
                    into.raw.push_back(rawLeasedLoop(schema.conninfo, workers, batch, rows));
                    into.rawSteady.push_back(steadyRate(schema.admin));
                    seed(schema, rows);
                    const bool profiled = perf.active() && round == 0 && w == 0 && s == 0;
                    if (profiled)
                        perf.send("enable");
                    into.relay.push_back(relayDrain(schema.settings, workers, batch, rows));
                    if (profiled)
                        perf.send("disable");
                    into.relaySteady.push_back(steadyRate(schema.admin));
                    std::printf("round %d, %d worker(s), %-10s: raw leased loop %7.0f (steady %7.0f), relay %7.0f "
                                "(steady %7.0f)%s\n",
                        round + 1, workers, schema.name, into.raw.back(), into.rawSteady.back(), into.relay.back(),
                        into.relaySteady.back(), profiled ? " (profiled)" : "");
                }
            }
        }

        std::printf("\nmedians of %d rounds (steady: between the first and the last completion)\n"
                    "%7s  %-10s %16s %10s %10s %12s %12s %10s\n",
            rounds, "workers", "schema", "raw leased /s", "relay /s", "relay/raw", "raw steady/s", "relay steady",
            "relay/raw");
        for (int w = 0; w < workerCounts.size(); ++w) {
            for (size_t s = 0; s < count; ++s) {
                const Rates& r = rates[size_t(w)][s];
                std::printf("%7d  %-10s %16.0f %10.0f %10.2f %12.0f %12.0f %10.2f\n", workerCounts.at(w),
                    schemas[s].name, median(r.raw), median(r.relay), median(r.relay) / median(r.raw),
                    median(r.rawSteady), median(r.relaySteady), median(r.relaySteady) / median(r.rawSteady));
            }
            // The relay's rate on schema `of` over its rate on schema `over`, wall-clock and steady.
            const auto ratio = [&](size_t of, size_t over, const char* what) {
                const Rates& a = rates[size_t(w)][of];
                const Rates& b = rates[size_t(w)][over];
                std::printf("%7d  %s = %.2f (steady %.2f)\n", workerCounts.at(w), what,
                    median(a.relay) / median(b.relay), median(a.relaySteady) / median(b.relaySteady));
            };
            ratio(0, 1, "full-schema relay / relay-only-schema relay (what the console's indexes and triggers cost)");
            ratio(0, 2, "full-schema relay / unpartitioned v20 relay (what partitioning costs)");
            ratio(3, 0, "8-closed-partitions relay / full-schema relay");
            ratio(4, 1, "in-flight-apart relay / relay-only-schema relay");
        }
    }
    dropVariants();
    return 0;
}
