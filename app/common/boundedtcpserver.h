// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTcpServer>

// The listening socket of the HTTP endpoints (orders-service, the relay), with the limits Qt HTTP Server 6.4 does not
// have: at most `maxConnections` open connections (more are closed at once), and every connection closed after
// `maxLifetimeMs`, however slowly its client sends. A slow or idle client can therefore hold one connection
// for a bounded time, never the whole endpoint.
class BoundedTcpServer final : public QTcpServer {
    Q_OBJECT
public:
    BoundedTcpServer(int maxConnections, int maxLifetimeMs, QObject* parent = nullptr);

    int openConnections() const { return m_open; }

protected:
    void incomingConnection(qintptr descriptor) final override;

private:
    int m_maxConnections;
    int m_maxLifetimeMs;
    int m_open = 0;
};
