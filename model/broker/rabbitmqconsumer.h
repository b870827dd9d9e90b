// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/amqpendpoint.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <memory>
#include <optional>

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
// failure throws OutboxError(Broker); the owner then starts over with a new consumer.
class RabbitMqConsumer final {
    Q_DISABLE_COPY_MOVE(RabbitMqConsumer)
public:
    struct Options {
        QString queue;
        QString bindingKey = QStringLiteral("#");
        int prefetch = 100;
    };

    RabbitMqConsumer(const AmqpEndpoint& endpoint, const Options& options);
    ~RabbitMqConsumer();

    // The next delivery, or nothing after `timeoutMs` without one.
    std::optional<AmqpDelivery> next(int timeoutMs);

    void ack(quint64 deliveryTag);
    // Refuses a delivery for good (no requeue): the broker drops it or dead-letters it if the queue has a DLX.
    void reject(quint64 deliveryTag);

private:
    std::unique_ptr<AmqpConnection> m_connection;
};
