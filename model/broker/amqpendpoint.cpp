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

AmqpEndpoint AmqpEndpoint::parse(const QString& uri)
{
    const BrokerUri parsed = BrokerUri::parse(
        uri, QStringLiteral("amqp"), QStringLiteral("AMQP"), QStringLiteral("localhost"), DefaultPort);
    const QUrl& url = parsed.url;
    AmqpEndpoint endpoint;
    endpoint.nodes = parsed.nodes;
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
    return display(QList<BrokerNode> { nodes.at(node) });
}

QString AmqpEndpoint::display(const QList<BrokerNode>& shown) const
{
    QStringList hosts;
    for (const BrokerNode& node : shown)
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
    return BrokerUri::redacted(uri);
}
