// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/amqpendpoint.h"

#include <QList>
#include <memory>
#include <mutex>

class AmqpConnection;

// The nodes of one endpoint and which of them to try first, shared by every connection a process opens to it (the
// relay's workers): a node that failed one connection is tried last by the next, so that after a node dies or is cut
// off the others do not each wait for it to time out first. Thread-safe.
class AmqpCluster final {
    Q_DISABLE_COPY_MOVE(AmqpCluster)
public:
    explicit AmqpCluster(AmqpEndpoint endpoint);

    const AmqpEndpoint& endpoint() const { return m_endpoint; }

    // A connection to the first node that takes it, starting with the one that last worked. Each node but the last
    // tried gets at most NodeConnectTimeoutMs to accept the connection and the login; the connection's calls are then
    // bounded by `timeoutMs`. Throws OutboxError(Broker) with every node's reason when none takes it.
    std::unique_ptr<AmqpConnection> connect(int timeoutMs, int heartbeatSeconds = 0);

    // A connection to `node` failed: the next connect() tries the others first.
    void noteLost(qsizetype node);
    // A new connection to `node` took publishes and confirmed none in time. Once is no verdict on the node: in a
    // cluster settling after the loss of another node (a quorum queue's leader lost and not yet replaced) any node
    // does that, and rotating would only bring the lost node's turn sooner. Twice in a row, the node is lost.
    void noteUnconfirmed(qsizetype node);
    // A publish on a connection to `node` was confirmed (or refused): the node answers.
    void noteConfirmed(qsizetype node);

    static constexpr int NodeConnectTimeoutMs = 3'000; // far more than a live node needs; a cut one never answers

private:
    void moveOnFrom(qsizetype node); // with m_mutex held

    const AmqpEndpoint m_endpoint;
    std::mutex m_mutex;
    qsizetype m_preferred = 0;
    QList<int> m_unconfirmed; // by node: new connections in a row that confirmed nothing
};
