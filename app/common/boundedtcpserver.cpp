// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/boundedtcpserver.h"

#include <QTcpSocket>
#include <QTimer>

BoundedTcpServer::BoundedTcpServer(int maxConnections, int maxLifetimeMs, QObject* parent)
    : QTcpServer(parent)
    , m_maxConnections(maxConnections)
    , m_maxLifetimeMs(maxLifetimeMs)
{ }

void BoundedTcpServer::incomingConnection(qintptr descriptor)
{
    auto* socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    if (m_open >= m_maxConnections) {
        socket->abort();
        socket->deleteLater();
        return;
    }
    ++m_open;
    connect(socket, &QObject::destroyed, this, [this] { --m_open; });
    QTimer::singleShot(m_maxLifetimeMs, socket, [socket] { socket->abort(); });
    addPendingConnection(socket);
}
