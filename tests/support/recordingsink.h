// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/messagesink.h"

#include <memory>
#include <mutex>

// Records every delivered message's id, event type and ordering key, across relays and workers.
class RecordingSink final : public MessageSink {
public:
    struct Deliveries {
        std::mutex mutex;
        QList<OutboxMessage> messages;

        QList<OutboxMessage> snapshot()
        {
            std::lock_guard lock(mutex);
            return messages;
        }
    };

    explicit RecordingSink(std::shared_ptr<Deliveries> deliveries)
        : m_deliveries(std::move(deliveries))
    { }

    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override
    {
        std::lock_guard lock(m_deliveries->mutex);
        QList<PublishResult> results;
        for (const OutboxMessage& message : batch) {
            m_deliveries->messages.append(message);
            results.append({ message.id, true, {} });
        }
        return results;
    }

private:
    std::shared_ptr<Deliveries> m_deliveries;
};
