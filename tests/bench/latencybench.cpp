// SPDX-License-Identifier: GPL-3.0-or-later
// outbox-bench latency (see outboxbench.cpp): how long a row waits between its commit and its publish while rows
// arrive at a steady rate, per sink, beside (for RabbitMQ) the broker's own confirm latency at the same rate.

#include "outboxbench.h"

#include "broker/amqpconnection.h"
#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "db/sqlvalues.h"
#include "metrics/latencyhistogram.h"
#include "relay/outboxrelay.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <algorithm>
#include <amqp_framing.h>
#include <chrono>
#include <cstdio>
#include <latch>
#include <limits>
#include <optional>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

constexpr int SettleMs = 2'000; // the relay connects, registers and goes idle before the first row
constexpr int BatchSize = 100;
// One fsync'd commit per row: a commit waits 0.4 to 3 ms for its WAL flush here (more while the relay and the sink
// flush too), so a connection manages a few hundred rows a second at a steady pace; only commits in flight together
// share a flush. More connections than that only compete with the relay for the two cores: at 5000/s, 50 connections
// left a single relay worker a third of the rate, 20-25 connections half.
constexpr int RatePerConnection = 200;
const QString WindowMark = QStringLiteral("bench-window"); // the aggregate type of the rows the window inserts
const QString QueueName = QStringLiteral("outbox-bench-latency");

// One row per autocommit INSERT, the row's number as its aggregate id and in its dedupe key and payload.
const QString InsertSql
    = QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key) "
                     "SELECT '%1', v.n::text, 'order.created', jsonb_build_object('id', v.n, 'customer', "
                     "  'c-' || v.n % 100, 'amount', '12.50', 'currency', 'EUR'), 'latency-' || v.n "
                     "FROM (SELECT ?::bigint AS n) v")
          .arg(WindowMark);

// The same message as the relay publishes for row n (payload::text of the row above).
QByteArray payloadOf(qint64 n)
{
    return "{\"id\": " + QByteArray::number(n) + ", \"amount\": \"12.50\", \"currency\": \"EUR\", \"customer\": \"c-"
        + QByteArray::number(n % 100) + "\"}";
}

int connectionsFor(int rate)
{
    return std::clamp((rate + RatePerConnection - 1) / RatePerConnection, 1, 64);
}

// Operation n and the moment it was due: when it starts later (its thread was busy with an earlier one), the wait
// since `due` is part of its latency, as a row committed meanwhile waits for a busy relay.
using PacedOperation = std::function<void(qint64 n, Clock::time_point due)>;

// Operations 0..rate*seconds-1 at a steady `rate`, spread over `threads` threads: thread t performs n = t,
// t + threads, ... each at start + n / rate. The deadlines are absolute (sleep_until), so a slow operation delays
// the next ones of its thread but never the schedule. `begin(t)` runs on thread t before the start (connecting)
// and returns its operation; the schedule starts once every thread has connected. Returns the rate achieved: the
// operations over the time from the first deadline to the last completion.
double paced(int threads, int rate, int seconds, const std::function<PacedOperation(int)>& begin)
{
    const qint64 total = qint64(rate) * seconds;
    std::latch connected(threads + 1);
    std::latch go(1); // `start` is set before it opens
    Clock::time_point start;
    std::vector<Clock::time_point> finished(static_cast<size_t>(threads));
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            try {
                const PacedOperation operation = begin(t);
                connected.count_down();
                go.wait();
                for (qint64 n = t; n < total; n += threads) {
                    const Clock::time_point due = start + std::chrono::nanoseconds(n * 1'000'000'000 / rate);
                    std::this_thread::sleep_until(due);
                    operation(n, due);
                }
            } catch (const std::exception& error) {
                qFatal("paced operation failed: %s", error.what());
            }
            finished[size_t(t)] = Clock::now();
        });
    }
    connected.arrive_and_wait(); // not earlier: a connection's handshake would make its first slots overdue
    start = Clock::now() + std::chrono::milliseconds(50);
    go.count_down();
    for (std::thread& worker : workers)
        worker.join();
    const Clock::time_point last = *std::max_element(finished.begin(), finished.end());
    return double(total) / std::chrono::duration<double>(last - start).count();
}

// The q-quantile (0..1) of sorted samples, interpolated as percentile_cont does; 0 for none.
double quantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return 0;
    const double position = q * double(sorted.size() - 1);
    const size_t below = size_t(position);
    const size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (sorted[above] - sorted[below]) * (position - double(below));
}

struct Latency {
    double perSecond = 0;
    qint64 rows = 0;
    qint64 unpublished = 0;
    double p50 = 0;
    double p99 = 0;
    double max = 0;
    // From the moment the writer's INSERT returned (its commit) to published_at: the relay's part alone, without the
    // writer's own transaction and WAL flush, which created_at includes. For the broker loop: from the moment the
    // message was due (its slot in the steady rate) to its confirm, the wait for the connection's earlier confirms
    // included, as a row committed while the relay awaits a confirm waits; the three above are from its send.
    double commitP50 = 0;
    double commitP99 = 0;
    double commitMax = 0;
    QString relayView; // the relay's own histogram and troubles (relayHistogram); empty for the broker loop
};

QString latencyColumns(const Latency& latency)
{
    return QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
        .arg(latency.perSecond, 10, 'f', 0)
        .arg(latency.p50, 8, 'f', 1)
        .arg(latency.p99, 8, 'f', 1)
        .arg(latency.max, 8, 'f', 1)
        .arg(latency.commitP50, 8, 'f', 1)
        .arg(latency.commitP99, 8, 'f', 1)
        .arg(latency.commitMax, 8, 'f', 1);
}

// The relay's latency, from the database: published_at - created_at over the window's rows, and published_at - the
// time the writer's INSERT of row n returned, `committedUs[n]` (microseconds since the epoch, this host's clock,
// which the local server shares).
Latency windowLatency(DbSession& admin, const std::vector<qint64>& committedUs)
{
    QSqlQuery& q = admin.exec(
        QStringLiteral("SELECT count(*), count(*) FILTER (WHERE published_at IS NULL), "
                       "  coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms), 0), "
                       "  coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), 0), coalesce(max(ms), 0) "
                       "FROM (SELECT published_at, "
                       "  (extract(epoch FROM published_at - created_at) * 1000)::float8 AS ms "
                       "  FROM outbox WHERE aggregate_type = ?::text) w"),
        { WindowMark }, QStringLiteral("window latency"));
    q.next();
    Latency latency;
    latency.rows = q.value(0).toLongLong();
    latency.unpublished = q.value(1).toLongLong();
    latency.p50 = q.value(2).toDouble();
    latency.p99 = q.value(3).toDouble();
    latency.max = q.value(4).toDouble();
    QSqlQuery& c = admin.exec(
        QStringLiteral("SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms), 0), "
                       "  coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), 0), coalesce(max(ms), 0) "
                       "FROM (SELECT (extract(epoch FROM o.published_at) * 1000 - c.us / 1000.0)::float8 AS ms "
                       "  FROM outbox o JOIN unnest(?::bigint[]) WITH ORDINALITY AS c(us, k) "
                       "    ON o.aggregate_id = (c.k - 1)::text AND o.aggregate_type = ?::text) w"),
        { SqlValues::bigintArray(QList<qint64>(committedUs.cbegin(), committedUs.cend())), WindowMark },
        QStringLiteral("window latency from the writers' commits"));
    c.next();
    latency.commitP50 = c.value(0).toDouble();
    latency.commitP99 = c.value(1).toDouble();
    latency.commitMax = c.value(2).toDouble();
    return latency;
}

// The relay's own view: its in-process histogram (log2 buckets, so upper bounds) of the same latency, and what
// went wrong if anything did.
QString relayHistogram(const RelayStatus& status, double observedMaxMs)
{
    const RelayTotals& totals = status.totals;
    const qint64 max = qint64(observedMaxMs) + 1;
    QString view
        = QStringLiteral("relay histogram p50 <%1 p99 <%2 ms, batch p50 <%3 ms")
              .arg(LatencyHistogram::quantileMs(totals.publishLatency.buckets, 0.5, max))
              .arg(LatencyHistogram::quantileMs(totals.publishLatency.buckets, 0.99, max))
              .arg(LatencyHistogram::quantileMs(totals.batchDuration.buckets, 0.5, std::numeric_limits<qint64>::max()));
    if (totals.failed + totals.fenced + totals.rescued + totals.handedBack > 0)
        view += QStringLiteral("; failed %1, fenced %2, rescued %3, handed back %4")
                    .arg(totals.failed)
                    .arg(totals.fenced)
                    .arg(totals.rescued)
                    .arg(totals.handedBack);
    return view;
}

Latency relayLatency(
    const ConnectionSettings& settings, DbSession& admin, const QString& spec, int rate, int workers, int seconds)
{
    resetOutbox(admin);
    RelayOptions options = quietRelayOptions();
    options.workers = workers;
    options.batchSize = BatchSize;
    OutboxRelay relay(settings, SinkSpec::parse(spec), options);
    RunningRelay running(relay);
    std::this_thread::sleep_for(std::chrono::milliseconds(SettleMs));
    // Each row's slot is written by the one thread that inserts it (a vector: no shared state besides the slots).
    std::vector<qint64> committedUs(size_t(rate) * size_t(seconds));
    const double inserted = paced(connectionsFor(rate), rate, seconds, [&committedUs](int) -> PacedOperation {
        auto connection = std::make_shared<PgConnection>();
        connection->prepare("insert", InsertSql);
        return [connection, &committedUs](qint64 n, Clock::time_point) {
            connection->execPrepared("insert", { QByteArray::number(n) });
            committedUs[size_t(n)] = std::chrono::duration_cast<std::chrono::microseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                                         .count();
        };
    });
    if (!waitUntil([&] { return unpublishedRows(admin) == 0; }, 120'000))
        std::fprintf(stderr, "rows still unpublished after 120 s; the percentiles below cover the published ones\n");
    running.stop();
    Latency latency = windowLatency(admin, committedUs);
    latency.perSecond = inserted;
    latency.relayView = relayHistogram(relay.status(), latency.max);
    return latency;
}

// The broker's own limit: rabbitmq-c publishing the relay's messages (persistent, mandatory, same properties and
// payload size) to the same exchange at the same steady rate, each publish waiting for its confirm. Timed from the
// send alone, a broker stall would count once per connection: the messages due during it are sent after it and look
// fast (coordinated omission), while every row committed during it waits for the relay.
Latency brokerLatency(const AmqpEndpoint& endpoint, int rate, int seconds)
{
    const int threads = connectionsFor(rate);
    std::vector<std::vector<double>> fromSend(static_cast<size_t>(threads));
    std::vector<std::vector<double>> fromDue(static_cast<size_t>(threads));
    const QByteArray exchange = endpoint.exchange.toUtf8();
    const double published = paced(threads, rate, seconds, [&](int t) -> PacedOperation {
        auto connection = std::make_shared<AmqpConnection>(endpoint, 0, endpoint.confirmTimeoutMs);
        connection->declareExchange();
        amqp_confirm_select(connection->state(), AmqpConnection::Channel);
        connection->checkReply(QStringLiteral("switching the channel to publisher confirms"));
        std::vector<double>& sendLatencies = fromSend[size_t(t)];
        std::vector<double>& dueLatencies = fromDue[size_t(t)];
        sendLatencies.reserve(size_t(qint64(rate) * seconds / threads + 1));
        dueLatencies.reserve(sendLatencies.capacity());
        return [connection, &sendLatencies, &dueLatencies, &exchange, &endpoint](qint64 n, Clock::time_point due) {
            const QByteArray routingKey("order.created");
            const QByteArray messageId = "latency-" + QByteArray::number(n);
            const QByteArray payload = payloadOf(n);
            amqp_basic_properties_t properties {};
            properties._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG
                | AMQP_BASIC_MESSAGE_ID_FLAG | AMQP_BASIC_TYPE_FLAG | AMQP_BASIC_HEADERS_FLAG
                | AMQP_BASIC_TIMESTAMP_FLAG;
            properties.content_type = amqp_cstring_bytes("application/json");
            properties.delivery_mode = AMQP_DELIVERY_PERSISTENT;
            properties.message_id = AmqpConnection::bytes(messageId);
            properties.type = AmqpConnection::bytes(routingKey);
            properties.headers = amqp_empty_table;
            properties.timestamp = uint64_t(QDateTime::currentSecsSinceEpoch());
            const Clock::time_point sent = Clock::now();
            connection->checkStatus(
                amqp_basic_publish(connection->state(), AmqpConnection::Channel, AmqpConnection::bytes(exchange),
                    AmqpConnection::bytes(routingKey), 1, 0, &properties, AmqpConnection::bytes(payload)),
                QStringLiteral("publishing"));
            for (;;) {
                amqp_frame_t frame;
                if (!connection->waitFrame(frame, endpoint.confirmTimeoutMs))
                    qFatal("no publisher confirm within %d ms", endpoint.confirmTimeoutMs);
                if (frame.frame_type != AMQP_FRAME_METHOD)
                    continue;
                if (frame.payload.method.id == AMQP_BASIC_ACK_METHOD)
                    break;
                qFatal("the broker answered a publish with method 0x%08x instead of basic.ack (is the queue bound?)",
                    frame.payload.method.id);
            }
            const Clock::time_point confirmed = Clock::now();
            sendLatencies.push_back(std::chrono::duration<double, std::milli>(confirmed - sent).count());
            dueLatencies.push_back(std::chrono::duration<double, std::milli>(confirmed - due).count());
        };
    });
    const auto merged = [](const std::vector<std::vector<double>>& perThread) {
        std::vector<double> all;
        for (const std::vector<double>& thread : perThread)
            all.insert(all.end(), thread.begin(), thread.end());
        std::sort(all.begin(), all.end());
        return all;
    };
    const std::vector<double> send = merged(fromSend);
    const std::vector<double> sinceDue = merged(fromDue);
    return Latency { published, qint64(send.size()), 0, quantile(send, 0.5), quantile(send, 0.99),
        send.empty() ? 0 : send.back(), quantile(sinceDue, 0.5), quantile(sinceDue, 0.99),
        sinceDue.empty() ? 0 : sinceDue.back(), {} };
}

// `work` on a connection of its own: the benchmark's bookkeeping on the broker survives whatever closed an idle
// connection meanwhile (the broker tests close every connection of the node).
void onBroker(const AmqpEndpoint& endpoint, const std::function<void(AmqpConnection&)>& work)
{
    AmqpConnection connection(endpoint, 0, 10'000);
    work(connection);
}

struct SinkUnderTest {
    QString name;
    QString spec;
};

void printLatencyRow(
    const QString& sink, int rate, const QString& workers, const Latency& latency, const QString& comment)
{
    std::printf("%-9s %7d %8s %s %8lld  %s\n", qPrintable(sink), rate, qPrintable(workers),
        qPrintable(latencyColumns(latency)), latency.rows, qPrintable(comment));
}

} // namespace

// Arguments: [seconds=20] [amqp-uri (else OUTBOX_TEST_AMQP_URI; "none": no RabbitMQ)] [rates=100,1000,5000]
// [sinks=null,file,rabbitmq]
int runLatency(const ConnectionSettings& settings, DbSession& admin, const QStringList& args)
{
    const int seconds = intArgument(args, 0, 20);
    QString uri = stringArgument(args, 1, qEnvironmentVariable("OUTBOX_TEST_AMQP_URI"));
    if (uri == QLatin1String("none"))
        uri.clear();
    const QList<int> rates = intListArgument(args, 2, { 100, 1000, 5000 });
    const int highest = *std::max_element(rates.begin(), rates.end()); // also measured with 4 workers
    const QStringList chosen = stringArgument(args, 3, QStringLiteral("null,file,rabbitmq")).split(QLatin1Char(','));
    QTemporaryDir sinkDir;
    QList<SinkUnderTest> sinks { { QStringLiteral("null"), QStringLiteral("null") },
        { QStringLiteral("file"), QStringLiteral("file:") + sinkDir.filePath(QStringLiteral("relay.jsonl")) } };
    sinks.removeIf([&chosen](const SinkUnderTest& sink) { return !chosen.contains(sink.name); });
    std::optional<AmqpEndpoint> broker;
    if (!uri.isEmpty() && chosen.contains(QLatin1String("rabbitmq"))) {
        if (!uri.contains(QLatin1String("exchange=")))
            uri += QLatin1String(uri.contains(QLatin1Char('?')) ? "&" : "?") + QStringLiteral("exchange=outbox-bench");
        sinks.append({ QStringLiteral("rabbitmq"), uri });
        broker = AmqpEndpoint::parse(uri);
        // A durable queue bound to every routing key: the broker persists each message before confirming it, and
        // the relay's mandatory publishes are routable.
        onBroker(*broker, [](AmqpConnection& connection) {
            connection.declareExchange();
            connection.declareQueue(QueueName);
            connection.bindQueue(QueueName, connection.endpoint().exchange, QStringLiteral("#"));
        });
    }
    const auto purge = [&broker] {
        if (!broker)
            return;
        onBroker(*broker, [](AmqpConnection& connection) {
            amqp_queue_purge(connection.state(), AmqpConnection::Channel, AmqpConnection::bytes(QueueName.toUtf8()));
            connection.checkReply(QStringLiteral("purging the benchmark queue"));
        });
    };

    std::printf("%d s per window, relay batch %d, idle poll %lld ms, wakeOnCommit %s; one connection (inserting, or "
                "publishing in the loop) per %d rows/s; sinks:",
        seconds, BatchSize, RelayOptions().idlePollMs, RelayOptions().wakeOnCommit ? "on" : "off", RatePerConnection);
    for (const SinkUnderTest& sink : sinks)
        std::printf(" %s (%s)", qPrintable(sink.name), qPrintable(SinkSpec::describe(sink.spec)));
    std::printf(
        "\n(from created_at: the writer's transaction and commit included; from commit: from the moment the "
        "writer's INSERT returned;\n amqp-loop: from its send, and in the commit columns from the moment it was "
        "due at the steady rate)\n");
    std::printf("\n%-9s %7s %8s %10s %8s %8s %8s %8s %8s %8s %8s\n", "sink", "rate/s", "workers", "achieved/s",
        "p50 ms", "p99 ms", "max ms", "commit50", "commit99", "c. max", "rows");
    for (const SinkUnderTest& sink : sinks) {
        for (const int rate : rates) {
            QList<QPair<int, double>> relayP99s;
            for (const int workers : rate == highest ? QList<int> { 1, 4 } : QList<int> { 1 }) {
                const Latency latency = relayLatency(settings, admin, sink.spec, rate, workers, seconds);
                printLatencyRow(sink.name, rate, QString::number(workers), latency,
                    latency.unpublished > 0
                        ? QStringLiteral("%1 UNPUBLISHED; ").arg(latency.unpublished) + latency.relayView
                        : latency.relayView);
                relayP99s.append({ workers, latency.commitP99 });
                purge();
            }
            if (!broker || sink.spec != uri)
                continue;
            const Latency loop = brokerLatency(*broker, rate, seconds);
            QStringList differences;
            for (const auto& [workers, p99] : relayP99s)
                differences.append(
                    QStringLiteral("%1 worker(s) %2 ms").arg(workers).arg(p99 - loop.commitP99, 0, 'f', 1));
            printLatencyRow(QStringLiteral("amqp-loop"), rate, QStringLiteral("-"), loop,
                QStringLiteral("confirm each; from send, then from due; relay p99 from commit - loop p99 from due: ")
                    + differences.join(QStringLiteral(", ")));
            purge();
        }
    }
    if (broker) {
        onBroker(*broker, [](AmqpConnection& connection) {
            amqp_queue_delete(
                connection.state(), AmqpConnection::Channel, AmqpConnection::bytes(QueueName.toUtf8()), 0, 0);
            connection.checkReply(QStringLiteral("deleting the benchmark queue"));
        });
    }
    return 0;
}
