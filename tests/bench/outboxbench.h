// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the modes of outbox-bench (outboxbench.cpp) share: pgbench and client-side phases, raw libpq connections,
// the outbox seeding and resets, the relay on a thread, and the small statistics each mode prints.

#include "db/connectionsettings.h"
#include "orders/createorderhandler.h"
#include "relay/relayoptions.h"
#include "support/runningrelay.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <libpq-fe.h>
#include <memory>
#include <vector>

class DbSession;

// A mode: the cluster the libpq environment names (migrated), an admin session on it, the mode's arguments.
using BenchMode = int (*)(const ConnectionSettings& settings, DbSession& admin, const QStringList& args);
int runThroughput(const ConnectionSettings& settings, DbSession& admin, const QStringList& args);
int runLatency(const ConnectionSettings& settings, DbSession& admin, const QStringList& args);
int runDrain(const ConnectionSettings& settings, DbSession& admin, const QStringList& args);
int runWakeup(const ConnectionSettings& settings, DbSession& admin, const QStringList& args);
int runOrdered(const ConnectionSettings& settings, DbSession& admin, const QStringList& args);
int runClaimPlan(const ConnectionSettings& settings, DbSession& admin, const QStringList& args);
int runPeer(const ConnectionSettings& settings, DbSession& admin, const QStringList& args);
int runPooling(const ConnectionSettings& settings, DbSession& admin, const QStringList& args);

// Positional arguments: args[index] as a number, a comma-separated list of numbers or a string, else `fallback`.
int intArgument(const QStringList& args, int index, int fallback);
QList<int> intListArgument(const QStringList& args, int index, const QList<int>& fallback);
QString stringArgument(const QStringList& args, int index, const QString& fallback = {});

struct Phase {
    double perSecond = 0;
    double clientCpuMsPerOp = 0; // this process's CPU time per operation: the client's share of the machine
};

// Runs `operation(session, client, i)` on `clients` connections for `seconds`.
Phase measure(const ConnectionSettings& settings, int clients, int seconds,
    const std::function<void(DbSession&, int, qint64)>& operation);

// pgbench running `script` (prepared statements, as the library uses them on a direct connection; with `simple`,
// the statements whole, as through a transaction pooler) on the cluster the environment names, or on `port` of
// 127.0.0.1; transactions per second.
double pgbench(const QString& script, int clients, int seconds, bool simple = false, int port = 0);

// One row of a rate table: the client count, the path measured, its rate and what it is compared with.
void printRow(int clients, const char* path, double rate, const QString& comparison = {});
// "0.42 x NAME": `rate` as a share of `reference`.
QString ratio(double rate, double reference, const char* name);

// The create the library's phases send, for `key`; the keys the replay phases cycle over (ReplayKeys of them,
// created by seedReplayKeys()), for client `client`'s `i`-th replay.
constexpr int ReplayKeys = 800;
CreateOrderRequest orderRequest(const QString& key);
QString replayKey(int client, qint64 i);
void seedReplayKeys(DbSession& admin);

// The order's JSON as the library builds it, over a row aliased o.
extern const QString OrderDocument;
// The create as one statement, for pgbench: idempotency key, order and outbox row.
QString insertKeyOrderAndMessage();

// Emptying the tables (identities restarted) and filling the outbox with `rows` due rows.
void resetOutbox(DbSession& admin);
void resetAll(DbSession& admin); // orders, keys, replays, outbox, attempts and metric rollups
// With `keys` > 0 the rows are spread round-robin over that many ordering keys; with 0 they are unordered.
void seedOutbox(DbSession& session, int rows, int keys = 0);
// Rows pending, in flight or failed: what the relays have yet to publish.
qint64 unpublishedRows(DbSession& session);

// `options` logging the relay's warnings to stderr and nothing else (everything with OUTBOX_BENCH_VERBOSE set): the
// benchmark's output stays a table.
RelayOptions quietRelayOptions();

// The relay (once, null sink, `workers` × `batch`) draining the `rows` due rows: rows per second, the start included.
double relayDrain(const ConnectionSettings& settings, int workers, int batch, int rows);

// Calls `done` every `pollMs` until it returns true (true) or `timeoutMs` passed (false).
bool waitUntil(const std::function<bool()>& done, int timeoutMs, int pollMs = 100);

// The median of the samples (the mean of the middle two for an even count); 0 for none.
double median(std::vector<double> samples);

using PgResult = std::unique_ptr<PGresult, decltype(&PQclear)>;

// One raw libpq connection (the libpq environment, overridden by `conninfo`) for the physical limits the library
// is compared with; every failure ends the benchmark. One owner, one thread.
class PgConnection final {
    Q_DISABLE_COPY_MOVE(PgConnection)
public:
    explicit PgConnection(const QByteArray& conninfo = {});
    ~PgConnection();

    // `sql` with '?' placeholders (as DbSession takes them) prepared as `name`.
    void prepare(const char* name, const QString& sql);
    // Executes the statement prepared as `name` with text parameters; a result with rows or a command's.
    PgResult execPrepared(const char* name, const std::vector<QByteArray>& values);
    // The same with the values as DbSession takes them, each sent as its text.
    PgResult execPreparedWithValues(const char* name, const QVariantList& values);
    PgResult exec(const char* sql);

private:
    PgResult checked(PGresult* result, const char* doing);
    PGconn* m_connection = nullptr;
};
