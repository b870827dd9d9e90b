// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxmessage.h"

#include <QList>
#include <QString>
#include <functional>
#include <memory>

struct PublishResult {
    qint64 id = 0;
    bool ok = false;
    QString error; // why the broker refused it; empty when ok
};

// Where the relay publishes outbox messages. A sink gets a whole batch and answers once every message is
// confirmed or refused, which maps directly onto a broker with asynchronous publisher confirms (publish
// all, then wait for the acks). Each relay worker owns its own sink instance, so implementations need not
// be thread-safe.
class MessageSink {
public:
    virtual ~MessageSink() = default;

    // One result per message, in any order; a message without a result counts as failed. Throwing fails
    // the whole batch, and the relay then retries its messages one by one so that a single poison message
    // cannot fail its neighbours.
    virtual QList<PublishResult> publish(const QList<OutboxMessage>& batch) = 0;

    // Makes sure the sink can publish (a broker sink connects if it is not connected), so that an idle relay
    // knows too whether its broker is there. Throws OutboxError(Broker) if it cannot.
    virtual void ensureReachable() { }

    // Where it publishes now (the broker node it is connected to), without credentials, for the relay's registry
    // row; empty when it is not connected, or when there is no such thing.
    virtual QString destination() const { return {}; }
};

using MessageSinkFactory = std::function<std::unique_ptr<MessageSink>()>;
