// SPDX-License-Identifier: GPL-3.0-or-later
// Throughput of the create, replay and relay paths against a real PostgreSQL (the libpq environment names it),
// beside the physical limits measured in the same run on the same cluster: pgbench running the bare statements
// every outbox service must write, and the library's own statements under pgbench (the server's share) and through
// raw libpq (the Qt driver's share). Not a test: it prints numbers for the README and the issue notes.
//   pg_virtualenv -t -o fsync=on build/tests/bench/outbox-bench [seconds-per-phase] [clients,clients,...]
// (pg_virtualenv turns fsync off by default, which would hide the cost of every commit.)

#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "idempotency/idempotencyrepository.h"
#include "idempotency/requestfingerprint.h"
#include "metrics/metricsrecorder.h"
#include "orders/createorderhandler.h"
#include "relay/outboxrelay.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <atomic>
#include <cstdio>
#include <functional>
#include <latch>
#include <libpq-fe.h>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace {

constexpr int ReplayKeys = 800; // completed keys the replay phases cycle over

struct Phase {
    double perSecond = 0;
    double clientCpuMsPerOp = 0; // this process's CPU time per operation: the client's share of the machine
};

double processCpuMs()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000.0
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000.0;
}

// Runs `operation(session, client, i)` on `clients` connections for `seconds`.
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
    const double cpuBefore = processCpuMs();
    QElapsedTimer timer;
    timer.start();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    stop = true;
    for (std::thread& t : threads)
        t.join();
    const double elapsedMs = double(timer.elapsed());
    return Phase { double(total) * 1000.0 / elapsedMs, (processCpuMs() - cpuBefore) / double(total) };
}

// pgbench running `script` (prepared statements, as the library uses them) on the cluster the environment names.
double pgbench(const QString& script, int clients, int seconds)
{
    static const QString program = [] {
        const QString found = QStandardPaths::findExecutable(QStringLiteral("pgbench"));
        return found.isEmpty() ? QStringLiteral("/usr/lib/postgresql/15/bin/pgbench") : found;
    }();
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("script.sql")));
    if (!file.open(QIODevice::WriteOnly) || file.write(script.toUtf8()) < 0)
        qFatal("cannot write the pgbench script into %s", qPrintable(dir.path()));
    file.close();
    QProcess process;
    process.start(program,
        { QStringLiteral("-n"), QStringLiteral("-M"), QStringLiteral("prepared"), QStringLiteral("-c"),
            QString::number(clients), QStringLiteral("-j"), QString::number(std::min(clients, 2)), QStringLiteral("-T"),
            QString::number(seconds), QStringLiteral("-f"), file.fileName() });
    if (!process.waitForFinished(-1) || process.exitCode() != 0)
        qFatal("%s failed: %s", qPrintable(program), process.readAllStandardError().constData());
    static const QRegularExpression tps(QStringLiteral("tps = ([0-9.]+) \\(without initial connection time\\)"));
    const QRegularExpressionMatch match = tps.match(QString::fromUtf8(process.readAllStandardOutput()));
    if (!match.hasMatch())
        qFatal("pgbench printed no rate for:\n%s", qPrintable(script));
    return match.captured(1).toDouble();
}

// The order's JSON as the library builds it, over a row aliased o.
const QString OrderDocument = QStringLiteral("jsonb_build_object('id', o.id, 'customer', o.customer, 'amount', "
                                             "o.amount::text, 'currency', o.currency, 'created_at', o.created_at)");

// The bare statements: what any service must write for a create, and read for a replay.
QString insertOrder()
{
    return QStringLiteral("INSERT INTO orders (customer, amount, currency) VALUES ('bench', 10.00, 'EUR');\n");
}

QString insertOrderAndMessage()
{
    return QStringLiteral("WITH o AS (INSERT INTO orders (customer, amount, currency) VALUES ('bench', 10.00, 'EUR') "
                          "RETURNING *) "
                          "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                          "SELECT 'order', o.id::text, 'order.created', ")
        + OrderDocument + QStringLiteral(", 'order.created:' || o.id FROM o;\n");
}

QString insertKeyOrderAndMessage()
{
    return QStringLiteral("WITH o AS (INSERT INTO orders (customer, amount, currency) VALUES ('bench', 10.00, 'EUR') "
                          "RETURNING *), d AS (SELECT o.id, ")
        + OrderDocument
        + QStringLiteral(" AS doc FROM o), "
                         "e AS (INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                         "  SELECT 'order', d.id::text, 'order.created', d.doc, 'order.created:' || d.id FROM d) "
                         "INSERT INTO idempotency_keys (scope, idem_key, fingerprint, status, response_status, "
                         "  response_body, order_id, expires_at) "
                         "SELECT 'pgbench', gen_random_uuid()::text, repeat('a', 64), 'completed', 201, d.doc, d.id, "
                         "  now() + interval '1 day' FROM d;\n");
}

QString selectStoredResponse(qint64 firstId)
{
    return QStringLiteral("\\set id random(%1, %2)\n"
                          "SELECT response_status, response_body FROM idempotency_keys WHERE id = :id;\n")
        .arg(firstId)
        .arg(firstId + ReplayKeys - 1);
}

// The SQL API as a client in any language can call it: the whole create as one statement in autocommit (the shape
// the library's Form::OneStatement sends), and a replay.
QString apiCreate(const QString& fingerprint)
{
    return QStringLiteral(
               "\\set n random(1, 1000000000000)\n"
               "WITH claim AS (SELECT * FROM idempotency_begin('pgbench', 'k-' || :client_id || '-' || :n, '%1', NULL)), "
               "o AS (INSERT INTO orders (customer, amount, currency) SELECT 'bench', 10.00, 'EUR' FROM claim "
               "  WHERE claim.outcome = 'execute' RETURNING *), "
               "body AS (SELECT o.id, ")
               .arg(fingerprint)
        + OrderDocument
        + QStringLiteral(
            " AS doc FROM o), "
            "event AS (SELECT outbox_enqueue('order', body.id::text, 'order.created', body.doc, '{}', "
            "  'order.created:' || body.id) AS id FROM body), "
            "completed AS (SELECT idempotency_complete('pgbench', 'k-' || :client_id || '-' || :n, '%1', 201, "
            "  body.doc, body.id) AS id FROM body), "
            "response AS (SELECT 201 AS status, body.doc AS body, body.id AS resource_id FROM body, event, completed) "
            "SELECT response.*, claim.* FROM claim LEFT JOIN response ON true;\n")
              .arg(fingerprint);
}

const QString ReplaySql = QStringLiteral("SELECT * FROM idempotency_begin('orders', $1, $2)");

QString apiReplay(const QString& fingerprint)
{
    return QStringLiteral("\\set n random(0, %1)\n"
                          "SELECT * FROM idempotency_begin('orders', 'replay-' || :n, '%2');\n")
        .arg(ReplayKeys - 1)
        .arg(fingerprint);
}

CreateOrderRequest orderRequest(const QString& key)
{
    CreateOrderRequest r;
    r.key = key;
    r.customer = QStringLiteral("bench");
    r.amount = QStringLiteral("10.00");
    return r;
}

QString replayKey(int client, qint64 i)
{
    return QStringLiteral("replay-%1").arg((qint64(client) * 50 + i) % ReplayKeys);
}

void seedOutbox(DbSession& session, int rows)
{
    session.exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                                "SELECT 'order', g::text, 'order.created', jsonb_build_object('n', g), "
                                "gen_random_uuid()::text FROM generate_series(1, ?::int) g"),
        { rows }, QStringLiteral("seeding"));
}

void reset(DbSession& admin)
{
    admin.execScript(QStringLiteral("TRUNCATE orders, idempotency_keys, idempotency_replays, outbox, outbox_attempts, "
                                    "metric_rollups RESTART IDENTITY CASCADE"),
        QStringLiteral("reset"));
}

void printRow(int clients, const char* path, double rate, const QString& comparison = {})
{
    std::printf("%7d  %-58s %9.0f /s  %s\n", clients, path, rate, qPrintable(comparison));
}

QString ratio(double rate, double reference, const char* name)
{
    return QStringLiteral("%1 x %2").arg(rate / reference, 0, 'f', 2).arg(QLatin1String(name));
}

QString clientCpu(const Phase& phase)
{
    return QStringLiteral("client CPU %1 ms/op").arg(phase.clientCpuMsPerOp, 0, 'f', 3);
}

// One pass of every create and replay path at `clients` connections, on emptied tables.
void measureAt(const ConnectionSettings& settings, DbSession& admin, int clients, int seconds)
{
    reset(admin);
    MetricsRecorder metrics;
    for (int n = 0; n < ReplayKeys; ++n)
        CreateOrderHandler(admin, metrics).handle(orderRequest(QStringLiteral("replay-%1").arg(n)));
    QSqlQuery& first = admin.exec(QStringLiteral("SELECT min(id) FROM idempotency_keys"), {}, QStringLiteral("keys"));
    first.next();
    const qint64 firstReplayId = first.value(0).toLongLong();
    const QString fingerprint = RequestFingerprint::compute(CreateOrderHandler::Operation,
        QJsonObject { { QStringLiteral("customer"), QStringLiteral("bench") },
            { QStringLiteral("amount"), QStringLiteral("10.00") },
            { QStringLiteral("currency"), QStringLiteral("EUR") } });

    const double order = pgbench(insertOrder(), clients, seconds);
    printRow(clients, "pgbench INSERT one order", order);
    const double createLimit = pgbench(insertOrderAndMessage(), clients, seconds);
    printRow(clients, "pgbench order + outbox row, one statement (create limit)", createLimit);
    const double keyed = pgbench(insertKeyOrderAndMessage(), clients, seconds);
    printRow(clients, "pgbench key + order + outbox row, one statement", keyed, ratio(keyed, createLimit, "limit"));
    const double selectLimit = pgbench(selectStoredResponse(firstReplayId), clients, seconds);
    printRow(clients, "pgbench primary-key SELECT of a response (replay limit)", selectLimit);
    const double sqlCreate = pgbench(apiCreate(fingerprint), clients, seconds);
    printRow(clients, "pgbench SQL API create, one statement", sqlCreate, ratio(sqlCreate, createLimit, "limit"));
    const double sqlReplay = pgbench(apiReplay(fingerprint), clients, seconds);
    printRow(clients, "pgbench SQL API replay (idempotency_begin)", sqlReplay, ratio(sqlReplay, selectLimit, "limit"));

    CreateOrderHandler::Options inTransaction;
    inTransaction.form = IdempotentRequest::Form::Transaction;
    const Phase transaction = measure(settings, clients, seconds, [&](DbSession& s, int c, qint64 i) {
        CreateOrderHandler(s, metrics, inTransaction).handle(orderRequest(QStringLiteral("tx-%1-%2").arg(c).arg(i)));
    });
    printRow(clients, "library create, transaction (BEGIN, claim, write, COMMIT)", transaction.perSecond,
        ratio(transaction.perSecond, createLimit, "limit") + QStringLiteral(", ") + clientCpu(transaction));
    const Phase create = measure(settings, clients, seconds, [&](DbSession& s, int c, qint64 i) {
        CreateOrderHandler(s, metrics).handle(orderRequest(QStringLiteral("one-%1-%2").arg(c).arg(i)));
    });
    printRow(clients, "library create, one statement", create.perSecond,
        ratio(create.perSecond, createLimit, "limit") + QStringLiteral(", ")
            + ratio(create.perSecond, sqlCreate, "SQL API") + QStringLiteral(", ") + clientCpu(create));
    const Phase replay = measure(settings, clients, seconds, [&](DbSession& s, int c, qint64 i) {
        const CreateOrderResult r = CreateOrderHandler(s, metrics).handle(orderRequest(replayKey(c, i)));
        if (r.outcome != CreateOrderResult::Outcome::Replayed)
            std::fprintf(stderr, "unexpected outcome %s\n", qPrintable(CreateOrderResult::outcomeName(r.outcome)));
    });
    printRow(clients, "library replay", replay.perSecond,
        ratio(replay.perSecond, selectLimit, "limit") + QStringLiteral(", ")
            + ratio(replay.perSecond, create.perSecond, "create") + QStringLiteral(", ") + clientCpu(replay));

    // The replay's statement without the library: through the Qt driver, and through libpq on the same connection.
    const QByteArray fingerprintText = fingerprint.toUtf8();
    const Phase qtDriver = measure(settings, clients, seconds, [&](DbSession& s, int c, qint64 i) {
        QSqlQuery& q = s.exec(QStringLiteral("SELECT * FROM idempotency_begin('orders', ?::text, ?::text)"),
            { replayKey(c, i), fingerprint }, QStringLiteral("replay"));
        q.next();
    });
    printRow(clients, "replay statement through the Qt driver", qtDriver.perSecond, clientCpu(qtDriver));
    const Phase libpq = measure(settings, clients, seconds, [&](DbSession& s, int c, qint64 i) {
        PGconn* connection = DbSession::connectionOf(s.database());
        if (i == 0)
            PQclear(PQprepare(connection, "bench_replay", ReplaySql.toUtf8().constData(), 2, nullptr));
        const QByteArray key = replayKey(c, i).toUtf8();
        const char* values[] = { key.constData(), fingerprintText.constData() };
        PGresult* result = PQexecPrepared(connection, "bench_replay", 2, values, nullptr, nullptr, 0);
        if (PQresultStatus(result) != PGRES_TUPLES_OK)
            std::fprintf(stderr, "libpq replay failed: %s", PQerrorMessage(connection));
        PQclear(result);
    });
    printRow(clients, "replay statement through libpq", libpq.perSecond,
        ratio(qtDriver.perSecond, libpq.perSecond, "Qt/libpq") + QStringLiteral(", ") + clientCpu(libpq));
    IdempotencyRepository(admin).foldReplays();
}

void measureRelay(const ConnectionSettings& settings, DbSession& admin)
{
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

    RelayOptions options;
    options.batchSize = 500;
    options.once = true;
    for (const int workers : { 1, 4 }) {
        admin.execScript(
            QStringLiteral("TRUNCATE outbox, outbox_attempts RESTART IDENTITY CASCADE"), QStringLiteral("reset"));
        seedOutbox(admin, RelayRows);
        options.workers = workers;
        timer.restart();
        const RelayTotals totals = OutboxRelay(settings, SinkSpec::parse(QStringLiteral("null")), options).run();
        const double relay = double(totals.published) * 1000.0 / double(timer.elapsed());
        std::printf("relay, %d worker(s), null : %9.0f rows/s  (%.2f x raw)\n", workers, relay, relay / raw);
    }
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // each line as it is measured, also into a file
    const int seconds = argc > 1 ? QByteArray(argv[1]).toInt() : 10;
    QList<int> clientCounts { 1, 4, 16 };
    if (argc > 2) {
        clientCounts.clear();
        for (const QByteArray& count : QByteArray(argv[2]).split(','))
            clientCounts.append(count.toInt());
    }
    const ConnectionSettings settings;
    DbSession admin(settings, QStringLiteral("bench-admin"));
    SchemaMigrator(admin).migrate();
    std::printf("%d s per phase; ratios against the pgbench limits of the same pass\n", seconds);
    std::printf("%7s  %-58s %12s\n", "clients", "path", "rate");
    for (const int clients : clientCounts)
        measureAt(settings, admin, clients, seconds);
    measureRelay(settings, admin);
    return 0;
}
