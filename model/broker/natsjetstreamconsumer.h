// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/natsendpoint.h"

#include <QByteArray>
#include <QString>
#include <memory>
#include <optional>

struct NatsDelivery {
    quint64 deliveryTag = 0; // this consumer's handle for ack() and reject()
    QString messageId; // the Nats-Msg-Id header; empty if the publisher set none
    QString eventType; // the subject without the endpoint's PREFIX.
    QString subject;
    QByteArray body;
};

// Reads a JetStream durable pull consumer with explicit acknowledgements: the consumer `durable` of the stream that
// takes the endpoint's PREFIX.>, created if it does not exist (delivering from the stream's start, filtered to
// PREFIX.>, a delivery unacknowledged for 30 s delivered again; nothing else set, so that a consumer created otherwise
// is read as it is). It fetches up to `prefetch` messages at a time. A
// message not acknowledged when the consumer goes is delivered again after those 30 s. Every failure throws
// OutboxError(Broker); the owner then starts over with a new consumer (the client itself moves to another server
// when its server goes).
class NatsJetStreamConsumer final {
    Q_DISABLE_COPY_MOVE(NatsJetStreamConsumer)
public:
    struct Options {
        QString durable;
        int prefetch = 100;
    };

    NatsJetStreamConsumer(const NatsEndpoint& endpoint, const Options& options);
    ~NatsJetStreamConsumer();

    // The server it reads from (host:port).
    QString node() const;

    // The next delivery, or nothing after `timeoutMs` without one.
    std::optional<NatsDelivery> next(int timeoutMs);

    void ack(quint64 deliveryTag);
    // Refuses a delivery for good: JetStream does not deliver it again (AckTerm).
    void reject(quint64 deliveryTag);

private:
    struct Session; // the connection, its JetStream context, the subscription and the messages not yet acknowledged

    // Acknowledges (`accepted`) or terminates the delivery handed out as `deliveryTag`.
    void settle(quint64 deliveryTag, bool accepted);

    NatsEndpoint m_endpoint;
    Options m_options;
    std::unique_ptr<Session> m_session;
};
