// SPDX-License-Identifier: GPL-3.0-or-later
// The helpers outboxbench.h declares.

#include "outboxbench.h"

#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "metrics/metricsrecorder.h"
#include "relay/outboxrelay.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <latch>
#include <sys/resource.h>
#include <thread>

int intArgument(const QStringList& args, int index, int fallback)
{
    if (index >= args.size())
        return fallback;
    bool ok = false;
    const int value = args.at(index).toInt(&ok);
    if (!ok)
        qFatal("argument %d ('%s') is not a number", index + 1, qPrintable(args.at(index)));
    return value;
}

QList<int> intListArgument(const QStringList& args, int index, const QList<int>& fallback)
{
    if (index >= args.size())
        return fallback;
    QList<int> values;
    for (const QString& item : args.at(index).split(QLatin1Char(','))) {
        bool ok = false;
        values.append(item.toInt(&ok));
        if (!ok)
            qFatal(
                "argument %d ('%s') is not a comma-separated list of numbers", index + 1, qPrintable(args.at(index)));
    }
    return values;
}

QString stringArgument(const QStringList& args, int index, const QString& fallback)
{
    return index < args.size() ? args.at(index) : fallback;
}

// This process's CPU time (user and system) so far.
static double processCpuMs()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000.0
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000.0;
}

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

double pgbench(const QString& script, int clients, int seconds, bool simple, int port)
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
    if (port > 0) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("PGHOST"), QStringLiteral("127.0.0.1"));
        environment.insert(QStringLiteral("PGPORT"), QString::number(port));
        process.setProcessEnvironment(environment);
    }
    process.start(program,
        { QStringLiteral("-n"), QStringLiteral("-M"), simple ? QStringLiteral("simple") : QStringLiteral("prepared"),
            QStringLiteral("-c"), QString::number(clients), QStringLiteral("-j"), QString::number(std::min(clients, 2)),
            QStringLiteral("-T"), QString::number(seconds), QStringLiteral("-f"), file.fileName() });
    if (!process.waitForFinished(-1) || process.exitCode() != 0)
        qFatal("%s failed: %s", qPrintable(program), process.readAllStandardError().constData());
    static const QRegularExpression tps(QStringLiteral("tps = ([0-9.]+) \\(without initial connection time\\)"));
    const QRegularExpressionMatch match = tps.match(QString::fromUtf8(process.readAllStandardOutput()));
    if (!match.hasMatch())
        qFatal("pgbench printed no rate for:\n%s", qPrintable(script));
    return match.captured(1).toDouble();
}

void printRow(int clients, const char* path, double rate, const QString& comparison)
{
    std::printf("%7d  %-58s %9.0f /s  %s\n", clients, path, rate, qPrintable(comparison));
}

QString ratio(double rate, double reference, const char* name)
{
    return QStringLiteral("%1 x %2").arg(rate / reference, 0, 'f', 2).arg(QLatin1String(name));
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

void seedReplayKeys(DbSession& admin)
{
    MetricsRecorder metrics;
    for (int n = 0; n < ReplayKeys; ++n)
        CreateOrderHandler(admin, metrics).handle(orderRequest(QStringLiteral("replay-%1").arg(n)));
}

const QString OrderDocument = QStringLiteral("jsonb_build_object('id', o.id, 'customer', o.customer, 'amount', "
                                             "o.amount::text, 'currency', o.currency, 'created_at', o.created_at)");

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

void resetOutbox(DbSession& admin)
{
    admin.execScript(
        QStringLiteral("TRUNCATE outbox, outbox_attempts RESTART IDENTITY CASCADE"), QStringLiteral("reset"));
}

void resetAll(DbSession& admin)
{
    admin.execScript(QStringLiteral("TRUNCATE orders, idempotency_keys, idempotency_replays, outbox, outbox_attempts, "
                                    "metric_rollups RESTART IDENTITY CASCADE"),
        QStringLiteral("reset"));
}

void seedOutbox(DbSession& session, int rows, int keys)
{
    session.exec(QStringLiteral(
                     "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, ordering_key) "
                     "SELECT 'order', g::text, 'order.created', jsonb_build_object('n', g), "
                     "gen_random_uuid()::text, CASE WHEN ?::int > 0 THEN 'k' || (g % ?::int) END "
                     "FROM generate_series(1, ?::int) g"),
        { keys, std::max(keys, 1), rows }, QStringLiteral("seeding"));
}

qint64 unpublishedRows(DbSession& session)
{
    QSqlQuery& q
        = session.exec(QStringLiteral("SELECT count(*) FROM outbox WHERE status IN ('pending', 'in_flight', 'failed')"),
            {}, QStringLiteral("counting unpublished rows"));
    q.next();
    return q.value(0).toLongLong();
}

double relayDrain(const ConnectionSettings& settings, int workers, int batch, int rows)
{
    RelayOptions options = quietRelayOptions();
    options.workers = workers;
    options.batchSize = batch;
    options.once = true;
    QElapsedTimer timer;
    timer.start();
    const RelayTotals totals = OutboxRelay(settings, SinkSpec::parse(QStringLiteral("null")), options).run();
    const double elapsedMs = double(timer.nsecsElapsed()) / 1e6;
    if (totals.published != rows)
        std::fprintf(stderr, "relay: %lld of %d rows published\n", totals.published, rows);
    return double(totals.published) * 1000.0 / elapsedMs;
}

RelayOptions quietRelayOptions()
{
    RelayOptions options;
    options.log = [verbose = qEnvironmentVariableIsSet("OUTBOX_BENCH_VERBOSE")](QtMsgType type, const QString& line) {
        if (verbose || type != QtInfoMsg)
            std::fprintf(stderr, "relay: %s\n", qPrintable(line));
    };
    return options;
}

bool waitUntil(const std::function<bool()>& done, int timeoutMs, int pollMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.hasExpired(timeoutMs))
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(pollMs));
    }
    return true;
}

double median(std::vector<double> samples)
{
    if (samples.empty())
        return 0;
    std::sort(samples.begin(), samples.end());
    const size_t middle = samples.size() / 2;
    return samples.size() % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2;
}

// `sql` with its '?' placeholders numbered $1..$n for libpq (the library's statements hold no literal '?').
static QByteArray numberedPlaceholders(const QString& sql)
{
    const QByteArray text = sql.toUtf8();
    QByteArray numbered;
    numbered.reserve(text.size() + 16);
    int next = 0;
    for (const char c : text) {
        if (c == '?')
            numbered += '$' + QByteArray::number(++next);
        else
            numbered += c;
    }
    return numbered;
}

PgConnection::PgConnection(const QByteArray& conninfo)
    : m_connection(PQconnectdb(conninfo.constData()))
{
    if (PQstatus(m_connection) != CONNECTION_OK)
        qFatal("cannot connect with libpq ('%s'): %s", conninfo.constData(), PQerrorMessage(m_connection));
}

PgConnection::~PgConnection()
{
    PQfinish(m_connection);
}

PgResult PgConnection::checked(PGresult* result, const char* doing)
{
    const ExecStatusType status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
        qFatal("libpq, %s: %s", doing, PQerrorMessage(m_connection));
    return PgResult(result, &PQclear);
}

void PgConnection::prepare(const char* name, const QString& sql)
{
    checked(PQprepare(m_connection, name, numberedPlaceholders(sql).constData(), 0, nullptr), name);
}

PgResult PgConnection::execPrepared(const char* name, const std::vector<QByteArray>& values)
{
    std::vector<const char*> pointers;
    pointers.reserve(values.size());
    for (const QByteArray& value : values)
        pointers.push_back(value.constData());
    return checked(PQexecPrepared(m_connection, name, int(values.size()), pointers.data(), nullptr, nullptr, 0), name);
}

PgResult PgConnection::execPreparedWithValues(const char* name, const QVariantList& values)
{
    std::vector<QByteArray> texts;
    texts.reserve(values.size());
    for (const QVariant& value : values)
        texts.push_back(value.toString().toUtf8());
    return execPrepared(name, texts);
}

PgResult PgConnection::exec(const char* sql)
{
    return checked(PQexec(m_connection, sql), sql);
}
