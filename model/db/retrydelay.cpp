// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/retrydelay.h"

RetryDelay::RetryDelay()
    : m_policy(FirstMs, MaxMs)
    , m_random(QRandomGenerator::global()->generate())
{ }

qint64 RetryDelay::next()
{
    return m_policy.delayMs(++m_attempt, m_random);
}
