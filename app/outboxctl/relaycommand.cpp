// SPDX-License-Identifier: GPL-3.0-or-later
#include "relaycommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "common/httpendpoint.h"
#include "common/signalwatcher.h"
#include "common/sinkspec.h"
#include "console.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "relay/outboxrelay.h"
#include "relayendpoint.h"

#include <QCoreApplication>
#include <optional>

QString RelayCommand::summary() const
{
    return QStringLiteral("Publish due outbox rows to a sink until stopped (or, with --once, until none are due).");
}

QString RelayCommand::synopsis() const
{
    return QStringLiteral("[--workers N] [--batch B] "
                          "[--sink amqp://URI|nats://URI|file:PATH|fault:RATE[,LATENCY_MS[,CRASH_AFTER]]|null] "
                          "[--once] [--lease-seconds S] [--max-attempts M] [--backoff-base-ms MS] "
                          "[--backoff-max-ms MS] [--poll-ms MS] [--no-listen] [--name NAME] [--heartbeat-seconds S] "
                          "[--metrics-listen [IP:]PORT] "
                          "[--log-format text|json]");
}

void RelayCommand::addOptions(ArgumentParser& parser) const
{
    const RelayOptions defaults;
    parser.addValue(QStringLiteral("workers"), QStringLiteral("N"),
        QStringLiteral("Worker threads, each with its own connection and sink (1 to 64)."),
        QString::number(defaults.workers));
    parser.addValue(QStringLiteral("batch"), QStringLiteral("B"),
        QStringLiteral("Rows claimed per batch (1 to 10000)."), QString::number(defaults.batchSize));
    parser.addValue(QStringLiteral("sink"), QStringLiteral("SPEC"),
        QStringLiteral("Where to publish: amqp://USER:PASS@HOST:PORT/VHOST?exchange=NAME publishes to RabbitMQ with "
                       "publisher confirms, nats://HOST:PORT/?subject_prefix=PREFIX publishes into a NATS JetStream "
                       "stream, file:PATH appends JSON lines, fault:RATE[,LATENCY_MS[,CRASH_AFTER]] "
                       "fails that share of messages, null accepts everything."),
        QStringLiteral("null"));
    parser.addFlag(QStringLiteral("once"), QStringLiteral("Stop when no due rows remain instead of polling."));
    parser.addValue(QStringLiteral("lease-seconds"), QStringLiteral("S"),
        QStringLiteral("How long a claimed batch is leased; extended every third of it while the batch is published, "
                       "so it is how long a crashed relay's rows wait for rescue (1 to 86400)."),
        QString::number(defaults.leaseMs / 1000));
    parser.addValue(QStringLiteral("max-attempts"), QStringLiteral("M"),
        QStringLiteral("Publish attempts before a row is dead (1 to 1000)."), QString::number(defaults.maxAttempts));
    parser.addValue(QStringLiteral("backoff-base-ms"), QStringLiteral("MS"),
        QStringLiteral("Delay before the first retry; it doubles per attempt, with jitter (0 to 3600000)."),
        QString::number(defaults.backoffBaseMs));
    parser.addValue(QStringLiteral("backoff-max-ms"), QStringLiteral("MS"),
        QStringLiteral("Longest delay between retries (0 to 86400000)."), QString::number(defaults.backoffMaxMs));
    parser.addValue(QStringLiteral("poll-ms"), QStringLiteral("MS"),
        QStringLiteral("The fallback poll: an idle relay wakes when a committed row is due (LISTEN outbox_due) and "
                       "looks for due rows at least this often, which is what a missed notification costs "
                       "(10 to 600000)."),
        QString::number(defaults.idlePollMs));
    parser.addFlag(QStringLiteral("no-listen"),
        QStringLiteral("Poll every --poll-ms instead of waking on commit. A relay behind a transaction-pooling proxy "
                       "does so by itself (OUTBOX_POOLING)."));
    parser.addValue(QStringLiteral("name"), QStringLiteral("NAME"),
        QStringLiteral("The relay's name in the registry (outboxctl relays) and in its rows' lease owner "
                       "(default: HOST:PID)."));
    parser.addValue(QStringLiteral("heartbeat-seconds"), QStringLiteral("S"),
        QStringLiteral("How often the relay updates its registry row; three missed heartbeats make it stale "
                       "(1 to 300)."),
        QString::number(defaults.registryHeartbeatMs / 1000));
    parser.addValue(QStringLiteral("metrics-listen"), QStringLiteral("[IP:]PORT"),
        QStringLiteral("Serve /metrics (Prometheus) and /healthz there; a PORT alone listens on the loopback only."));
}

static RelayOptions relayOptions(const ArgumentParser& parser)
{
    RelayOptions options;
    options.workers = int(parser.integer(QStringLiteral("workers"), 1, 64));
    options.batchSize = int(parser.integer(QStringLiteral("batch"), 1, 10'000));
    options.leaseMs = parser.integer(QStringLiteral("lease-seconds"), 1, 86'400) * 1000;
    options.maxAttempts = int(parser.integer(QStringLiteral("max-attempts"), 1, 1000));
    options.backoffBaseMs = parser.integer(QStringLiteral("backoff-base-ms"), 0, 3'600'000);
    options.backoffMaxMs = parser.integer(QStringLiteral("backoff-max-ms"), 0, 86'400'000);
    if (options.backoffMaxMs < options.backoffBaseMs)
        throw parser.usageError(QStringLiteral("--backoff-max-ms must not be less than --backoff-base-ms"));
    options.once = parser.isSet(QStringLiteral("once"));
    options.idlePollMs = parser.integer(QStringLiteral("poll-ms"), 10, 600'000);
    options.wakeOnCommit = !parser.isSet(QStringLiteral("no-listen"));
    options.workerName = parser.value(QStringLiteral("name")).trimmed();
    if (parser.isSet(QStringLiteral("name")) && options.workerName.isEmpty())
        throw parser.usageError(QStringLiteral("--name must not be blank"));
    options.registryHeartbeatMs = parser.integer(QStringLiteral("heartbeat-seconds"), 1, 300) * 1000;
    options.sinkDescription = SinkSpec::describe(parser.value(QStringLiteral("sink")));
    options.version = QCoreApplication::applicationVersion();
    options.log = [](QtMsgType level, const QString& line) { Console::log(line, level); };
    return options;
}

int RelayCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const RelayOptions options = relayOptions(parser);
    const MessageSinkFactory sinks = SinkSpec::parse(parser.value(QStringLiteral("sink")));
    std::optional<ListenAddress> listen;
    if (parser.isSet(QStringLiteral("metrics-listen")))
        listen = ListenAddress::parse(
            parser.value(QStringLiteral("metrics-listen")), QStringLiteral("metrics-listen"), true);
    // A sink that cannot be created (say, an unwritable file) is bad input; say so before claiming any row
    // rather than after every worker has failed on it.
    try {
        sinks();
    } catch (const OutboxError& error) {
        throw parser.usageError(QStringLiteral("--sink: %1").arg(error.message()));
    }
    // Fails fast on an unreachable server or a wrong schema; the workers open connections of their own.
    const QString target = settings.describe(connect(settings)->database());

    OutboxRelay relay(settings, sinks, options);
    // Before the endpoint's thread, which must inherit the blocked signals (see SignalWatcher).
    const SignalWatcher watcher([&relay] { relay.stop(); });
    std::optional<HttpEndpoint> endpoint;
    if (listen) {
        const RelayEndpoint::Identity identity { relay.name(), options.version };
        endpoint.emplace(*listen, [&relay, identity](QHttpServer& server) {
            RelayEndpoint::addRoutes(
                server, [&relay] { return relay.status(); }, identity);
        });
    }
    Console::log(QStringLiteral("relay %1 started on %2: %3 workers, batch %4, sink %5; SIGINT or SIGTERM stops it")
                     .arg(relay.name(), target)
                     .arg(options.workers)
                     .arg(options.batchSize)
                     .arg(options.sinkDescription));
    if (endpoint)
        Console::log(QStringLiteral("serving /metrics and /healthz on %1").arg(endpoint->url()));
    const RelayTotals totals = relay.run();
    Console::line(QStringLiteral("claimed %1 published %2 failed %3 dead %4 fenced %5 rescued %6 handed back %7")
                      .arg(totals.claimed)
                      .arg(totals.published)
                      .arg(totals.failed)
                      .arg(totals.dead)
                      .arg(totals.fenced)
                      .arg(totals.rescued)
                      .arg(totals.handedBack));
    return ExitCode::Success;
}
