// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRandomGenerator>

// Exponential backoff with "equal jitter": attempt n waits between half and all of
// min(max, base * 2^(n-1)), so retries spread out instead of arriving at the broker in waves.
class BackoffPolicy final {
public:
    BackoffPolicy(qint64 baseMs, qint64 maxMs);
    qint64 delayMs(int attempt, QRandomGenerator& random) const;

private:
    qint64 m_baseMs;
    qint64 m_maxMs;
};
