// SPDX-License-Identifier: GPL-3.0-or-later
#include "consumecommand.h"

#include "argumentparser.h"
#include "broker/amqpcluster.h"
#include "broker/amqpendpoint.h"
#include "broker/natsjetstreamconsumer.h"
#include "broker/rabbitmqconsumer.h"
#include "common/exitcode.h"
#include "common/signalwatcher.h"
#include "console.h"
#include "db/dbsession.h"
#include "db/peeroutages.h"
#include "db/retrydelay.h"
#include "inbox/inboxprocessor.h"
#include "metrics/metricsrecorder.h"
#include "orders/customerordercounter.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <condition_variable>
#include <mutex>

namespace {

constexpr int PollMs = 200; // how long one wait for a delivery lasts, so a stop request is seen promptly
constexpr qint64 MetricsFlushMs = 1000;

struct ConsumeTotals {
    qint64 received = 0;
    qint64 applied = 0;
    qint64 duplicates = 0;
    qint64 rejected = 0;
};

// Set by SIGINT/SIGTERM; waits between reconnects end early when it is.
class StopRequest final {
public:
    void request()
    {
        std::lock_guard lock(m_mutex);
        m_requested = true;
        m_changed.notify_all();
    }
    bool requested()
    {
        std::lock_guard lock(m_mutex);
        return m_requested;
    }
    // Returns false if a stop was requested meanwhile.
    bool wait(qint64 ms)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait_for(lock, std::chrono::milliseconds(ms), [this] { return m_requested; });
        return !m_requested;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_requested = false;
};

} // namespace

QString ConsumeCommand::summary() const
{
    return QStringLiteral(
        "Apply events from a RabbitMQ queue or a NATS JetStream durable consumer exactly once through the inbox "
        "(orders per customer).");
}

QString ConsumeCommand::synopsis() const
{
    return QStringLiteral("--from amqp://URI|nats://URI --queue Q --consumer NAME [--bind KEY] [--prefetch N] "
                          "[--max-messages N]");
}

void ConsumeCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(QStringLiteral("from"), QStringLiteral("URI"),
        QStringLiteral(
            "The broker, amqp://USER:PASS@HOST:PORT/VHOST, or a cluster's nodes, "
            "amqp://USER:PASS@H1:P1,H2:P2/VHOST (another is used when one fails); with ?exchange=NAME the "
            "queue is bound to that exchange, with &queue_type=quorum it is declared a quorum queue; or NATS "
            "servers, nats://H1:P1,H2:P2/?subject_prefix=PREFIX, to read the stream that takes PREFIX.>."));
    parser.addValue(QStringLiteral("queue"), QStringLiteral("Q"),
        QStringLiteral(
            "Queue to consume (declared durable); with NATS, the durable consumer to read (created if missing)."));
    parser.addValue(QStringLiteral("consumer"), QStringLiteral("NAME"),
        QStringLiteral("Name under which the inbox remembers applied messages; keep it stable across restarts."));
    parser.addValue(QStringLiteral("bind"), QStringLiteral("KEY"),
        QStringLiteral("Binding key of the queue on the exchange (RabbitMQ)."), QStringLiteral("#"));
    parser.addValue(QStringLiteral("prefetch"), QStringLiteral("N"),
        QStringLiteral("Unacknowledged deliveries at most (1 to 65535)."), QStringLiteral("100"));
    parser.addValue(QStringLiteral("max-messages"), QStringLiteral("N"),
        QStringLiteral("Stop after N deliveries were handled; 0 runs until SIGINT or SIGTERM."), QStringLiteral("0"));
}

// Applies deliveries of the consumers `makeConsumer` makes (a RabbitMqConsumer or a NatsJetStreamConsumer: the same
// next, ack, reject and node) through the inbox until stopped, making a new one after a broker failure.
// `connectDatabase` opens a session on the service's database (Command::connect).
template<typename ConnectDatabase, typename MakeConsumer>
static int consume(ConnectDatabase connectDatabase, const QString& consumerName, qint64 maxMessages,
    const QString& source, const QString& where, MakeConsumer makeConsumer)
{
    std::unique_ptr<DbSession> session = connectDatabase(); // fails fast on a wrong server or schema
    const auto logOutage = [](QtMsgType level, const QString& line) { Console::log(line, level); };
    PeerOutages peers(QStringLiteral("broker"), logOutage);
    MetricsRecorder metrics;
    ConsumeTotals totals;
    StopRequest stop;
    const SignalWatcher watcher([&stop] { stop.request(); });
    auto done = [&] { return stop.requested() || (maxMessages > 0 && totals.received >= maxMessages); };
    auto flushMetrics = [&] {
        try {
            if (session)
                metrics.flush(*session);
        } catch (const OutboxError& error) {
            if (error.kind() == OutboxError::Kind::Connection)
                peers.database().reportDown(error.message());
            else
                Console::log(QStringLiteral("consumer metrics: %1").arg(error.message()), QtWarningMsg);
        }
    };

    Console::log(QStringLiteral("consuming %1 from %2 as consumer %3; SIGINT or SIGTERM stops it")
                     .arg(source, where, consumerName));
    RetryDelay retry;
    while (!done()) {
        try {
            if (!session)
                session = connectDatabase();
            peers.database().reportUp();
            const auto consumerPointer = makeConsumer();
            auto& consumer = *consumerPointer;
            peers.broker().reportUp();
            // After every (re)connection: the queue or durable consumer exists, so publishers may start.
            Console::log(QStringLiteral("receiving from %1 on node %2").arg(source, consumer.node()));
            InboxProcessor inbox(*session, consumerName, &metrics);
            CustomerOrderCounter counter(*session, consumerName);
            QDeadlineTimer nextFlush(MetricsFlushMs);
            while (!done()) {
                if (nextFlush.hasExpired()) {
                    flushMetrics();
                    nextFlush.setRemainingTime(MetricsFlushMs);
                }
                const auto delivery = consumer.next(PollMs);
                if (!delivery)
                    continue;
                try {
                    const InboxProcessor::Outcome outcome = inbox.process(
                        delivery->messageId, [&](DbSession&) { counter.apply(delivery->eventType, delivery->body); });
                    consumer.ack(delivery->deliveryTag);
                    retry.reset(); // a delivery went through: both connections work
                    ++(outcome == InboxProcessor::Outcome::Applied ? totals.applied : totals.duplicates);
                } catch (const OutboxError& error) {
                    // Only the consumer's own verdict on the message (no SQLSTATE): a constraint the database
                    // raised may well pass on a retry.
                    if (error.kind() != OutboxError::Kind::InvalidInput || !error.sqlState().isEmpty())
                        throw;
                    // A message that can never be applied must not come back forever.
                    consumer.reject(delivery->deliveryTag);
                    ++totals.rejected;
                    Console::log(QStringLiteral("rejected message '%1' (%2): %3")
                                     .arg(delivery->messageId, delivery->eventType, error.message()));
                }
                ++totals.received;
            }
        } catch (const OutboxError& error) {
            // Unacknowledged deliveries go back to the queue with the connection; the inbox drops any that
            // were applied already.
            if (!peers.report(error))
                throw;
            if (error.kind() == OutboxError::Kind::Connection)
                session.reset();
            if (!stop.wait(retry.next()))
                break;
        }
    }
    flushMetrics();
    Console::line(QString::fromUtf8(QJsonDocument(
        QJsonObject { { QStringLiteral("received"), totals.received }, { QStringLiteral("applied"), totals.applied },
            { QStringLiteral("duplicates"), totals.duplicates }, { QStringLiteral("rejected"), totals.rejected } })
                                        .toJson(QJsonDocument::Compact)));
    return ExitCode::Success;
}

int ConsumeCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const QString from = parser.requiredText(QStringLiteral("from"));
    const QString queue = parser.requiredText(QStringLiteral("queue"));
    const int prefetch = int(parser.integer(QStringLiteral("prefetch"), 1, 65'535));
    const QString consumerName = parser.requiredText(QStringLiteral("consumer"));
    const qint64 maxMessages = parser.integer(QStringLiteral("max-messages"), 0, std::numeric_limits<qint64>::max());
    const auto connectDatabase = [&settings] { return connect(settings); };
    if (from.startsWith(QLatin1String("nats://"), Qt::CaseInsensitive)) {
        NatsEndpoint endpoint;
        try {
            endpoint = NatsEndpoint::parse(from);
        } catch (const OutboxError& error) {
            throw parser.usageError(QStringLiteral("--from %1: %2").arg(BrokerUri::redacted(from), error.message()));
        }
        if (endpoint.subjectPrefix.isEmpty())
            throw parser.usageError(
                QStringLiteral("--from %1: name the subjects' prefix: ?subject_prefix=PREFIX").arg(endpoint.display()));
        const NatsJetStreamConsumer::Options options { queue, prefetch };
        return consume(connectDatabase, consumerName, maxMessages,
            QStringLiteral("the durable consumer %1 of the stream taking %2").arg(queue, endpoint.subjects()),
            endpoint.display(), [&] { return std::make_unique<NatsJetStreamConsumer>(endpoint, options); });
    }
    AmqpEndpoint endpoint;
    try {
        endpoint = AmqpEndpoint::parse(from);
    } catch (const OutboxError& error) {
        throw parser.usageError(QStringLiteral("--from %1: %2").arg(AmqpEndpoint::redacted(from), error.message()));
    }
    RabbitMqConsumer::Options options;
    options.queue = queue;
    options.bindingKey = parser.value(QStringLiteral("bind"));
    options.prefetch = prefetch;
    const auto cluster = std::make_shared<AmqpCluster>(endpoint);
    return consume(connectDatabase, consumerName, maxMessages,
        QStringLiteral("queue %1 (binding key %2)").arg(queue, options.bindingKey), endpoint.display(),
        [&] { return std::make_unique<RabbitMqConsumer>(cluster, options); });
}
