// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/natsendpoint.h"
#include "relay/messagesink.h"

#include <memory>

// Publishes outbox messages into a NATS JetStream stream, exactly once within the stream's duplicate window: each row
// goes to PREFIX.<event type> with the header Nats-Msg-Id = its dedupe key (the stream drops a second message with
// an id it has seen within the window, and acknowledges it as a duplicate), Content-Type: application/json, and the
// row's headers. A batch is published without waiting in between (nats.c's asynchronous publish) and its
// acknowledgements are awaited together, for at most the endpoint's ack timeout.
//
// A message is reported ok when the stream acknowledged it, as stored or as a duplicate. JetStream's refusal of the
// message itself (larger than the stream's max_msg_size) is a failed attempt with the server's words; a message NATS
// cannot carry (its event type no subject token, a header it cannot hold, larger than the server's max_payload with
// its headers) or that no stream takes (its subject outside every stream's subjects) fails by itself before it is
// sent. Everything else is no message's fault and throws OutboxError(Broker), the batch going back to be published
// again: no server connected, no acknowledgement in time (a stream leader lost, a server killed), "no responders" (a
// stream without a leader), or any other JetStream error (a full stream with discard=new, the stream offline, the
// cluster without a quorum); a row stored before its acknowledgement was lost is then acknowledged as a duplicate.
//
// On connecting the sink asks JetStream for a stream that takes PREFIX.> and refuses to publish, saying so, when there
// is none: a relay started before its stream was created says why it publishes nothing.
class NatsJetStreamSink final : public MessageSink {
    Q_DISABLE_COPY_MOVE(NatsJetStreamSink)
public:
    explicit NatsJetStreamSink(const NatsEndpoint& endpoint);
    ~NatsJetStreamSink() final override;

    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override;
    void ensureReachable() final override;
    QString destination() const final override;

private:
    struct Session; // a connection, its JetStream context and the answers awaited on it

    void connect();
    // Whether a stream of JetStream takes `subject` (asked once per subject and connection, while it does not).
    bool takesSubject(const QString& subject);

    NatsEndpoint m_endpoint;
    std::unique_ptr<Session> m_session;
};
