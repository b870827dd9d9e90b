// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/relaytally.h"

#include "relay/relayworker.h"

void RelayTally::addBatch(const RelayBatchResult& batch, qint64 batchMs)
{
    std::lock_guard lock(m_mutex);
    m_totals.claimed += batch.claimed;
    m_totals.published += batch.published;
    m_totals.failed += batch.failed;
    m_totals.dead += batch.dead;
    m_totals.fenced += batch.fenced;
    for (const qint64 latencyMs : batch.publishLatenciesMs)
        m_totals.publishLatency.add(latencyMs);
    if (batch.claimed > 0)
        m_totals.batchDuration.add(batchMs);
    if (!batch.lastError.isEmpty()) {
        m_lastFailure = batch.lastError;
        m_lastFailureAge.start();
    }
}

void RelayTally::addRescue(const RelayBatchResult& rescued)
{
    std::lock_guard lock(m_mutex);
    m_totals.rescued += rescued.failed;
    m_totals.dead += rescued.dead;
}

void RelayTally::addHandedBack(qint64 rows)
{
    std::lock_guard lock(m_mutex);
    m_totals.handedBack += rows;
}

RelayTotals RelayTally::totals() const
{
    std::lock_guard lock(m_mutex);
    return m_totals;
}

std::optional<RelayTally::Failure> RelayTally::lastFailure() const
{
    std::lock_guard lock(m_mutex);
    if (!m_lastFailureAge.isValid())
        return std::nullopt;
    return Failure { m_lastFailure, m_lastFailureAge.elapsed() };
}
