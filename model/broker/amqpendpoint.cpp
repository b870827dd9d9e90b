// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpendpoint.h"

#include "db/outboxerror.h"

#include <QUrl>
#include <QUrlQuery>

static OutboxError badUri(const QString& why)
{
    return OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("invalid AMQP URI: %1").arg(why));
}

static bool parseFlag(const QString& value, const QString& name)
{
    if (value == QLatin1String("1") || value == QLatin1String("true"))
        return true;
    if (value == QLatin1String("0") || value == QLatin1String("false"))
        return false;
    throw badUri(QStringLiteral("%1 must be 1, 0, true or false").arg(name));
}

QString AmqpNode::display() const
{
    const QString shownHost = host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
    return QStringLiteral("%1:%2").arg(shownHost).arg(port);
}

// Where the URI's authority (user info and hosts) starts and ends, for a URI with the amqp:// scheme.
static std::pair<qsizetype, qsizetype> authorityOf(const QString& uri)
{
    const qsizetype start = uri.indexOf(QLatin1String("://")) + 3;
    qsizetype end = start;
    while (end < uri.size() && uri.at(end) != QLatin1Char('/') && uri.at(end) != QLatin1Char('?')
        && uri.at(end) != QLatin1Char('#'))
        ++end;
    return { start, end };
}

static AmqpNode parseNode(const QString& text)
{
    // QUrl checks the host and port of one node; the user info and the rest are the whole URI's.
    const QUrl url(QStringLiteral("amqp://") + text, QUrl::StrictMode);
    if (!url.isValid() || !url.userInfo().isEmpty() || url.path().size() > 0)
        throw badUri(QStringLiteral("malformed URI (check the host, the port and percent-encoding)"));
    if (url.port() == 0)
        throw badUri(QStringLiteral("the port must be from 1 to 65535"));
    AmqpNode node;
    if (!url.host().isEmpty())
        node.host = url.host();
    node.port = url.port(5672);
    return node;
}

AmqpEndpoint AmqpEndpoint::parse(const QString& uri)
{
    if (!uri.startsWith(QLatin1String("amqp://"), Qt::CaseInsensitive))
        throw badUri(QStringLiteral("the scheme must be amqp:// (TLS is not supported)"));
    // A cluster's nodes are a comma-separated list, which QUrl does not take for a host: the URI is read with its
    // first node, and each node is checked by itself.
    const auto [start, end] = authorityOf(uri);
    const QString authority = uri.mid(start, end - start);
    const qsizetype at = authority.lastIndexOf(QLatin1Char('@'));
    const QString userInfo = at < 0 ? QString() : authority.left(at + 1);
    const QStringList nodeTexts = authority.mid(at + 1).split(QLatin1Char(','));
    const QUrl url(uri.left(start) + userInfo + nodeTexts.first() + uri.mid(end), QUrl::StrictMode);
    if (!url.isValid()) // not url.errorString(): it repeats the user info, password included
        throw badUri(QStringLiteral("malformed URI (check the host, the port and percent-encoding)"));
    AmqpEndpoint endpoint;
    endpoint.nodes.clear();
    for (const QString& text : nodeTexts) {
        if (text.isEmpty() && nodeTexts.size() > 1)
            throw badUri(QStringLiteral("an empty node in the list of hosts (a stray comma?)"));
        const AmqpNode node = parseNode(text);
        if (endpoint.nodes.contains(node))
            throw badUri(QStringLiteral("the node %1 is named twice").arg(node.display()));
        endpoint.nodes.append(node);
    }
    if (!url.userName().isEmpty())
        endpoint.user = url.userName(QUrl::FullyDecoded);
    if (!url.password().isEmpty())
        endpoint.password = url.password(QUrl::FullyDecoded);
    const QString path = url.path(QUrl::FullyEncoded);
    if (path.size() > 1) {
        const QString encoded = path.mid(1);
        if (encoded.contains(QLatin1Char('/')))
            throw badUri(QStringLiteral("write a '/' inside the vhost name as %2F"));
        endpoint.vhost = QUrl::fromPercentEncoding(encoded.toUtf8());
    }
    if (endpoint.nodes.size() > 1)
        endpoint.confirmTimeoutMs = ClusterConfirmTimeoutMs;
    const QUrlQuery query(url);
    for (const auto& [name, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (name == QLatin1String("exchange")) {
            endpoint.exchange = value;
        } else if (name == QLatin1String("exchange_type")) {
            static const QStringList types { QStringLiteral("direct"), QStringLiteral("fanout"),
                QStringLiteral("topic"), QStringLiteral("headers") };
            if (!types.contains(value))
                throw badUri(QStringLiteral("exchange_type must be direct, fanout, topic or headers"));
            endpoint.exchangeType = value;
        } else if (name == QLatin1String("declare")) {
            endpoint.declareExchange = parseFlag(value, name);
        } else if (name == QLatin1String("confirm_timeout_ms")) {
            bool ok = false;
            endpoint.confirmTimeoutMs = value.toInt(&ok);
            if (!ok || endpoint.confirmTimeoutMs < 100 || endpoint.confirmTimeoutMs > 600'000)
                throw badUri(QStringLiteral("confirm_timeout_ms must be from 100 to 600000"));
        } else if (name == QLatin1String("queue_type")) {
            if (value != QLatin1String("classic") && value != QLatin1String("quorum"))
                throw badUri(QStringLiteral("queue_type must be classic or quorum"));
            endpoint.queueType = value;
        } else {
            throw badUri(QStringLiteral("unknown parameter '%1' (known: exchange, exchange_type, declare, "
                                        "confirm_timeout_ms, queue_type)")
                             .arg(name));
        }
    }
    return endpoint;
}

QString AmqpEndpoint::display() const
{
    return display(nodes);
}

QString AmqpEndpoint::display(qsizetype node) const
{
    return display(QList<AmqpNode> { nodes.at(node) });
}

QString AmqpEndpoint::display(const QList<AmqpNode>& shown) const
{
    QStringList hosts;
    for (const AmqpNode& node : shown)
        hosts.append(node.display());
    QString text = QStringLiteral("amqp://%1@%2/%3")
                       .arg(QString::fromLatin1(QUrl::toPercentEncoding(user)), hosts.join(QLatin1Char(',')),
                           QString::fromLatin1(QUrl::toPercentEncoding(vhost)));
    if (!exchange.isEmpty())
        text += QStringLiteral("?exchange=") + QString::fromLatin1(QUrl::toPercentEncoding(exchange));
    return text;
}

QString AmqpEndpoint::redacted(const QString& uri)
{
    // By hand rather than through QUrl, which takes no list of hosts; and for a URI that may not parse, so on the safe
    // side: the password runs from the first ':' after the scheme to the last '@' (a raw '@', '/', '?' or '#' in the
    // password must not end it early). A ':' of a port before an '@' in the path or query masks more than the
    // password, never less.
    const qsizetype start = uri.indexOf(QLatin1String("://"));
    if (start < 0)
        return uri;
    const qsizetype at = uri.lastIndexOf(QLatin1Char('@'));
    const qsizetype colon = uri.indexOf(QLatin1Char(':'), start + 3);
    if (at < 0 || colon < 0 || colon > at || colon + 1 == at)
        return uri;
    return uri.left(colon + 1) + QStringLiteral("***") + uri.mid(at);
}
