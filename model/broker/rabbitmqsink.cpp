// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/rabbitmqsink.h"

#include "broker/amqpcluster.h"
#include "broker/amqpconnection.h"
#include "broker/amqpheadertable.h"
#include "db/outboxerror.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <amqp_framing.h>
#include <map>
#include <utility>

// AMQP short strings (routing key, message id, type, header names) hold at most 255 bytes, and the properties
// must fit in one frame (128 KiB as negotiated). Checked up front because rabbitmq-c may already have sent the
// publish method when encoding the properties fails, which would break the channel for the whole batch.
static QString unencodable(const QByteArray& routingKey, const QByteArray& messageId, const QByteArray& headersJson,
    const QJsonObject& headers)
{
    constexpr qsizetype ShortStringMax = 255;
    constexpr qsizetype HeadersMax = 64LL * 1024;
    if (headersJson.size() > HeadersMax)
        return QStringLiteral("the headers are %1 bytes of JSON; at most %2 fit in an AMQP frame here")
            .arg(headersJson.size())
            .arg(HeadersMax);
    if (routingKey.size() > ShortStringMax)
        return QStringLiteral("the event type is %1 bytes long; AMQP routing keys hold at most 255")
            .arg(routingKey.size());
    if (messageId.size() > ShortStringMax)
        return QStringLiteral("the dedupe key is %1 bytes long; AMQP message ids hold at most 255")
            .arg(messageId.size());
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        if (it.key().toUtf8().size() > ShortStringMax)
            return QStringLiteral("the header name '%1…' is longer than AMQP's 255 bytes").arg(it.key().left(40));
    }
    return {};
}

RabbitMqSink::RabbitMqSink(std::shared_ptr<AmqpCluster> cluster)
    : m_cluster(std::move(cluster))
{ }

RabbitMqSink::RabbitMqSink(const AmqpEndpoint& endpoint)
    : RabbitMqSink(std::make_shared<AmqpCluster>(endpoint))
{ }

RabbitMqSink::~RabbitMqSink() = default;

void RabbitMqSink::ensureReachable()
{
    if (!m_connection) {
        connect();
        return;
    }
    // An idle connection learns that the broker closed it (connection.close, or the socket's end) only by reading.
    // Nothing else is due on it between batches: publish() returns only once every confirm has arrived.
    try {
        amqp_frame_t frame;
        m_connection->waitFrame(frame, 0);
    } catch (const OutboxError&) {
        dropConnection();
        throw;
    }
}

QString RabbitMqSink::destination() const
{
    return m_connection ? m_cluster->endpoint().nodes.at(m_connection->node()).display() : QString();
}

void RabbitMqSink::dropConnection()
{
    if (m_connection) {
        if (m_confirmsOverdue && !m_anyConfirmReceived)
            m_cluster->noteUnconfirmed(m_connection->node());
        else
            m_cluster->noteLost(m_connection->node());
    }
    m_connection.reset();
}

void RabbitMqSink::connect()
{
    std::unique_ptr<AmqpConnection> connection = m_cluster->connect(m_cluster->endpoint().confirmTimeoutMs);
    try {
        connection->declareExchange();
        amqp_confirm_select(connection->state(), AmqpConnection::Channel);
        connection->checkReply(QStringLiteral("switching the channel to publisher confirms"));
    } catch (const OutboxError&) {
        m_cluster->noteLost(connection->node());
        throw;
    }
    m_connection = std::move(connection);
    m_lastDeliveryTag = 0;
    m_anyConfirmReceived = false;
    m_confirmsOverdue = false;
}

QList<PublishResult> RabbitMqSink::publish(const QList<OutboxMessage>& batch)
{
    try {
        if (!m_connection)
            connect();
        return publishOn(*m_connection, batch);
    } catch (const OutboxError&) {
        dropConnection(); // whatever went wrong, the next batch starts on a fresh connection
        throw;
    }
}

QList<PublishResult> RabbitMqSink::publishOn(AmqpConnection& connection, const QList<OutboxMessage>& batch)
{
    const AmqpEndpoint& endpoint = m_cluster->endpoint();
    const QByteArray exchange = endpoint.exchange.toUtf8();
    std::map<quint64, qint64> unconfirmed; // delivery tag -> outbox id
    QHash<QString, qint64> idByMessageId;
    QList<PublishResult> results;
    for (const OutboxMessage& message : batch) {
        const QByteArray routingKey = message.eventType.toUtf8();
        const QByteArray messageId = message.dedupeKey.toUtf8();
        const QJsonObject headerObject = QJsonDocument::fromJson(message.headers).object();
        // A message AMQP cannot carry fails by itself, before anything is sent; it must not pass for an outage.
        if (const QString problem = unencodable(routingKey, messageId, message.headers, headerObject);
            !problem.isEmpty()) {
            results.append({ message.id, false, problem });
            continue;
        }
        const AmqpHeaderTable headers(headerObject);
        amqp_basic_properties_t properties {};
        properties._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_MESSAGE_ID_FLAG
            | AMQP_BASIC_TYPE_FLAG | AMQP_BASIC_HEADERS_FLAG | AMQP_BASIC_TIMESTAMP_FLAG;
        properties.content_type = amqp_cstring_bytes("application/json");
        properties.delivery_mode = AMQP_DELIVERY_PERSISTENT;
        properties.message_id = AmqpConnection::bytes(messageId);
        properties.type = AmqpConnection::bytes(routingKey);
        properties.headers = headers.table();
        properties.timestamp = uint64_t(message.createdAt.toSecsSinceEpoch());
        const int status
            = amqp_basic_publish(connection.state(), AmqpConnection::Channel, AmqpConnection::bytes(exchange),
                AmqpConnection::bytes(routingKey), 1, 0, &properties, AmqpConnection::bytes(message.payload));
        connection.checkStatus(status, QStringLiteral("publishing"));
        unconfirmed.emplace(++m_lastDeliveryTag, message.id);
        idByMessageId.insert(message.dedupeKey, message.id);
    }

    // The broker answers every publish with an ack or a nack, in any grouping ("multiple" settles every tag up
    // to the one named); an unroutable mandatory message comes back as basic.return before its ack.
    QHash<qint64, QString> refused;
    auto settle = [&](quint64 tag, bool multiple, bool acked) {
        if (!std::exchange(m_anyConfirmReceived, true))
            m_cluster->noteConfirmed(connection.node());
        auto it = multiple ? unconfirmed.begin() : unconfirmed.find(tag);
        while (it != unconfirmed.end() && it->first <= tag) {
            const qint64 id = it->second;
            if (!acked)
                results.append({ id, false, QStringLiteral("the broker refused the message (basic.nack)") });
            else if (refused.contains(id))
                results.append({ id, false, refused.value(id) });
            else
                results.append({ id, true, {} });
            it = unconfirmed.erase(it);
            if (!multiple)
                break;
        }
    };
    const QDeadlineTimer deadline(endpoint.confirmTimeoutMs);
    while (!unconfirmed.empty()) {
        amqp_frame_t frame;
        if (!connection.waitFrame(frame, int(deadline.remainingTime()))) {
            m_confirmsOverdue = true;
            connection.fail(QStringLiteral("waiting for publisher confirms"),
                QStringLiteral("none within %1 ms for %2 of %3 messages")
                    .arg(endpoint.confirmTimeoutMs)
                    .arg(unconfirmed.size())
                    .arg(batch.size()));
        }
        if (frame.frame_type != AMQP_FRAME_METHOD)
            continue;
        switch (frame.payload.method.id) {
        case AMQP_BASIC_ACK_METHOD: {
            const auto* ack = static_cast<const amqp_basic_ack_t*>(frame.payload.method.decoded);
            settle(ack->delivery_tag, ack->multiple, true);
            break;
        }
        case AMQP_BASIC_NACK_METHOD: {
            const auto* nack = static_cast<const amqp_basic_nack_t*>(frame.payload.method.decoded);
            settle(nack->delivery_tag, nack->multiple, false);
            break;
        }
        case AMQP_BASIC_RETURN_METHOD: {
            const auto* returned = static_cast<const amqp_basic_return_t*>(frame.payload.method.decoded);
            const QString reason = QStringLiteral("returned by the broker: %1 %2 (exchange '%3', routing key '%4')")
                                       .arg(returned->reply_code)
                                       .arg(QString::fromUtf8(AmqpConnection::toByteArray(returned->reply_text)),
                                           QString::fromUtf8(AmqpConnection::toByteArray(returned->exchange)),
                                           QString::fromUtf8(AmqpConnection::toByteArray(returned->routing_key)));
            // The returned message follows as a header and body; its message id says which one it was.
            amqp_message_t message;
            connection.check(amqp_read_message(connection.state(), frame.channel, &message, 0),
                QStringLiteral("reading a returned message"));
            if (message.properties._flags & AMQP_BASIC_MESSAGE_ID_FLAG) {
                const QString messageId = QString::fromUtf8(AmqpConnection::toByteArray(message.properties.message_id));
                if (idByMessageId.contains(messageId))
                    refused.insert(idByMessageId.value(messageId), reason);
            }
            amqp_destroy_message(&message);
            break;
        }
        default:
            break; // connection.blocked / unblocked and the like: keep waiting, within the deadline
        }
    }
    return results;
}
