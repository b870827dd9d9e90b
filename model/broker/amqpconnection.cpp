// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpconnection.h"

#include "db/outboxerror.h"
#include "db/peerliveness.h"

#include <amqp_framing.h>
#include <amqp_tcp_socket.h>
#include <cerrno>
#include <sys/time.h>
#include <system_error>

static timeval toTimeval(int ms)
{
    return timeval { ms / 1000, (ms % 1000) * 1000L };
}

AmqpConnection::AmqpConnection(
    AmqpEndpoint endpoint, qsizetype node, int timeoutMs, int heartbeatSeconds, int connectTimeoutMs)
    : m_endpoint(std::move(endpoint))
    , m_node(node)
    , m_state(amqp_new_connection())
{
    if (!m_state)
        throw OutboxError(OutboxError::Kind::Broker, QStringLiteral("cannot allocate an AMQP connection"));
    try {
        open(timeoutMs, heartbeatSeconds, connectTimeoutMs > 0 ? connectTimeoutMs : timeoutMs);
    } catch (...) {
        amqp_destroy_connection(m_state); // the destructor does not run for a constructor that throws
        throw;
    }
}

void AmqpConnection::open(int timeoutMs, int heartbeatSeconds, int connectTimeoutMs)
{
    const timeval timeout = toTimeval(connectTimeoutMs);
    const timeval rpcTimeout = toTimeval(timeoutMs);
    amqp_set_handshake_timeout(m_state, &timeout);
    amqp_set_rpc_timeout(m_state, &rpcTimeout);
    amqp_socket_t* socket = amqp_tcp_socket_new(m_state);
    if (!socket)
        fail(QStringLiteral("creating a socket"), QStringLiteral("out of memory"));
    const BrokerNode& address = m_endpoint.nodes.at(m_node);
    checkStatus(amqp_socket_open_noblock(socket, address.host.toUtf8().constData(), address.port, &timeout),
        QStringLiteral("connecting"));
    // A broker behind a blackholed link must fail the publish waiting for its confirms, or the consumer's wait
    // for deliveries, within seconds; rabbitmq-c's heartbeats cannot see to it for the sink, since they are only
    // sent from within its calls, which a relay with nothing to publish does not make. Sooner than a database
    // connection: a cluster's other nodes take the publishes at once, and rows wait leased meanwhile.
    if (!PeerLiveness::applyTo(amqp_socket_get_sockfd(socket), PeerLiveness::Broker))
        fail(QStringLiteral("setting up the connection's keepalives"),
            QString::fromStdString(std::generic_category().message(errno)));
    const amqp_rpc_reply_t login
        = amqp_login(m_state, m_endpoint.vhost.toUtf8().constData(), 0, 131072, heartbeatSeconds,
            AMQP_SASL_METHOD_PLAIN, m_endpoint.user.toUtf8().constData(), m_endpoint.password.toUtf8().constData());
    check(login, QStringLiteral("logging in as '%1' to vhost '%2'").arg(m_endpoint.user, m_endpoint.vhost));
    amqp_channel_open(m_state, Channel);
    checkReply(QStringLiteral("opening a channel"));
    m_open = true;
}

AmqpConnection::~AmqpConnection()
{
    if (m_open) {
        amqp_channel_close(m_state, Channel, AMQP_REPLY_SUCCESS);
        amqp_connection_close(m_state, AMQP_REPLY_SUCCESS);
    }
    amqp_destroy_connection(m_state);
}

void AmqpConnection::fail(const QString& doing, const QString& reason)
{
    m_open = false;
    throw OutboxError(
        OutboxError::Kind::Broker, QStringLiteral("%1 (%2): %3").arg(doing, m_endpoint.display(m_node), reason));
}

QString AmqpConnection::describeClose(const amqp_method_t& method)
{
    if (method.id == AMQP_CONNECTION_CLOSE_METHOD) {
        const auto* close = static_cast<const amqp_connection_close_t*>(method.decoded);
        return QStringLiteral("the broker closed the connection: %1 %2")
            .arg(close->reply_code)
            .arg(QString::fromUtf8(toByteArray(close->reply_text)));
    }
    if (method.id == AMQP_CHANNEL_CLOSE_METHOD) {
        const auto* close = static_cast<const amqp_channel_close_t*>(method.decoded);
        return QStringLiteral("the broker closed the channel: %1 %2")
            .arg(close->reply_code)
            .arg(QString::fromUtf8(toByteArray(close->reply_text)));
    }
    return QStringLiteral("unexpected method 0x%1 from the broker").arg(method.id, 8, 16, QLatin1Char('0'));
}

void AmqpConnection::checkReply(const QString& doing)
{
    check(amqp_get_rpc_reply(m_state), doing);
}

void AmqpConnection::check(const amqp_rpc_reply_t& reply, const QString& doing)
{
    switch (reply.reply_type) {
    case AMQP_RESPONSE_NORMAL:
        return;
    case AMQP_RESPONSE_NONE:
        fail(doing, QStringLiteral("no reply from the broker"));
    case AMQP_RESPONSE_LIBRARY_EXCEPTION:
        fail(doing, QString::fromUtf8(amqp_error_string2(reply.library_error)));
    case AMQP_RESPONSE_SERVER_EXCEPTION:
        fail(doing, describeClose(reply.reply));
    }
    fail(doing, QStringLiteral("unknown reply type %1").arg(int(reply.reply_type)));
}

void AmqpConnection::checkStatus(int status, const QString& doing)
{
    if (status != AMQP_STATUS_OK)
        fail(doing, QString::fromUtf8(amqp_error_string2(status)));
}

void AmqpConnection::declareExchange()
{
    if (m_endpoint.exchange.isEmpty())
        return; // the default exchange always exists
    const QByteArray name = m_endpoint.exchange.toUtf8();
    const QByteArray type = m_endpoint.exchangeType.toUtf8();
    amqp_exchange_declare(
        m_state, Channel, bytes(name), bytes(type), m_endpoint.declareExchange ? 0 : 1, 1, 0, 0, amqp_empty_table);
    checkReply(m_endpoint.declareExchange ? QStringLiteral("declaring the exchange '%1'").arg(m_endpoint.exchange)
                                          : QStringLiteral("requiring the exchange '%1'").arg(m_endpoint.exchange));
}

void AmqpConnection::declareQueue(const QString& queue)
{
    const QByteArray name = queue.toUtf8();
    const QByteArray type = m_endpoint.queueType.toUtf8();
    amqp_table_entry_t typeEntry;
    typeEntry.key = amqp_cstring_bytes("x-queue-type");
    typeEntry.value.kind = AMQP_FIELD_KIND_UTF8;
    typeEntry.value.value.bytes = bytes(type);
    // A classic queue is declared without the argument, as it was before queue types existed, so that a queue
    // declared by an older client is the same queue.
    const amqp_table_t arguments
        = m_endpoint.queueType == QLatin1String("classic") ? amqp_empty_table : amqp_table_t { 1, &typeEntry };
    amqp_queue_declare(m_state, Channel, bytes(name), 0, 1, 0, 0, arguments);
    checkReply(QStringLiteral("declaring the %1 queue '%2'").arg(m_endpoint.queueType, queue));
}

void AmqpConnection::bindQueue(const QString& queue, const QString& exchange, const QString& routingKey)
{
    const QByteArray q = queue.toUtf8();
    const QByteArray e = exchange.toUtf8();
    const QByteArray k = routingKey.toUtf8();
    amqp_queue_bind(m_state, Channel, bytes(q), bytes(e), bytes(k), amqp_empty_table);
    checkReply(QStringLiteral("binding the queue '%1' to '%2' with '%3'").arg(queue, exchange, routingKey));
}

bool AmqpConnection::waitFrame(amqp_frame_t& frame, int timeoutMs)
{
    amqp_maybe_release_buffers(m_state);
    const timeval timeout = toTimeval(qMax(timeoutMs, 0));
    const int status = amqp_simple_wait_frame_noblock(m_state, &frame, &timeout);
    if (status == AMQP_STATUS_TIMEOUT)
        return false;
    checkStatus(status, QStringLiteral("reading from the broker"));
    if (frame.frame_type == AMQP_FRAME_METHOD
        && (frame.payload.method.id == AMQP_CONNECTION_CLOSE_METHOD
            || frame.payload.method.id == AMQP_CHANNEL_CLOSE_METHOD))
        fail(QStringLiteral("talking to the broker"), describeClose(frame.payload.method));
    return true;
}
