// SPDX-License-Identifier: GPL-3.0-or-later
// outbox-bench ordered and claimplan (see outboxbench.cpp): what publishing each ordering key's rows in id order
// costs the relay's drain, and the plan of the claim that enforces it on a large table.

#include "outboxbench.h"

#include "db/dbsession.h"
#include "relay/outboxleaserepository.h"

#include <QElapsedTimer>
#include <cstdio>
#include <map>

namespace {

void seedKeyed(DbSession& admin, int rows, int keys)
{
    resetOutbox(admin);
    seedOutbox(admin, rows, keys);
    admin.execScript(QStringLiteral("VACUUM ANALYZE outbox"), QStringLiteral("vacuum"));
    admin.execScript(QStringLiteral("CHECKPOINT"), QStringLiteral("checkpoint"));
}

QString keysName(int keys)
{
    return keys == 0 ? QStringLiteral("unordered") : QStringLiteral("%1 keys").arg(keys);
}

} // namespace

// Arguments: [rows=100000] [batch=1000] [rounds=3] [workers=4] [keys,...=0,10000,100,1]
int runOrdered(const ConnectionSettings& settings, DbSession& admin, const QStringList& args)
{
    const int rows = intArgument(args, 0, 100'000);
    const int batch = intArgument(args, 1, 1000);
    const int rounds = intArgument(args, 2, 3);
    const int workers = intArgument(args, 3, 4);
    QList<int> keyCounts = intListArgument(args, 4, { 0, 10'000, 100, 1 });
    if (!keyCounts.contains(0))
        keyCounts.prepend(0); // the unordered drain is what every ratio is taken to
    std::printf("%d rows, %d workers x batch %d, null sink, %d rounds; rows/s\n", rows, workers, batch, rounds);

    std::map<int, std::vector<double>> rates;
    std::map<int, std::vector<double>> ratios; // to the unordered drain of the same round
    for (int round = 0; round < rounds; ++round) {
        std::map<int, double> thisRound;
        for (qsizetype i = 0; i < keyCounts.size(); ++i) {
            const int keys = keyCounts.at((i + round) % keyCounts.size()); // the order rotates every round
            seedKeyed(admin, rows, keys);
            thisRound[keys] = relayDrain(settings, workers, batch, rows);
            rates[keys].push_back(thisRound[keys]);
            std::printf("round %d, %-12s %8.0f\n", round + 1, qPrintable(keysName(keys)), thisRound[keys]);
        }
        for (const auto& [keys, rate] : thisRound)
            ratios[keys].push_back(rate / thisRound.at(0));
    }

    std::printf("\nmedians of %d rounds\n%-12s %10s %22s\n", rounds, "keys", "rows/s", "ratio to unordered");
    for (const int keys : keyCounts)
        std::printf("%-12s %10.0f %22.2f\n", qPrintable(keysName(keys)), median(rates[keys]), median(ratios[keys]));
    return 0;
}

// Arguments: [rows=10000000] [keys=1000] [due=100000]
// `rows` rows of which all but `due` are published history; the due ones spread over `keys` keys, each key's oldest
// due row failing with a retry an hour away (so every claim parks the rest of its key). The claim's plan, run in a
// transaction that is rolled back, twice: cold after the seeding, then warm.
int runClaimPlan(const ConnectionSettings&, DbSession& admin, const QStringList& args)
{
    const int rows = intArgument(args, 0, 10'000'000);
    const int keys = intArgument(args, 1, 1000);
    const int due = intArgument(args, 2, 100'000);
    QElapsedTimer timer;
    timer.start();
    resetOutbox(admin);
    // Published history first, as a real table has it: the old ids, every key's included.
    admin.exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                              "  ordering_key, status, published_at, attempts) "
                              "SELECT 'order', g::text, 'order.created', '{}', 'h' || g, 'k' || (g % ?::int), "
                              "  'published', now(), 1 FROM generate_series(1, ?::int) g"),
        { keys, rows - due }, QStringLiteral("seeding the history"));
    seedOutbox(admin, due, keys);
    admin.exec(
        QStringLiteral("UPDATE outbox SET status = 'failed', attempts = 1, last_error = 'bench', "
                       "  next_attempt_at = now() + interval '1 hour' "
                       "WHERE id IN (SELECT min(id) FROM outbox WHERE status = 'pending' GROUP BY ordering_key)"),
        {}, QStringLiteral("failing each key's head"));
    admin.execScript(QStringLiteral("VACUUM ANALYZE outbox"), QStringLiteral("vacuum"));
    std::printf("%d rows (%d due over %d keys, each key's oldest failing), seeded in %.0f s\n", rows, due, keys,
        double(timer.elapsed()) / 1000.0);

    // The claim is outbox_claim(): its statements' plans are those auto_explain logs for the nested statements,
    // which arrive here as notices (libpq prints them on stderr).
    PgConnection connection;
    connection.exec("LOAD 'auto_explain'");
    connection.exec("SET auto_explain.log_min_duration = 0");
    connection.exec("SET auto_explain.log_analyze = on");
    connection.exec("SET auto_explain.log_buffers = on");
    connection.exec("SET auto_explain.log_nested_statements = on");
    connection.exec("SET client_min_messages = log");
    connection.prepare("claim", OutboxLeaseRepository::ClaimSql);
    for (const char* run : { "cold", "warm" }) {
        std::printf("\nclaim, batch 1000 (%s): the plans on stderr\n", run);
        std::fflush(stdout);
        connection.exec("BEGIN");
        connection.execPreparedWithValues(
            "claim", { QStringLiteral("bench"), QStringLiteral("bench/w0"), 1000, qint64(30000) });
        connection.exec("ROLLBACK");
    }
    return 0;
}
