// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/httpendpoint.h"

#include "common/boundedtcpserver.h"
#include "db/outboxerror.h"

#include <QEventLoop>
#include <QHttpServer>
#include <future>

// Scrapers and health checks hold a connection for a moment; a handful at once is plenty.
static constexpr int MaxConnections = 32;
static constexpr int ConnectionLifetimeMs = 10'000;

namespace {
struct Bound {
    QString url;
    QString error;
};
} // namespace

HttpEndpoint::HttpEndpoint(const ListenAddress& listen, Routes routes)
{
    std::promise<Bound> bound;
    std::future<Bound> result = bound.get_future();
    m_thread = std::thread([this, listen, routes = std::move(routes), &bound] {
        // Qt adopts the thread; the loop gives it an event dispatcher before the server's sockets need one.
        QEventLoop loop;
        QHttpServer server;
        routes(server);
        auto* socket = new BoundedTcpServer(MaxConnections, ConnectionLifetimeMs, &server);
        if (!socket->listen(listen.address, listen.port)) {
            bound.set_value({ {},
                QStringLiteral("cannot listen on %1:%2: %3")
                    .arg(listen.address.toString())
                    .arg(listen.port)
                    .arg(socket->errorString()) });
            return;
        }
        server.bind(socket);
        m_loop = &loop; // published to the constructor's thread by the promise
        bound.set_value({ ListenAddress::url(listen.address, socket->serverPort()), {} });
        loop.exec(); // until the destructor quits it
    });
    const Bound outcome = result.get();
    if (!outcome.error.isEmpty()) {
        m_thread.join();
        throw OutboxError(OutboxError::Kind::InvalidInput, outcome.error);
    }
    m_url = outcome.url;
}

HttpEndpoint::~HttpEndpoint()
{
    // Queued: the loop is quit on its own thread, also if it has not entered exec() yet.
    QMetaObject::invokeMethod(m_loop, &QEventLoop::quit, Qt::QueuedConnection);
    m_thread.join();
}
