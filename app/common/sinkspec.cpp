// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/sinkspec.h"

#include "broker/amqpcluster.h"
#include "broker/natsjetstreamsink.h"
#include "broker/rabbitmqsink.h"
#include "db/outboxerror.h"
#include "relay/sinks/faultinjectingsink.h"
#include "relay/sinks/jsonlinesfilesink.h"

namespace {

class NullSink final : public MessageSink {
public:
    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override
    {
        QList<PublishResult> results;
        for (const OutboxMessage& message : batch)
            results.append({ message.id, true, {} });
        return results;
    }
};

OutboxError badSpec(const QString& spec, const QString& why)
{
    return OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("invalid --sink '%1': %2").arg(spec, why));
}

// The endpoint `spec` names, or the reason it names none as a bad --sink.
template<typename Endpoint> Endpoint endpointOf(const QString& spec)
{
    try {
        return Endpoint::parse(spec);
    } catch (const OutboxError& error) {
        throw badSpec(SinkSpec::describe(spec), error.message());
    }
}

} // namespace

QString SinkSpec::describe(const QString& spec)
{
    // A fault in front of another sink: that one's spec as it may be shown.
    const qsizetype next = spec.indexOf(QLatin1Char('>'));
    if (spec.startsWith(QLatin1String("fault:")) && next > 0)
        return spec.left(next + 1) + describe(spec.mid(next + 1));
    return spec.startsWith(QLatin1String("amqp://"), Qt::CaseInsensitive)
            || spec.startsWith(QLatin1String("nats://"), Qt::CaseInsensitive)
        ? BrokerUri::redacted(spec)
        : spec;
}

MessageSinkFactory SinkSpec::parse(const QString& spec)
{
    if (spec == QLatin1String("null"))
        return [] { return std::make_unique<NullSink>(); };
    if (spec.startsWith(QLatin1String("file:"))) {
        const QString path = spec.mid(5);
        if (path.isEmpty())
            throw badSpec(spec, QStringLiteral("file: needs a path"));
        return [path] { return std::make_unique<JsonLinesFileSink>(path); };
    }
    if (spec.startsWith(QLatin1String("fault:"))) {
        const qsizetype arrow = spec.indexOf(QLatin1Char('>'));
        MessageSinkFactory next;
        if (arrow > 0) {
            const QString nextSpec = spec.mid(arrow + 1);
            if (nextSpec.isEmpty() || nextSpec.startsWith(QLatin1String("fault:")))
                throw badSpec(describe(spec), QStringLiteral("after '>' name the sink the faults are in front of"));
            next = parse(nextSpec);
        }
        const QStringList parts = spec.mid(6, arrow > 0 ? arrow - 6 : -1).split(QLatin1Char(','));
        if (parts.size() > 3)
            throw badSpec(describe(spec), QStringLiteral("expected fault:RATE[,LATENCY_MS[,CRASH_AFTER]][>SINK]"));
        FaultInjectingSink::Options options;
        bool ok = false;
        options.failureRate = parts.at(0).toDouble(&ok);
        if (!ok || options.failureRate < 0.0 || options.failureRate > 1.0)
            throw badSpec(describe(spec), QStringLiteral("the failure rate must be a number from 0 to 1"));
        if (parts.size() > 1) {
            options.latencyMs = parts.at(1).toInt(&ok);
            if (!ok || options.latencyMs < 0 || options.latencyMs > 60'000)
                throw badSpec(describe(spec), QStringLiteral("the latency must be 0 to 60000 milliseconds"));
        }
        if (parts.size() > 2) {
            options.crashAfter = parts.at(2).toLongLong(&ok);
            if (!ok || options.crashAfter < 1)
                throw badSpec(describe(spec), QStringLiteral("crash-after must be a positive number of messages"));
        }
        auto published = std::make_shared<std::atomic<qint64>>(0);
        return [options, published, next] {
            return std::make_unique<FaultInjectingSink>(options, published, next ? next() : nullptr);
        };
    }
    if (spec.startsWith(QLatin1String("amqp://"), Qt::CaseInsensitive)) {
        const auto endpoint = endpointOf<AmqpEndpoint>(spec);
        if (endpoint.exchange.isEmpty())
            throw badSpec(endpoint.display(), QStringLiteral("name the exchange to publish to: ?exchange=NAME"));
        // One cluster for every worker's sink: a node one of them found dead is tried last by the others.
        auto cluster = std::make_shared<AmqpCluster>(endpoint);
        return [cluster] { return std::make_unique<RabbitMqSink>(cluster); };
    }
    if (spec.startsWith(QLatin1String("nats://"), Qt::CaseInsensitive)) {
        const auto endpoint = endpointOf<NatsEndpoint>(spec);
        if (endpoint.subjectPrefix.isEmpty())
            throw badSpec(endpoint.display(), QStringLiteral("name the subjects' prefix: ?subject_prefix=PREFIX"));
        return [endpoint] { return std::make_unique<NatsJetStreamSink>(endpoint); };
    }
    throw badSpec(describe(spec),
        QStringLiteral(
            "expected amqp://..., nats://..., file:PATH, fault:RATE[,LATENCY_MS[,CRASH_AFTER]][>SINK] or null"));
}
