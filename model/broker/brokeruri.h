// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QUrl>

// One broker node's address.
struct BrokerNode {
    QString host;
    int port = 0;

    QString display() const; // host:port, an IPv6 host in brackets
    friend bool operator==(const BrokerNode&, const BrokerNode&) = default;
};

// A broker URI that may name the several nodes of a cluster, as a multi-host PostgreSQL connection string does:
//   SCHEME://[USER[:PASSWORD]@]HOST[:PORT][,HOST[:PORT]...][/PATH][?QUERY]
// QUrl takes no list of hosts, so the URI is read with its first node, and each node is checked by itself. Shared by
// the AMQP and NATS endpoints, which read the user info, path and query their own way.
struct BrokerUri {
    QList<BrokerNode> nodes; // at least one; a node without a host or port gets the defaults
    QUrl url; // the URI with only its first node: user info, path and query

    // Throws OutboxError(InvalidInput) "invalid `what` URI: ..." naming what is wrong. The scheme is compared without
    // regard to case.
    static BrokerUri parse(
        const QString& uri, const QString& scheme, const QString& what, const QString& defaultHost, int defaultPort);

    // `uri` as typed, its password (if any) replaced by ***: for messages about a URI that may not parse.
    static QString redacted(const QString& uri);
};
