// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/backoffpolicy.h"

BackoffPolicy::BackoffPolicy(qint64 baseMs, qint64 maxMs)
    : m_baseMs(qMax<qint64>(0, baseMs))
    , m_maxMs(qMax<qint64>(m_baseMs, maxMs))
{ }

qint64 BackoffPolicy::delayMs(int attempt, QRandomGenerator& random) const
{
    if (m_baseMs == 0)
        return 0;
    const int doublings = qBound(0, attempt - 1, 40);
    const qint64 ceiling = (m_maxMs >> doublings) >= m_baseMs ? m_baseMs << doublings : m_maxMs;
    const qint64 half = ceiling / 2;
    return half + qint64(random.bounded(quint64(ceiling - half) + 1));
}
