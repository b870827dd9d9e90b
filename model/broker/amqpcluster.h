// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/amqpendpoint.h"

#include <atomic>
#include <memory>

class AmqpConnection;

// The nodes of one endpoint and which of them to try first, shared by every connection a process opens to it (the
// relay's workers): a node that failed one connection is tried last by the next, so that after a node dies or is cut
// off the others do not each wait for it to time out first. Thread-safe.
class AmqpCluster final {
    Q_DISABLE_COPY_MOVE(AmqpCluster)
public:
    explicit AmqpCluster(AmqpEndpoint endpoint);

    const AmqpEndpoint& endpoint() const { return m_endpoint; }

    // A connection to the first node that takes it, starting with the one that last worked, each node within
    // `timeoutMs` (at most NodeConnectTimeoutMs when there is another to try). Throws OutboxError(Broker) with
    // every node's reason when none does.
    std::unique_ptr<AmqpConnection> connect(int timeoutMs, int heartbeatSeconds = 0);

    // A connection to `node` failed after it was opened: the next connect() tries the others first.
    void noteLost(qsizetype node);

    // How long one node of several may take to accept a connection and a login before the next is tried: far more
    // than a live node needs, and a node whose link is cut never answers.
    static constexpr int NodeConnectTimeoutMs = 3'000;

private:
    AmqpEndpoint m_endpoint;
    std::atomic<qsizetype> m_preferred { 0 };
};
