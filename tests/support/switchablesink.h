// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/messagesink.h"

#include <atomic>
#include <memory>

// A sink that refuses every publish while its switch says so and accepts every one otherwise: a broker refusing
// (NO_ROUTE, a full queue) and then repaired, with the moment of the repair chosen by the test.
class SwitchableSink final : public MessageSink {
public:
    explicit SwitchableSink(std::shared_ptr<std::atomic<bool>> refusing)
        : m_refusing(std::move(refusing))
    { }

    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override
    {
        const bool refuse = m_refusing->load();
        QList<PublishResult> results;
        for (const OutboxMessage& message : batch)
            results.append({ message.id, !refuse, refuse ? QStringLiteral("refused by the test's sink") : QString() });
        return results;
    }

private:
    std::shared_ptr<std::atomic<bool>> m_refusing;
};
