// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/brokeruri.h"

#include <QList>
#include <QString>

// Where to reach a RabbitMQ broker or cluster and which exchange to use, from an AMQP URI:
//   amqp://USER:PASSWORD@HOST:PORT[,HOST:PORT...]/VHOST?exchange=NAME&exchange_type=topic&declare=1
//       &confirm_timeout_ms=15000&queue_type=classic
// User and password default to guest/guest, host to localhost, port to 5672, the vhost to "/" (an empty path or
// "/" both mean "/"; write other slashes as %2F). Several comma-separated nodes name the members of one cluster,
// as in a multi-host PostgreSQL connection string: a client connects to one and moves to another when it fails.
// `declare=0` requires an existing exchange instead of declaring a durable one; `confirm_timeout_ms` bounds the wait
// for a publish's confirms (15 s, or 2 s with several nodes); `queue_type` is the type a consumer
// declares its queue with (classic, or quorum: replicated to the cluster's nodes).
struct AmqpEndpoint {
    static constexpr int DefaultPort = 5672;
    QList<BrokerNode> nodes { BrokerNode { QStringLiteral("localhost"), DefaultPort } };
    QString user = QStringLiteral("guest");
    QString password = QStringLiteral("guest");
    QString vhost = QStringLiteral("/");
    QString exchange; // empty = the default exchange (only a consumer may leave it empty)
    QString exchangeType = QStringLiteral("topic");
    bool declareExchange = true;
    // Below the relay's default 30 s lease, so a stalled broker's batch is handed back before it could be rescued.
    // With several nodes the default is shorter (ClusterConfirmTimeoutMs): another node can take the batch, and a
    // publish into a quorum queue whose leader's node was lost may wait for its confirms until its connection ends
    // (RabbitMQ 3.10's channel does not send it again to the new leader).
    int confirmTimeoutMs = 15'000;
    static constexpr int ClusterConfirmTimeoutMs = 2'000;
    QString queueType = QStringLiteral("classic");

    // Throws OutboxError(InvalidInput) naming what is wrong with the URI.
    static AmqpEndpoint parse(const QString& uri);

    // The URI without the password, for messages and logs: every node, or only `node` (an index into nodes).
    QString display() const;
    QString display(qsizetype node) const;

    // `uri` as typed, its password (if any) replaced by ***: for messages about a URI that may not parse.
    static QString redacted(const QString& uri);

private:
    QString display(const QList<BrokerNode>& shown) const;
};
