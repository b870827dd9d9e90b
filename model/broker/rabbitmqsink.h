// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/amqpendpoint.h"
#include "relay/messagesink.h"

#include <memory>

class AmqpCluster;
class AmqpConnection;

// Publishes outbox messages to a RabbitMQ exchange with publisher confirms. Each message is persistent and
// mandatory, routed by its event type (also its AMQP type), with the dedupe key as message id, the outbox
// headers as AMQP headers, JSON as content type and the row's creation time as timestamp. A batch is published in one
// go and its confirms are awaited together.
//
// A message is reported ok only when the broker acked it without returning it; a nack or a return (no queue
// bound for the routing key) is a failed attempt carrying the broker's reason. When the broker cannot be
// reached, or the connection breaks before every confirm arrived, publish() throws OutboxError(Broker): no
// message is at fault, and the relay hands the batch back and reconnects with backoff. The connection is
// opened on the first publish and after every such failure, to a node of the cluster (AmqpCluster: another one
// than the node that failed, when there are several; see AmqpCluster::noteUnconfirmed for a new connection whose
// confirms are overdue).
class RabbitMqSink final : public MessageSink {
    Q_DISABLE_COPY_MOVE(RabbitMqSink)
public:
    // `cluster` may be shared by the sinks of one process (the relay's workers).
    explicit RabbitMqSink(std::shared_ptr<AmqpCluster> cluster);
    // A cluster of its own.
    explicit RabbitMqSink(const AmqpEndpoint& endpoint);
    ~RabbitMqSink() final override;

    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override;
    void ensureReachable() final override;
    QString destination() const final override;

private:
    void connect();
    QList<PublishResult> publishOn(AmqpConnection& connection, const QList<OutboxMessage>& batch);

    // Drops the connection after a failure on it, so that the next batch connects afresh, and tells the cluster.
    void dropConnection();

    std::shared_ptr<AmqpCluster> m_cluster;
    std::unique_ptr<AmqpConnection> m_connection;
    quint64 m_lastDeliveryTag = 0; // confirm-mode delivery tags count publishes on the channel from 1
    bool m_anyConfirmReceived = false; // the broker acked or nacked a publish on this connection
    bool m_confirmsOverdue = false; // the connection ends because confirms did not arrive in time
};
