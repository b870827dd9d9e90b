// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/amqpendpoint.h"

#include <QByteArray>
#include <QString>
#include <amqp.h>

// One connection to one node of a RabbitMQ broker (rabbitmq-c) with channel 1 open (AmqpCluster picks the node). Every
// failure throws OutboxError(Broker) naming the step and the broker's or the library's reason; after one the connection
// is broken for good and the owner opens a new one. Not thread-safe: one owner, one thread.
class AmqpConnection final {
    Q_DISABLE_COPY_MOVE(AmqpConnection)
public:
    static constexpr amqp_channel_t Channel = 1;

    // Connects, logs in and opens the channel, each step bounded by `timeoutMs`. With `heartbeatSeconds` the
    // broker and the library check the connection both ways; only for owners that call into the library at
    // least that often (a consumer polling for deliveries), since rabbitmq-c sends heartbeats from its calls.
    // `connectTimeoutMs` (if not 0) bounds the connect and the login instead.
    AmqpConnection(
        AmqpEndpoint endpoint, qsizetype node, int timeoutMs, int heartbeatSeconds = 0, int connectTimeoutMs = 0);
    ~AmqpConnection();

    amqp_connection_state_t state() const { return m_state; }
    const AmqpEndpoint& endpoint() const { return m_endpoint; }
    qsizetype node() const { return m_node; } // an index into endpoint().nodes

    // The endpoint's exchange: declared durable, or with declare=0 required to exist.
    void declareExchange();
    // Durable, of the endpoint's queue type.
    void declareQueue(const QString& queue);
    void bindQueue(const QString& queue, const QString& exchange, const QString& routingKey);

    // The next frame from the broker, or false after `timeoutMs` without one. A connection.close or
    // channel.close from the broker throws with the broker's reply code and text.
    bool waitFrame(amqp_frame_t& frame, int timeoutMs);

    // Throws unless the last synchronous call (declare, bind, qos, consume, ...) succeeded.
    void checkReply(const QString& doing);
    // Throws unless `reply` (of a call that returns one, such as amqp_read_message) is normal.
    void check(const amqp_rpc_reply_t& reply, const QString& doing);
    // Throws for a failed library status code (AMQP_STATUS_*).
    void checkStatus(int status, const QString& doing);

    static amqp_bytes_t bytes(const QByteArray& data)
    {
        return amqp_bytes_t { size_t(data.size()), const_cast<char*>(data.constData()) };
    }
    static QByteArray toByteArray(amqp_bytes_t bytes)
    {
        return QByteArray(static_cast<const char*>(bytes.bytes), qsizetype(bytes.len));
    }

    // Gives up on the connection (no polite close: the broker may not be answering) and throws
    // OutboxError(Broker) naming `doing` and `reason`.
    [[noreturn]] void fail(const QString& doing, const QString& reason);

private:
    void open(int timeoutMs, int heartbeatSeconds, int connectTimeoutMs);
    static QString describeClose(const amqp_method_t& method);

    AmqpEndpoint m_endpoint;
    qsizetype m_node = 0;
    amqp_connection_state_t m_state = nullptr;
    bool m_open = false; // logged in and channel open, so a polite close is possible
};
