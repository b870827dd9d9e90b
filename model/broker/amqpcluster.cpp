// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpcluster.h"

#include "broker/amqpconnection.h"
#include "db/outboxerror.h"

AmqpCluster::AmqpCluster(AmqpEndpoint endpoint)
    : m_endpoint(std::move(endpoint))
{ }

std::unique_ptr<AmqpConnection> AmqpCluster::connect(int timeoutMs, int heartbeatSeconds)
{
    const qsizetype count = m_endpoint.nodes.size();
    if (count == 1)
        return std::make_unique<AmqpConnection>(m_endpoint, 0, timeoutMs, heartbeatSeconds);
    const int perNode = std::min(timeoutMs, NodeConnectTimeoutMs);
    const qsizetype first = m_preferred.load();
    QStringList reasons;
    for (qsizetype i = 0; i < count; ++i) {
        const qsizetype node = (first + i) % count;
        try {
            auto connection = std::make_unique<AmqpConnection>(m_endpoint, node, perNode, heartbeatSeconds);
            m_preferred.store(node);
            return connection;
        } catch (const OutboxError& error) {
            reasons.append(error.message());
        }
    }
    throw OutboxError(OutboxError::Kind::Broker,
        QStringLiteral("no node of %1 answered: %2").arg(m_endpoint.display(), reasons.join(QStringLiteral("; "))));
}

void AmqpCluster::noteLost(qsizetype node)
{
    qsizetype expected = node;
    // Only if no other connection has moved on already: then its choice stands.
    m_preferred.compare_exchange_strong(expected, (node + 1) % m_endpoint.nodes.size());
}
