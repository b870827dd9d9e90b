// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/natsendpoint.h"

#include <QJsonObject>
#include <QString>
#include <nats/nats.h>

// One client connection to a NATS server of the endpoint's cluster (nats.c, Debian's libnats 3.4). The client moves
// to another server by itself when its server goes (it keeps trying, every quarter second at first), finds a dead
// link by its own pings (every 2 s, two unanswered and the link is given up); callers check isConnected() and fail fast
// while it reconnects. Failures throw OutboxError(Broker) naming the step, the
// servers and the client's or the server's words. Used by one thread at a time, as the sinks and consumers are.
class NatsConnection final {
    Q_DISABLE_COPY_MOVE(NatsConnection)
public:
    // Connects to one of the servers (in random order, as nats.c does, so that relays spread over the cluster).
    // `clientName` is what the server's connection list shows.
    NatsConnection(const NatsEndpoint& endpoint, const QString& clientName);
    ~NatsConnection();

    natsConnection* handle() const { return m_connection; }
    const NatsEndpoint& endpoint() const { return m_endpoint; }

    // Closes the connection (the destructor closes it too). A subscription's delivery thread may still be running a
    // callback when it returns: nats.c detaches it.
    void close();

    // Connected now (not reconnecting, not closed).
    bool isConnected() const;
    // host:port of the server it is connected to; empty while it is not.
    QString connectedServer() const;

    // A JetStream API request (`api` below $JS.API.) with a JSON body; the reply's JSON object. Throws when no
    // server answers (JetStream not enabled, or no stream leader) and when JetStream answers with an error.
    QJsonObject jetStreamRequest(const QString& api, const QJsonObject& body, int timeoutMs) const;

    // Whether a stream of JetStream takes `subjects` (a subject, or a wildcard such as P.>: any stream taking some
    // of them). Throws as jetStreamRequest does.
    bool streamTakes(const QString& subjects, int timeoutMs) const;

    // Throws OutboxError(Broker): "`doing` (the servers): `reason`".
    [[noreturn]] void fail(const QString& doing, const QString& reason) const;
    // The client's words for a failed call: its status, and the detail it kept for this thread.
    static QString describe(natsStatus status);

private:
    NatsEndpoint m_endpoint;
    natsConnection* m_connection = nullptr;
};
