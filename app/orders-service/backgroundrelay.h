// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/outboxrelay.h"

#include <thread>

// An OutboxRelay running on a background thread for as long as this object lives: destruction stops the
// relay (its workers finish the batch in hand) and joins the thread.
class BackgroundRelay final {
    Q_DISABLE_COPY_MOVE(BackgroundRelay)
public:
    // `sinkDescription` names the sink in the relay registry, without credentials.
    BackgroundRelay(const ConnectionSettings& settings, const MessageSinkFactory& sinks, const QString& sinkDescription,
        int workers);
    ~BackgroundRelay();

private:
    OutboxRelay m_relay;
    std::thread m_thread;
};
