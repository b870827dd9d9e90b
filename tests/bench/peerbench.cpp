// SPDX-License-Identifier: GPL-3.0-or-later
// outbox-bench peer (see outboxbench.cpp): what an event costs the host database with the outbox and with Graphile
// Worker, the queue a user would pick instead, in the same run on the same cluster: WAL bytes per event to enqueue and
// to drain, and the drain's rate, at each worker count; and where each drain's WAL goes (pg_waldump --stats=record).
// Graphile Worker runs from tests/bench/peer (npm ci there first) in its own best configuration
// (peer/graphile-worker.mjs).

#include "outboxbench.h"

#include "db/dbsession.h"
#include "db/unitofwork.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlQuery>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <tuple>
#include <vector>

namespace {

constexpr int RelayBatch = 1'000; // the relay's batch, as in the drain mode
constexpr int ProfileRows = 6; // record types listed per drain, by their share of its WAL

const QString PeerDirectory = QStringLiteral(OUTBOX_PEER_DIR);

qint64 walPosition(DbSession& admin);

struct Cost {
    double enqueueBytesPerEvent = 0;
    double drainBytesPerEvent = 0;
    double cleanupBytesPerEvent = 0; // the VACUUM that removes what the drain left dead
    double drainPerSecond = 0;
    QStringList walProfile; // the drain's largest record types

    double totalBytesPerEvent() const { return enqueueBytesPerEvent + drainBytesPerEvent + cleanupBytesPerEvent; }
};

// Whether a run ends with its cleanup measured: not while a snapshot is held, which keeps every dead row.
enum class Cleanup { Measured, Skipped };

// The VACUUM of `tables` right after a drain, in WAL bytes per event: what autovacuum has not yet done of removing
// the drain's dead rows (what it did during the drain is in the drain's WAL), so that each system pays for its own
// and the next phase starts clean.
double cleanupBytesPerEvent(DbSession& admin, const QString& tables, int events)
{
    const qint64 before = walPosition(admin);
    admin.execScript(QStringLiteral("VACUUM %1").arg(tables), QStringLiteral("vacuuming"));
    return double(walPosition(admin) - before) / events;
}

qint64 walPosition(DbSession& admin)
{
    QSqlQuery& q = admin.exec(QStringLiteral("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint"), {},
        QStringLiteral("reading the WAL position"));
    q.next();
    return q.value(0).toLongLong();
}

QString walLocation(DbSession& admin)
{
    QSqlQuery& q = admin.exec(
        QStringLiteral("SELECT pg_current_wal_insert_lsn()::text"), {}, QStringLiteral("reading the WAL location"));
    q.next();
    return q.value(0).toString();
}

QString setting(DbSession& admin, const QString& name)
{
    QSqlQuery& q
        = admin.exec(QStringLiteral("SELECT current_setting(?)"), { name }, QStringLiteral("reading a setting"));
    q.next();
    return q.value(0).toString();
}

// `events` events added by `statement` (its two binds: the first and last number of a generate_series) in
// transactions of `perTransaction`.
void enqueue(DbSession& admin, const QString& statement, int events, int perTransaction)
{
    for (qint64 first = 1; first <= events; first += perTransaction) {
        UnitOfWork transaction(admin);
        admin.exec(
            statement, { first, qMin<qint64>(events, first + perTransaction - 1) }, QStringLiteral("enqueueing"));
        transaction.commit();
    }
}

// The WAL between `from` and `to` by record type (pg_waldump --stats=record), the largest first: its header and the
// first rows of its table.
QStringList walProfile(DbSession& admin, const QString& from, const QString& to)
{
    // Up to `to` on disk: pg_waldump reads the files, and the last records may still be in the server's buffers.
    admin.execScript(QStringLiteral("CHECKPOINT"), QStringLiteral("flushing the WAL"));
    // As written by the server this benchmark runs on: the server's own pg_waldump, its WAL directory.
    const QString waldump = QStringLiteral("/usr/lib/postgresql/%1/bin/pg_waldump")
                                .arg(setting(admin, QStringLiteral("server_version_num")).toInt() / 10'000);
    QProcess dump;
    dump.start(waldump,
        { QStringLiteral("--stats=record"),
            QStringLiteral("--path=%1/pg_wal").arg(setting(admin, QStringLiteral("data_directory"))),
            QStringLiteral("--start=%1").arg(from), QStringLiteral("--end=%1").arg(to) });
    if (!dump.waitForFinished(120'000) || dump.exitCode() != 0)
        return {
            QStringLiteral("pg_waldump failed: %1").arg(QString::fromLocal8Bit(dump.readAllStandardError())).trimmed()
        };
    // "Heap/UPDATE   996 ( 49.73)   77688 ( 58.76)   0 (  0.00)   77688 ( 58.76)": count, record bytes, page images'
    // bytes, combined bytes, each with its share.
    static const QRegularExpression row(
        QStringLiteral("^\\S+\\s+\\d+ \\(\\s*[\\d.]+\\)\\s+\\d+ \\(\\s*[\\d.]+\\)\\s+\\d+ \\(\\s*[\\d.]+\\)\\s+(\\d+) "
                       "\\(\\s*[\\d.]+\\)$"));
    QStringList header;
    QList<std::pair<qint64, QString>> rows;
    for (const QString& line : QString::fromLocal8Bit(dump.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        if (header.size() < 2 && (line.startsWith(QLatin1String("Type")) || line.startsWith(QLatin1String("----"))))
            header.append(line);
        const QRegularExpressionMatch match = row.match(line);
        if (match.hasMatch())
            rows.append({ match.captured(1).toLongLong(), line });
    }
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList profile = header;
    for (int i = 0; i < qMin<int>(ProfileRows, rows.size()); ++i)
        profile.append(rows.at(i).second);
    return profile;
}

// One queue's run: after a checkpoint (each phase pays its own page images), `events` enqueued by `statement` (see
// enqueue()), drained by `drain` (which returns its rate), then, unless skipped, `tables` vacuumed.
Cost measureRun(DbSession& admin, const QString& statement, int events, int perTransaction,
    const std::function<double()>& drain, const QString& tables, Cleanup cleanup)
{
    admin.execScript(QStringLiteral("CHECKPOINT"), QStringLiteral("checkpoint"));
    const qint64 start = walPosition(admin);
    enqueue(admin, statement, events, perTransaction);
    const qint64 enqueued = walPosition(admin);
    const QString from = walLocation(admin);
    Cost cost;
    cost.drainPerSecond = drain();
    cost.enqueueBytesPerEvent = double(enqueued - start) / events;
    cost.drainBytesPerEvent = double(walPosition(admin) - enqueued) / events;
    cost.walProfile = walProfile(admin, from, walLocation(admin));
    if (cleanup == Cleanup::Measured)
        cost.cleanupBytesPerEvent = cleanupBytesPerEvent(admin, tables, events);
    return cost;
}

Cost measureOutbox(
    const ConnectionSettings& settings, DbSession& admin, int events, int perTransaction, int workers, Cleanup cleanup)
{
    resetOutbox(admin);
    return measureRun(
        admin,
        QStringLiteral("SELECT count(outbox_enqueue('order', g::text, 'order.created', jsonb_build_object('id', g))) "
                       "FROM generate_series(?::bigint, ?::bigint) g"),
        events, perTransaction, [&] { return relayDrain(settings, workers, RelayBatch, events); },
        QStringLiteral("outbox, outbox_attempts"), cleanup);
}

std::unique_ptr<QProcess> startGraphileWorker(const QString& mode)
{
    auto process = std::make_unique<QProcess>();
    process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process->setWorkingDirectory(PeerDirectory);
    process->start(QStringLiteral("node"), { PeerDirectory + QStringLiteral("/graphile-worker.mjs"), mode });
    return process;
}

bool anyJobLeft(DbSession& admin)
{
    QSqlQuery& q = admin.exec(QStringLiteral("SELECT EXISTS (SELECT FROM graphile_worker._private_jobs)"), {},
        QStringLiteral("looking for jobs"));
    return q.next() && q.value(0).toBool();
}

// Its drain is timed from the moment the first instance says it works to the last job's completion: the jobs wait
// already, and loading Node.js and the package (about half a second) is not the queue's cost. The relay's start is
// in its own rate, a few milliseconds.
Cost measureGraphileWorker(DbSession& admin, int events, int perTransaction, int instances, Cleanup cleanup)
{
    admin.execScript(QStringLiteral("DELETE FROM graphile_worker._private_jobs"), QStringLiteral("reset"));
    admin.execScript(QStringLiteral("VACUUM graphile_worker._private_jobs"), QStringLiteral("reset"));
    std::vector<std::unique_ptr<QProcess>> workers;
    const auto drain = [&] {
        for (int i = 0; i < instances; ++i)
            workers.push_back(startGraphileWorker(QStringLiteral("work")));
        QElapsedTimer working;
        const bool drained = waitUntil(
            [&] {
                for (const auto& worker : workers) {
                    worker->waitForReadyRead(1);
                    while (!working.isValid() && worker->canReadLine()) {
                        if (worker->readLine().trimmed() == "working")
                            working.start();
                    }
                }
                return working.isValid() && !anyJobLeft(admin);
            },
            600'000, 20);
        if (!drained) {
            std::fprintf(stderr, "graphile-worker: the jobs were not drained within 10 minutes\n");
            return 0.0;
        }
        return events * 1000.0 / qMax(1e-3, double(working.nsecsElapsed()) / 1e6);
    };
    const Cost cost = measureRun(admin,
        QStringLiteral("SELECT count(graphile_worker.add_job('noop', json_build_object('id', g))) "
                       "FROM generate_series(?::bigint, ?::bigint) g"),
        events, perTransaction, drain, QStringLiteral("graphile_worker._private_jobs"), cleanup);
    // Idle since the drain (their cleanup measured with them idle), stopped only now.
    for (const auto& worker : workers) {
        worker->terminate();
        if (!worker->waitForFinished(30'000))
            worker->kill();
    }
    return cost;
}

// Another session holds a snapshot taken before `measure` runs (REPEATABLE READ, open until it returns), as a long
// report or a forgotten transaction of the service would: nothing the run leaves dead can be cleaned up meanwhile.
Cost withHeldSnapshot(const ConnectionSettings& settings, const std::function<Cost()>& measure)
{
    DbSession holder(settings, QStringLiteral("snapshot holder"));
    UnitOfWork held(holder);
    holder.execScript(QStringLiteral("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"), QStringLiteral("holding"));
    holder.execScript(QStringLiteral("SELECT 1"), QStringLiteral("taking the snapshot"));
    const Cost cost = measure();
    held.rollback();
    return cost;
}

void printCost(const char* system, int workers, const Cost& cost)
{
    std::printf("%-22s %7d %9.0f %7.0f %9.0f %7.0f %10.0f\n", system, workers, cost.enqueueBytesPerEvent,
        cost.drainBytesPerEvent, cost.cleanupBytesPerEvent, cost.totalBytesPerEvent(), cost.drainPerSecond);
}

void printProfile(const char* system, int workers, const Cost& cost)
{
    std::printf("\n%s, %d worker(s): the drain's WAL by record type (pg_waldump --stats=record), largest first\n",
        system, workers);
    for (const QString& line : cost.walProfile)
        std::printf("  %s\n", qPrintable(line));
}

} // namespace

int runPeer(const ConnectionSettings& settings, DbSession& admin, const QStringList& args)
{
    const int events = intArgument(args, 0, 100'000);
    const int perTransaction = intArgument(args, 1, 5'000);
    const QList<int> workerCounts = intListArgument(args, 2, { 1, 4 });
    if (!QFileInfo::exists(PeerDirectory + QStringLiteral("/node_modules/graphile-worker"))) {
        std::fprintf(
            stderr, "peer: Graphile Worker is not installed; run: npm ci --prefix %s\n", qPrintable(PeerDirectory));
        return 2;
    }
    auto migrate = startGraphileWorker(QStringLiteral("migrate"));
    if (!migrate->waitForFinished(120'000) || migrate->exitCode() != 0) {
        std::fprintf(stderr, "peer: Graphile Worker could not install its schema\n");
        return 1;
    }
    // pg_waldump reads each drain's WAL after it: checkpoints must not recycle it before.
    const auto configure = [&admin](const QString& statements) {
        for (const QString& statement : statements.split(QLatin1Char(';')))
            admin.execScript(statement, QStringLiteral("configuring the server"));
        admin.execScript(QStringLiteral("SELECT pg_reload_conf()"), QStringLiteral("configuring the server"));
    };
    configure(QStringLiteral("ALTER SYSTEM SET wal_keep_size = '8GB'"));

    std::printf("peer: %d events enqueued in transactions of %d, then drained, then vacuumed; fsync=%s, "
                "full_page_writes=%s, each phase after a checkpoint\n",
        events, perTransaction, qPrintable(setting(admin, QStringLiteral("fsync"))),
        qPrintable(setting(admin, QStringLiteral("full_page_writes"))));
    std::printf("%-22s %7s %9s %7s %9s %7s %10s   (WAL bytes per event)\n", "system", "workers", "enqueue", "drain",
        "cleanup", "total", "drain/s");
    std::vector<std::pair<Cost, Cost>> costs;
    for (const int workers : workerCounts) {
        const Cost outbox = measureOutbox(settings, admin, events, perTransaction, workers, Cleanup::Measured);
        printCost("outbox (relay)", workers, outbox);
        const Cost peer = measureGraphileWorker(admin, events, perTransaction, workers, Cleanup::Measured);
        printCost("graphile-worker 0.17.3", workers, peer);
        costs.emplace_back(outbox, peer);
    }
    std::printf("\noutbox / graphile-worker  workers   enqueue   drain   cleanup   total WAL   drain rate\n");
    for (int i = 0; i < int(costs.size()); ++i) {
        const auto& [outbox, peer] = costs.at(i);
        std::printf("%24s %8d %9.2f %7.2f %9.2f %11.2f %12.2f\n", "", workerCounts.at(i),
            outbox.enqueueBytesPerEvent / peer.enqueueBytesPerEvent,
            outbox.drainBytesPerEvent / peer.drainBytesPerEvent,
            peer.cleanupBytesPerEvent > 0 ? outbox.cleanupBytesPerEvent / peer.cleanupBytesPerEvent : 0.0,
            outbox.totalBytesPerEvent() / peer.totalBytesPerEvent(),
            peer.drainPerSecond > 0 ? outbox.drainPerSecond / peer.drainPerSecond : 0.0);
    }
    // Twice the events, at the most workers, under a held snapshot: the drain's rate against the calm one above.
    const int heldWorkers = workerCounts.last();
    const Cost outboxHeld = withHeldSnapshot(settings,
        [&] { return measureOutbox(settings, admin, 2 * events, perTransaction, heldWorkers, Cleanup::Skipped); });
    const Cost peerHeld = withHeldSnapshot(settings,
        [&] { return measureGraphileWorker(admin, 2 * events, perTransaction, heldWorkers, Cleanup::Skipped); });
    std::printf("\n%d events at %d workers while a snapshot taken before them is held open (no cleanup can run):\n",
        2 * events, heldWorkers);
    std::printf("%-22s %7s %9s %7s %10s %14s\n", "system", "workers", "enqueue", "drain", "drain/s", "of calm drain");
    const auto& [outboxCalm, peerCalm] = costs.back();
    for (const auto& [system, held, calm] : { std::tuple("outbox (relay)", outboxHeld, outboxCalm),
             std::tuple("graphile-worker 0.17.3", peerHeld, peerCalm) }) {
        std::printf("%-22s %7d %9.0f %7.0f %10.0f %14.2f\n", system, heldWorkers, held.enqueueBytesPerEvent,
            held.drainBytesPerEvent, held.drainPerSecond,
            calm.drainPerSecond > 0 ? held.drainPerSecond / calm.drainPerSecond : 0.0);
    }

    for (int i = 0; i < int(costs.size()); ++i) {
        printProfile("outbox (relay)", workerCounts.at(i), costs.at(i).first);
        printProfile("graphile-worker", workerCounts.at(i), costs.at(i).second);
    }
    configure(QStringLiteral("ALTER SYSTEM RESET wal_keep_size"));
    return 0;
}
