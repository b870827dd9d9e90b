// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/listenaddress.h"

#include <QString>
#include <functional>
#include <thread>

class QEventLoop;
class QHttpServer;

// An HTTP server on a thread of its own, for a process whose main thread is busy with other work (the relay's
// /metrics and /healthz). The routes run on that thread, so whatever they read must be thread-safe.
class HttpEndpoint final {
    Q_DISABLE_COPY_MOVE(HttpEndpoint)
public:
    using Routes = std::function<void(QHttpServer&)>;

    // Listens on `listen` and serves `routes` until destroyed. Throws OutboxError(InvalidInput) if it cannot
    // listen there (address in use, not local), which is a configuration error.
    HttpEndpoint(const ListenAddress& listen, Routes routes);
    ~HttpEndpoint();

    // http://HOST:PORT with the port bound.
    const QString& url() const { return m_url; }

private:
    // A joined std::thread rather than a QThread, whose pthread is detached: the thread-local state that OpenSSL
    // makes for QHttpServer's TLS configuration (its random generators) is freed only as the thread exits, and
    // QThread::wait() returns before that, so a process that exits at once could lose it (LeakSanitizer saw it).
    std::thread m_thread;
    QEventLoop* m_loop = nullptr; // the thread's, set before the constructor returns
    QString m_url;
};
