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
    const QUrl url(uri, QUrl::StrictMode);
    if (!url.isValid()) // not url.errorString(): it repeats the user info, password included
        throw badUri(QStringLiteral("malformed URI (check the host, the port and percent-encoding)"));
    if (url.scheme() != QLatin1String("amqp"))
        throw badUri(QStringLiteral("the scheme must be amqp:// (TLS is not supported)"));
    AmqpEndpoint endpoint;
    if (!url.host().isEmpty())
        endpoint.host = url.host();
    endpoint.port = url.port(5672);
    if (url.port() == 0)
        throw badUri(QStringLiteral("the port must be from 1 to 65535"));
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
        } else {
            throw badUri(QStringLiteral("unknown parameter '%1' (known: exchange, exchange_type, declare, "
                                        "confirm_timeout_ms)")
                             .arg(name));
        }
    }
    return endpoint;
}

QString AmqpEndpoint::display() const
{
    QUrl url;
    url.setScheme(QStringLiteral("amqp"));
    url.setUserName(user);
    url.setHost(host);
    url.setPort(port);
    url.setPath(QLatin1Char('/') + QString::fromLatin1(QUrl::toPercentEncoding(vhost)), QUrl::StrictMode);
    if (!exchange.isEmpty())
        url.setQuery(QStringLiteral("exchange=") + QString::fromLatin1(QUrl::toPercentEncoding(exchange)));
    return url.toString();
}

QString AmqpEndpoint::redacted(const QString& uri)
{
    QUrl shown(uri);
    if (!shown.password().isEmpty())
        shown.setPassword(QStringLiteral("***"));
    return shown.toString();
}
