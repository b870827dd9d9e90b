// SPDX-License-Identifier: GPL-3.0-or-later
// The pooling mode of outbox-bench: what a transaction pooler costs the create, the replay and the relay's drain,
// beside pgbench's SQL API create through the same pooler. The library on a direct connection (statements prepared),
// on a direct connection with OUTBOX_POOLING=transaction (unprepared: what the pooled form costs by itself) and
// through a real PgBouncer in transaction mode (unprepared, and the pooler's hop).

#include "outboxbench.h"

#include "db/dbsession.h"
#include "metrics/metricsrecorder.h"
#include "support/pgbouncerprocess.h"

#include <QElapsedTimer>
#include <cstdio>

// Arguments: [seconds-per-phase=8] [clients,...=1,4,16] [rows drained=100000]
int runPooling(const ConnectionSettings& settings, DbSession& admin, const QStringList& args)
{
    const int seconds = intArgument(args, 0, 8);
    const QList<int> clientCounts = intListArgument(args, 1, { 1, 4, 16 });
    const int rows = intArgument(args, 2, 100'000);
    PgBouncerProcess pooler(20);
    if (const QString problem = pooler.start(); !problem.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(problem));
        return 1;
    }
    QSqlQuery& name = admin.exec(QStringLiteral("SELECT current_database()"), {}, QStringLiteral("database"));
    name.next();
    ConnectionSettings pooled = ConnectionSettings::fromDsn(pooler.dsn(name.value(0).toString()));
    ConnectionSettings unprepared = settings;
    unprepared.setPooling(ConnectionSettings::Pooling::Transaction);
    ConnectionSettings prepared = settings;
    prepared.setPooling(ConnectionSettings::Pooling::None);

    std::printf("%d s per phase; PgBouncer 1.18 in transaction mode, pool of 20, on the same machine\n", seconds);
    std::printf("%7s  %-58s %12s\n", "clients", "path", "rate");
    for (const int clients : clientCounts) {
        resetAll(admin);
        seedReplayKeys(admin);
        const QString create = insertKeyOrderAndMessage();
        const double limitPrepared = pgbench(create, clients, seconds);
        printRow(clients, "pgbench create statement, direct, prepared", limitPrepared);
        const double limitSimple = pgbench(create, clients, seconds, true);
        printRow(clients, "pgbench create statement, direct, simple", limitSimple);
        const double limitPooled = pgbench(create, clients, seconds, true, pooler.port());
        printRow(clients, "pgbench create statement, PgBouncer, simple", limitPooled,
            ratio(limitPooled, limitPrepared, "direct prepared"));
        MetricsRecorder metrics;
        double directCreate = 0;
        double directReplay = 0;
        for (const auto& [label, connection] : { std::pair { "direct", &prepared },
                 std::pair { "direct, unprepared", &unprepared }, std::pair { "PgBouncer", &pooled } }) {
            const Phase created = measure(*connection, clients, seconds, [&](DbSession& s, int c, qint64 i) {
                CreateOrderHandler(s, metrics)
                    .handle(orderRequest(QStringLiteral("%1-%2-%3").arg(QLatin1String(label)).arg(c).arg(i)));
            });
            const Phase replayed = measure(*connection, clients, seconds, [&](DbSession& s, int c, qint64 i) {
                CreateOrderHandler(s, metrics).handle(orderRequest(replayKey(c, i)));
            });
            if (directCreate == 0) {
                directCreate = created.perSecond;
                directReplay = replayed.perSecond;
            }
            const double limit = connection == &pooled ? limitPooled
                : connection == &unprepared            ? limitSimple
                                                       : limitPrepared;
            printRow(clients, qPrintable(QStringLiteral("library create, %1").arg(QLatin1String(label))),
                created.perSecond,
                ratio(created.perSecond, directCreate, "direct") + QStringLiteral(", ")
                    + ratio(created.perSecond, limit, "pgbench same path"));
            printRow(clients, qPrintable(QStringLiteral("library replay, %1").arg(QLatin1String(label))),
                replayed.perSecond, ratio(replayed.perSecond, directReplay, "direct"));
        }
    }
    for (const int workers : { 1, 4 }) {
        double direct = 0;
        for (const auto& [label, connection] :
            { std::pair { "direct", &prepared }, std::pair { "PgBouncer", &pooled } }) {
            resetOutbox(admin);
            seedOutbox(admin, rows);
            const double rate = relayDrain(*connection, workers, 1000, rows);
            if (direct == 0)
                direct = rate;
            std::printf("relay drain of %d rows, %d worker(s), batch 1000, null sink, %-9s: %9.0f rows/s  %s\n", rows,
                workers, label, rate, qPrintable(ratio(rate, direct, "direct")));
        }
    }
    return 0;
}
