// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// Where to reach a RabbitMQ broker and which exchange to use, from an AMQP URI:
//   amqp://USER:PASSWORD@HOST:PORT/VHOST?exchange=NAME&exchange_type=topic&declare=1&confirm_timeout_ms=30000
// User and password default to guest/guest, host to localhost, port to 5672, the vhost to "/" (an empty path or
// "/" both mean "/"; write other slashes as %2F). `declare=0` requires an existing exchange instead of declaring
// a durable one.
struct AmqpEndpoint {
    QString host = QStringLiteral("localhost");
    int port = 5672;
    QString user = QStringLiteral("guest");
    QString password = QStringLiteral("guest");
    QString vhost = QStringLiteral("/");
    QString exchange; // empty = the default exchange (only a consumer may leave it empty)
    QString exchangeType = QStringLiteral("topic");
    bool declareExchange = true;
    // Below the relay's default 30 s lease, so a stalled broker's batch is handed back before it could be rescued.
    int confirmTimeoutMs = 15'000;

    // Throws OutboxError(InvalidInput) naming what is wrong with the URI.
    static AmqpEndpoint parse(const QString& uri);

    // The URI without the password, for messages and logs.
    QString display() const;

    // `uri` as typed, its password (if any) replaced by ***: for messages about a URI that may not parse.
    static QString redacted(const QString& uri);
};
