// SPDX-License-Identifier: GPL-3.0-or-later
// outbox-bench wakeup (see outboxbench.cpp): what waking idle relays on commit (migration 0012's triggers and
// RelayOptions::wakeOnCommit) costs the create path, beside a polling relay without the triggers and beside a plain
// NOTIFY on every insert, the design 0012 rejected.

#include "outboxbench.h"

#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "relay/outboxrelay.h"

#include <array>
#include <cstdio>
#include <thread>

namespace {

// Triggers: the wake-up as designed. Polling: neither triggers nor wakeOnCommit. PlainNotify: for reference.
// TriggersPolling (the triggers with a polling relay): what the triggers cost the writers by themselves, apart from
// the eager relay's extra batches and commits.
enum class Wakeup { Triggers, Polling, PlainNotify, TriggersPolling };
constexpr std::array<Wakeup, 4> Variants { Wakeup::Triggers, Wakeup::Polling, Wakeup::PlainNotify,
    Wakeup::TriggersPolling };

const char* nameOf(Wakeup variant)
{
    switch (variant) {
    case Wakeup::Triggers:
        return "with";
    case Wakeup::Polling:
        return "without";
    case Wakeup::PlainNotify:
        return "plain NOTIFY";
    case Wakeup::TriggersPolling:
        return "triggers, polling relay";
    }
    return "?";
}

// The schema as migrated: the wake-up triggers enabled, the benchmark's plain-NOTIFY trigger gone.
void restoreTriggers(DbSession& admin)
{
    admin.execScript(QStringLiteral("DROP TRIGGER IF EXISTS bench_plain_notify ON outbox; "
                                    "DROP FUNCTION IF EXISTS bench_plain_notify(); "
                                    "ALTER TABLE outbox ENABLE TRIGGER outbox_wake_on_insert; "
                                    "ALTER TABLE outbox ENABLE TRIGGER outbox_wake_on_due;"),
        QStringLiteral("restoring the wake-up triggers"));
}

void applyVariant(DbSession& admin, Wakeup variant)
{
    if (variant == Wakeup::Triggers || variant == Wakeup::TriggersPolling)
        return;
    admin.execScript(QStringLiteral("ALTER TABLE outbox DISABLE TRIGGER outbox_wake_on_insert; "
                                    "ALTER TABLE outbox DISABLE TRIGGER outbox_wake_on_due;"),
        QStringLiteral("disabling the wake-up triggers"));
    if (variant != Wakeup::PlainNotify)
        return;
    admin.execScript(QStringLiteral("CREATE FUNCTION bench_plain_notify() RETURNS trigger LANGUAGE plpgsql AS $$ "
                                    "BEGIN PERFORM pg_notify('outbox_due', ''); RETURN NULL; END $$; "
                                    "CREATE TRIGGER bench_plain_notify AFTER INSERT ON outbox "
                                    "  FOR EACH STATEMENT EXECUTE FUNCTION bench_plain_notify();"),
        QStringLiteral("creating the plain-NOTIFY trigger"));
}

// Restores the triggers when a round ends, also when it throws.
class TriggersRestored final {
    Q_DISABLE_COPY_MOVE(TriggersRestored)
public:
    explicit TriggersRestored(DbSession& admin)
        : m_admin(admin)
    { }
    ~TriggersRestored()
    {
        try {
            restoreTriggers(m_admin);
        } catch (const std::exception& error) {
            std::fprintf(stderr, "%s\n", error.what());
        }
    }

private:
    DbSession& m_admin;
};

struct Round {
    double creates = 0; // per second
    qint64 backlog = 0; // rows the relay had not published when pgbench ended
    double batches = 0; // the relay's claims that found rows, per second
    double rowsPerBatch = 0;
};

// pgbench creating orders for `seconds` at `clients` while one relay (null sink) drains, on emptied tables.
Round createsWithRelay(const ConnectionSettings& settings, DbSession& admin, Wakeup variant, int clients, int seconds)
{
    resetAll(admin);
    admin.execScript(QStringLiteral("CHECKPOINT"), QStringLiteral("checkpoint"));
    TriggersRestored restored(admin);
    applyVariant(admin, variant);
    RelayOptions options = quietRelayOptions();
    options.workers = 1;
    options.wakeOnCommit = variant == Wakeup::Triggers || variant == Wakeup::PlainNotify;
    OutboxRelay relay(settings, SinkSpec::parse(QStringLiteral("null")), options);
    RunningRelay running(relay);
    std::this_thread::sleep_for(std::chrono::seconds(1)); // registered and idle
    Round round;
    round.creates = pgbench(insertKeyOrderAndMessage(), clients, seconds);
    round.backlog = unpublishedRows(admin);
    const RelayTotals totals = relay.status().totals;
    round.batches = double(totals.batchDuration.count) / seconds;
    round.rowsPerBatch = totals.batchDuration.count > 0 ? double(totals.claimed) / totals.batchDuration.count : 0;
    return round;
}

} // namespace

// Arguments: [seconds=15] [clients,...=1,4,16] [rounds=3]
int runWakeup(const ConnectionSettings& settings, DbSession& admin, const QStringList& args)
{
    const int seconds = intArgument(args, 0, 15);
    const QList<int> clientCounts = intListArgument(args, 1, { 1, 4, 16 });
    const int rounds = intArgument(args, 2, 3);
    restoreTriggers(admin); // whatever an interrupted run left behind
    std::printf(
        "pgbench key + order + outbox row, one statement, %d s per run, one relay (null sink) draining\n", seconds);
    std::printf("%7s  %10s %10s %10s %10s %13s %13s %18s\n", "clients", "with /s", "without", "plain", "trig+poll",
        "with/without", "plain/without", "trig+poll/without");
    for (const int clients : clientCounts) {
        std::array<std::vector<double>, Variants.size()> creates;
        for (int r = 0; r < rounds; ++r) {
            QStringList line;
            for (size_t i = 0; i < Variants.size(); ++i) {
                const size_t v = (i + size_t(r)) % Variants.size(); // the order rotates every round
                const Round round = createsWithRelay(settings, admin, Variants[v], clients, seconds);
                creates[v].push_back(round.creates);
                line.append(QStringLiteral("%1 %2 /s (backlog %3, %4 batches/s of %5)")
                                .arg(QLatin1String(nameOf(Variants[v])))
                                .arg(round.creates, 0, 'f', 0)
                                .arg(round.backlog)
                                .arg(round.batches, 0, 'f', 0)
                                .arg(round.rowsPerBatch, 0, 'f', 1));
            }
            std::printf("  round %d, %d clients: %s\n", r + 1, clients, qPrintable(line.join(QStringLiteral(", "))));
        }
        // Each round's ratio to the polling relay of the same round: the machine's drift between rounds cancels.
        const auto pairedRatio = [&](size_t variant) {
            std::vector<double> ratios;
            for (int r = 0; r < rounds; ++r)
                ratios.push_back(creates[variant][size_t(r)] / creates[1][size_t(r)]);
            return median(ratios);
        };
        std::printf("%7d  %10.0f %10.0f %10.0f %10.0f %13.2f %13.2f %18.2f\n", clients, median(creates[0]),
            median(creates[1]), median(creates[2]), median(creates[3]), pairedRatio(0), pairedRatio(2), pairedRatio(3));
    }
    return 0;
}
