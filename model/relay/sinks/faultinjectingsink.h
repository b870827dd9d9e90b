// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/messagesink.h"

#include <QRandomGenerator>
#include <atomic>
#include <memory>

// A sink for tests and demos that fails a configurable share of messages with realistic broker errors,
// waits a configurable latency per batch, and can kill the whole process after N messages to simulate a
// relay crash between claim and completion. The messages it does not fail go on to `next` if there is one (a
// flaky link in front of a real sink), and are accepted otherwise.
class FaultInjectingSink final : public MessageSink {
    Q_DISABLE_COPY_MOVE(FaultInjectingSink)
public:
    static constexpr int CrashExitCode = 75;

    struct Options {
        double failureRate = 0.0; // 0..1
        int latencyMs = 0;
        qint64 crashAfter = 0; // messages, counted across every sink sharing `published`; 0 = never
        quint32 seed = 0; // 0 = random
    };

    // `published` is shared by all sinks of one relay so crashAfter counts the whole process.
    FaultInjectingSink(
        Options options, std::shared_ptr<std::atomic<qint64>> published, std::unique_ptr<MessageSink> next = {});

    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override;
    // Asks `next`: answering for it, a relay would take a broker behind a cut link to be back.
    void ensureReachable() final override;

private:
    Options m_options;
    std::shared_ptr<std::atomic<qint64>> m_published;
    std::unique_ptr<MessageSink> m_next;
    QRandomGenerator m_random;
};
