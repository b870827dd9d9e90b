// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/amqpendpoint.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <memory>
#include <optional>

class AmqpCluster;
class AmqpConnection;

struct AmqpDelivery {
    quint64 deliveryTag = 0;
    bool redelivered = false;
    QString messageId; // empty if the publisher set none
    QString eventType; // the AMQP type property, else the routing key
    QString routingKey;
    QByteArray body;
    QJsonObject headers;
};

// Consumes one durable queue with manual acknowledgements. The queue is declared (durable) and, when the
// endpoint names an exchange, bound to it with `bindingKey`. At most `prefetch` deliveries are unacknowledged
// at a time; whatever is unacknowledged when the connection ends is redelivered by the broker. Every broker
// failure throws OutboxError(Broker); the owner then starts over with a new consumer, which the cluster connects to
// another node first.
class RabbitMqConsumer final {
    Q_DISABLE_COPY_MOVE(RabbitMqConsumer)
public:
    struct Options {
        QString queue;
        QString bindingKey = QStringLiteral("#");
        int prefetch = 100;
    };

    RabbitMqConsumer(std::shared_ptr<AmqpCluster> cluster, const Options& options);
    // A cluster of its own: a consumer that is created once.
    RabbitMqConsumer(const AmqpEndpoint& endpoint, const Options& options);
    ~RabbitMqConsumer();

    // The node it consumes from (host:port).
    QString node() const;

    // The next delivery, or nothing after `timeoutMs` without one.
    std::optional<AmqpDelivery> next(int timeoutMs);

    void ack(quint64 deliveryTag);
    // Refuses a delivery for good (no requeue): the broker drops it or dead-letters it if the queue has a DLX.
    void reject(quint64 deliveryTag);

private:
    // Runs `step` on the connection; a failure tells the cluster that this node let the consumer down.
    template<typename Step> auto blamingNodeOnFailure(Step step);
    void subscribe(const Options& options);
    std::optional<AmqpDelivery> receive(int timeoutMs);

    std::shared_ptr<AmqpCluster> m_cluster;
    std::unique_ptr<AmqpConnection> m_connection;
};
