// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/outboxrelay.h"

#include <thread>

// An OutboxRelay running on a thread of its own while a test looks at what it does; stopped (its workers finish the
// batch in hand and it signs off) and joined by stop() or when it goes out of scope, also when the test fails
// half-way. Header-only: only tests that link the relay include it.
class RunningRelay final {
    Q_DISABLE_COPY_MOVE(RunningRelay)
public:
    explicit RunningRelay(OutboxRelay& relay)
        : m_relay(relay)
        , m_thread([&relay] { relay.run(); })
    { }

    ~RunningRelay() { stop(); }

    void stop()
    {
        if (!m_thread.joinable())
            return;
        m_relay.stop();
        m_thread.join();
    }

private:
    OutboxRelay& m_relay;
    std::thread m_thread;
};
