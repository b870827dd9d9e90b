// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpcluster.h"

#include "broker/amqpconnection.h"
#include "db/outboxerror.h"

AmqpCluster::AmqpCluster(AmqpEndpoint endpoint)
    : m_endpoint(std::move(endpoint))
    , m_unconfirmed(m_endpoint.nodes.size(), 0)
{ }

std::unique_ptr<AmqpConnection> AmqpCluster::connect(int timeoutMs, int heartbeatSeconds)
{
    const qsizetype count = m_endpoint.nodes.size();
    qsizetype first = 0;
    {
        std::lock_guard lock(m_mutex);
        first = m_preferred;
    }
    QStringList reasons;
    for (qsizetype i = 0; i < count; ++i) {
        const qsizetype node = (first + i) % count;
        const int connectMs = i + 1 < count ? std::min(timeoutMs, NodeConnectTimeoutMs) : timeoutMs;
        try {
            auto connection
                = std::make_unique<AmqpConnection>(m_endpoint, node, timeoutMs, heartbeatSeconds, connectMs);
            std::lock_guard lock(m_mutex);
            // Unless another connection found it lost meanwhile.
            if (m_preferred == first)
                m_preferred = node;
            return connection;
        } catch (const OutboxError& error) {
            noteLost(node);
            reasons.append(error.message());
        }
    }
    if (count == 1)
        throw OutboxError(OutboxError::Kind::Broker, reasons.first());
    throw OutboxError(OutboxError::Kind::Broker,
        QStringLiteral("no node of %1 answered: %2").arg(m_endpoint.display(), reasons.join(QStringLiteral("; "))));
}

void AmqpCluster::moveOnFrom(qsizetype node)
{
    m_unconfirmed[node] = 0;
    if (m_preferred == node) // else another connection has moved on already: its choice stands
        m_preferred = (node + 1) % m_endpoint.nodes.size();
}

void AmqpCluster::noteLost(qsizetype node)
{
    std::lock_guard lock(m_mutex);
    moveOnFrom(node);
}

void AmqpCluster::noteUnconfirmed(qsizetype node)
{
    std::lock_guard lock(m_mutex);
    if (++m_unconfirmed[node] >= 2)
        moveOnFrom(node);
}

void AmqpCluster::noteConfirmed(qsizetype node)
{
    std::lock_guard lock(m_mutex);
    m_unconfirmed[node] = 0;
}
