// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/backoffpolicy.h"

#include <QRandomGenerator>

// The wait between reconnect attempts of a long-running process (relay worker, consumer, service): 0.5 s
// doubling to 30 s, with equal jitter, so a fleet of relays does not reconnect in lockstep after a database
// restart. One per retry loop; not thread-safe.
class RetryDelay final {
public:
    static constexpr qint64 FirstMs = 500;
    static constexpr qint64 MaxMs = 30'000;

    RetryDelay();

    // The wait before the next attempt; each call doubles its ceiling up to MaxMs.
    qint64 next();
    // After an attempt that went through: the next outage starts again at FirstMs.
    void reset() { m_attempt = 0; }

private:
    BackoffPolicy m_policy;
    QRandomGenerator m_random;
    int m_attempt = 0;
};
