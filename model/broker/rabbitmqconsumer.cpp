// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/rabbitmqconsumer.h"

#include "broker/amqpcluster.h"
#include "broker/amqpconnection.h"
#include "broker/amqpheadertable.h"
#include "db/outboxerror.h"

#include <amqp_framing.h>
#include <sys/time.h>

static constexpr int ConnectTimeoutMs = 10'000;
// The consumer calls into the library every poll, so heartbeats can find a connection that died silently.
static constexpr int HeartbeatSeconds = 30;

template<typename Step> auto RabbitMqConsumer::blamingNodeOnFailure(Step step)
{
    try {
        return step();
    } catch (const OutboxError&) {
        m_cluster->noteLost(m_connection->node());
        throw;
    }
}

RabbitMqConsumer::RabbitMqConsumer(const AmqpEndpoint& endpoint, const Options& options)
    : RabbitMqConsumer(std::make_shared<AmqpCluster>(endpoint), options)
{ }

RabbitMqConsumer::RabbitMqConsumer(std::shared_ptr<AmqpCluster> cluster, const Options& options)
    : m_cluster(std::move(cluster))
    , m_connection(m_cluster->connect(ConnectTimeoutMs, HeartbeatSeconds))
{
    blamingNodeOnFailure([&] { subscribe(options); });
}

QString RabbitMqConsumer::node() const
{
    return m_cluster->endpoint().nodes.at(m_connection->node()).display();
}

void RabbitMqConsumer::subscribe(const Options& options)
{
    const AmqpEndpoint& endpoint = m_cluster->endpoint();
    m_connection->declareQueue(options.queue);
    if (!endpoint.exchange.isEmpty()) {
        m_connection->declareExchange();
        m_connection->bindQueue(options.queue, endpoint.exchange, options.bindingKey);
    }
    amqp_basic_qos(m_connection->state(), AmqpConnection::Channel, 0, uint16_t(options.prefetch), 0);
    m_connection->checkReply(QStringLiteral("setting the prefetch count"));
    const QByteArray queue = options.queue.toUtf8();
    amqp_basic_consume(m_connection->state(), AmqpConnection::Channel, AmqpConnection::bytes(queue), amqp_empty_bytes,
        0, 0, 0, amqp_empty_table);
    m_connection->checkReply(QStringLiteral("consuming from the queue '%1'").arg(options.queue));
}

RabbitMqConsumer::~RabbitMqConsumer() = default;

static QString text(amqp_bytes_t bytes)
{
    return QString::fromUtf8(AmqpConnection::toByteArray(bytes));
}

std::optional<AmqpDelivery> RabbitMqConsumer::next(int timeoutMs)
{
    return blamingNodeOnFailure([&] { return receive(timeoutMs); });
}

std::optional<AmqpDelivery> RabbitMqConsumer::receive(int timeoutMs)
{
    amqp_connection_state_t state = m_connection->state();
    amqp_maybe_release_buffers(state);
    const timeval timeout { timeoutMs / 1000, (timeoutMs % 1000) * 1000L };
    amqp_envelope_t envelope;
    const amqp_rpc_reply_t reply = amqp_consume_message(state, &envelope, &timeout, 0);
    if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && reply.library_error == AMQP_STATUS_TIMEOUT)
        return std::nullopt;
    if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && reply.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
        // Something other than a delivery arrived: a close (waitFrame throws with the broker's reason) or the
        // broker cancelling this consumer because its queue was deleted.
        amqp_frame_t frame;
        if (m_connection->waitFrame(frame, 0) && frame.frame_type == AMQP_FRAME_METHOD
            && frame.payload.method.id == AMQP_BASIC_CANCEL_METHOD) {
            throw OutboxError(OutboxError::Kind::Broker,
                QStringLiteral("the broker cancelled the consumer (was the queue deleted?)"));
        }
        return std::nullopt;
    }
    m_connection->check(reply, QStringLiteral("receiving a message"));

    AmqpDelivery delivery;
    delivery.deliveryTag = envelope.delivery_tag;
    delivery.redelivered = envelope.redelivered;
    delivery.routingKey = text(envelope.routing_key);
    const amqp_basic_properties_t& properties = envelope.message.properties;
    if (properties._flags & AMQP_BASIC_MESSAGE_ID_FLAG)
        delivery.messageId = text(properties.message_id);
    delivery.eventType = properties._flags & AMQP_BASIC_TYPE_FLAG ? text(properties.type) : delivery.routingKey;
    if (properties._flags & AMQP_BASIC_HEADERS_FLAG)
        delivery.headers = AmqpHeaderTable::toJson(properties.headers);
    delivery.body = AmqpConnection::toByteArray(envelope.message.body);
    amqp_destroy_envelope(&envelope);
    return delivery;
}

void RabbitMqConsumer::ack(quint64 deliveryTag)
{
    blamingNodeOnFailure([&] {
        m_connection->checkStatus(amqp_basic_ack(m_connection->state(), AmqpConnection::Channel, deliveryTag, 0),
            QStringLiteral("acknowledging a message"));
    });
}

void RabbitMqConsumer::reject(quint64 deliveryTag)
{
    blamingNodeOnFailure([&] {
        m_connection->checkStatus(amqp_basic_reject(m_connection->state(), AmqpConnection::Channel, deliveryTag, 0),
            QStringLiteral("rejecting a message"));
    });
}
