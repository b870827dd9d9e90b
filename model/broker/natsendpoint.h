// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "broker/brokeruri.h"

#include <QList>
#include <QString>
#include <QStringList>

// Where to reach a NATS server or cluster with JetStream, and the subjects to publish on, from a NATS URI:
//   nats://[USER:PASSWORD@|TOKEN@]HOST:PORT[,HOST:PORT...]/?subject_prefix=PREFIX&ack_timeout_ms=5000
// Host defaults to localhost, port to 4222; several comma-separated nodes name the servers of one cluster (the client
// moves to another when its server fails). The relay publishes a row to PREFIX.<event type> and waits up to
// `ack_timeout_ms` for the stream's acknowledgement; a consumer reads the stream that takes PREFIX.>.
struct NatsEndpoint {
    static constexpr int DefaultPort = 4222;
    // Below the relay's default 30 s lease, so that a batch is handed back before it could be rescued; above the
    // seconds a JetStream cluster takes to elect a new stream leader.
    static constexpr int DefaultAckTimeoutMs = 5'000;

    QList<BrokerNode> nodes { BrokerNode { QStringLiteral("localhost"), DefaultPort } };
    QString user; // empty: no user info sent; without a password, a token
    QString password;
    QString subjectPrefix;
    int ackTimeoutMs = DefaultAckTimeoutMs;

    // Throws OutboxError(InvalidInput) naming what is wrong with the URI.
    static NatsEndpoint parse(const QString& uri);

    // The URI without the password (and a token masked), for messages and logs.
    QString display() const;
    // nats://HOST:PORT of each node, without user info (given to the client apart).
    QStringList serverUrls() const;
    // The subject a row of `eventType` is published on.
    QString subjectFor(const QString& eventType) const;
    // The wildcard taking every subject the relay publishes on: PREFIX.>
    QString subjects() const;

    // Why `subject` cannot be a NATS subject to publish on (empty tokens, wildcards, white space), or empty.
    static QString subjectProblem(const QString& subject);
};
