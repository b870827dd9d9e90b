// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"

#include <condition_variable>
#include <mutex>
#include <thread>

// The demo's second producer: every few seconds it cancels the newest order not cancelled yet, through the SQL API
// (outbox_enqueue of an order.cancelled event), as a service in another language would. No queue is bound for
// order.cancelled until the operator fixes the routing, so these are the events the broker returns (312 NO_ROUTE).
// Runs on a thread of its own, so the console's GUI thread never waits for it; survives the database going away.
class CancellationFeed final {
    Q_DISABLE_COPY_MOVE(CancellationFeed)
public:
    CancellationFeed(ConnectionSettings settings, int intervalMs);
    ~CancellationFeed(); // stops the thread

private:
    void run();

    const ConnectionSettings m_settings;
    const int m_intervalMs;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::thread m_thread;
};
