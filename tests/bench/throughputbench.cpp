// SPDX-License-Identifier: GPL-3.0-or-later
// outbox-bench throughput (the default mode; see outboxbench.cpp): the create, replay and relay paths beside the
// physical limits measured in the same run on the same cluster: pgbench running the bare statements every outbox
// service must write, and the library's own statements under pgbench (the server's share) and through raw libpq
// (the Qt driver's share).

#include "outboxbench.h"

#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "idempotency/idempotencyrepository.h"
#include "idempotency/requestfingerprint.h"
#include "metrics/metricsrecorder.h"
#include "orders/createorderhandler.h"
#include "relay/outboxrelay.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <cstdio>

namespace {

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
               "WITH claim AS (SELECT * FROM idempotency_begin('pgbench', 'k-' || :client_id || '-' || :n, '%1', "
               "NULL)), "
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

QString clientCpu(const Phase& phase)
{
    return QStringLiteral("client CPU %1 ms/op").arg(phase.clientCpuMsPerOp, 0, 'f', 3);
}

// One pass of every create and replay path at `clients` connections, on emptied tables.
void measureAt(const ConnectionSettings& settings, DbSession& admin, int clients, int seconds)
{
    resetAll(admin);
    MetricsRecorder metrics;
    seedReplayKeys(admin);
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
    resetOutbox(admin);
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
        resetOutbox(admin);
        seedOutbox(admin, RelayRows);
        options.workers = workers;
        timer.restart();
        const RelayTotals totals = OutboxRelay(settings, SinkSpec::parse(QStringLiteral("null")), options).run();
        const double relay = double(totals.published) * 1000.0 / double(timer.elapsed());
        std::printf("relay, %d worker(s), null : %9.0f rows/s  (%.2f x raw)\n", workers, relay, relay / raw);
    }
}

} // namespace

// Arguments: [seconds-per-phase] [clients,clients,...]
int runThroughput(const ConnectionSettings& settings, DbSession& admin, const QStringList& args)
{
    const int seconds = intArgument(args, 0, 10);
    const QList<int> clientCounts = intListArgument(args, 1, { 1, 4, 16 });
    std::printf("%d s per phase; ratios against the pgbench limits of the same pass\n", seconds);
    std::printf("%7s  %-58s %12s\n", "clients", "path", "rate");
    for (const int clients : clientCounts)
        measureAt(settings, admin, clients, seconds);
    measureRelay(settings, admin);
    return 0;
}
