// SPDX-License-Identifier: GPL-3.0-or-later
// Relay throughput into RabbitMQ with publisher confirms, at batch sizes 1, 100 and 1000, beside the same relay
// with the null sink, in one run. Not a test: it prints numbers for docs/benchmarks.md and the issue notes.
//   pg_virtualenv -o fsync=on build/tests/bench/amqp-bench [rows] [amqp://guest:guest@127.0.0.1:5672/]
// Each run publishes `rows` messages (a tenth of them at batch size 1) through one relay worker into a durable
// queue bound to the exchange, so the broker persists every message before confirming it.

#include "broker/amqpconnection.h"
#include "broker/rabbitmqsink.h"
#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "relay/outboxrelay.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <amqp_framing.h>
#include <cstdio>

namespace {

double relayRate(const ConnectionSettings& settings, DbSession& admin, int rows, int batch, MessageSinkFactory sinks)
{
    admin.execScript(
        QStringLiteral("TRUNCATE outbox, outbox_attempts RESTART IDENTITY CASCADE"), QStringLiteral("reset"));
    admin.exec(
        QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, headers, dedupe_key) "
                       "SELECT 'order', g::text, 'order.created', "
                       "  jsonb_build_object('id', g, 'customer', 'c-' || (g % 100), 'amount', '12.50'), "
                       "  jsonb_build_object('tenant', 't-1'), 'bench-' || g "
                       "FROM generate_series(1, ?::int) g"),
        { rows }, QStringLiteral("seeding"));
    admin.execScript(QStringLiteral("VACUUM ANALYZE outbox"), QStringLiteral("vacuum"));
    RelayOptions options;
    options.batchSize = batch;
    options.once = true;
    options.backoffBaseMs = 0;
    options.log = [](QtMsgType, const QString& line) { std::fprintf(stderr, "%s\n", qPrintable(line)); };
    QElapsedTimer timer;
    timer.start();
    const RelayTotals totals = OutboxRelay(settings, std::move(sinks), options).run();
    const double rate = double(totals.published) * 1000.0 / double(timer.elapsed());
    if (totals.published != rows)
        std::fprintf(stderr, "only %lld of %d rows published\n", totals.published, rows);
    return rate;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int rows = argc > 1 ? QByteArray(argv[1]).toInt() : 20'000;
    AmqpEndpoint endpoint = AmqpEndpoint::parse(
        argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("amqp://guest:guest@127.0.0.1:5672/"));
    endpoint.exchange = QStringLiteral("outbox-bench");
    const ConnectionSettings settings;
    DbSession admin(settings, QStringLiteral("bench-admin"));
    SchemaMigrator(admin).migrate();

    AmqpConnection broker(endpoint, 0, 10'000);
    broker.declareExchange();
    broker.declareQueue(QStringLiteral("outbox-bench"));
    broker.bindQueue(QStringLiteral("outbox-bench"), endpoint.exchange, QStringLiteral("#"));
    const QByteArray queue("outbox-bench");

    std::printf("%-8s %8s %16s %16s %8s\n", "batch", "rows", "null sink /s", "rabbitmq /s", "ratio");
    for (const int batch : { 1, 100, 1000 }) {
        const int n = batch == 1 ? rows / 10 : rows;
        const double null = relayRate(settings, admin, n, batch, SinkSpec::parse(QStringLiteral("null")));
        const double rabbit
            = relayRate(settings, admin, n, batch, [endpoint] { return std::make_unique<RabbitMqSink>(endpoint); });
        amqp_queue_purge(broker.state(), AmqpConnection::Channel, AmqpConnection::bytes(queue));
        broker.checkReply(QStringLiteral("purging the benchmark queue"));
        std::printf("%-8d %8d %16.0f %16.0f %7.0f%%\n", batch, n, null, rabbit, 100.0 * rabbit / null);
    }
    amqp_queue_delete(broker.state(), AmqpConnection::Channel, AmqpConnection::bytes(queue), 0, 0);
    return 0;
}
