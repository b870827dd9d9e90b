// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/natsendpoint.h"

#include "db/outboxerror.h"

#include <QUrlQuery>

static OutboxError badUri(const QString& why)
{
    return OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("invalid NATS URI: %1").arg(why));
}

NatsEndpoint NatsEndpoint::parse(const QString& uri)
{
    const BrokerUri parsed = BrokerUri::parse(
        uri, QStringLiteral("nats"), QStringLiteral("NATS"), QStringLiteral("localhost"), DefaultPort);
    NatsEndpoint endpoint;
    endpoint.nodes = parsed.nodes;
    endpoint.user = parsed.url.userName(QUrl::FullyDecoded);
    endpoint.password = parsed.url.password(QUrl::FullyDecoded);
    if (parsed.url.path().size() > 1)
        throw badUri(QStringLiteral("a NATS URI has no path: write /?subject_prefix=PREFIX"));
    const QUrlQuery query(parsed.url);
    for (const auto& [name, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (name == QLatin1String("subject_prefix")) {
            if (const QString problem = subjectProblem(value); !problem.isEmpty())
                throw badUri(QStringLiteral("subject_prefix: %1").arg(problem));
            endpoint.subjectPrefix = value;
        } else if (name == QLatin1String("ack_timeout_ms")) {
            bool ok = false;
            endpoint.ackTimeoutMs = value.toInt(&ok);
            if (!ok || endpoint.ackTimeoutMs < 100 || endpoint.ackTimeoutMs > 600'000)
                throw badUri(QStringLiteral("ack_timeout_ms must be from 100 to 600000"));
        } else {
            throw badUri(QStringLiteral("unknown parameter '%1' (known: subject_prefix, ack_timeout_ms)").arg(name));
        }
    }
    return endpoint;
}

QString NatsEndpoint::display() const
{
    QStringList hosts;
    for (const BrokerNode& node : nodes)
        hosts.append(node.display());
    QString text = QStringLiteral("nats://%1%2/")
                       .arg(user.isEmpty()          ? QString()
                               : password.isEmpty() ? QStringLiteral("***@") // a token
                                                    : QString::fromLatin1(QUrl::toPercentEncoding(user)) + '@',
                           hosts.join(QLatin1Char(',')));
    QUrlQuery query;
    if (!subjectPrefix.isEmpty())
        query.addQueryItem(QStringLiteral("subject_prefix"), subjectPrefix);
    if (!query.isEmpty())
        text += QLatin1Char('?') + query.toString(QUrl::FullyEncoded);
    return text;
}

QStringList NatsEndpoint::serverUrls() const
{
    QStringList urls;
    for (const BrokerNode& node : nodes)
        urls.append(QStringLiteral("nats://") + node.display());
    return urls;
}

QString NatsEndpoint::subjectFor(const QString& eventType) const
{
    return subjectPrefix + QLatin1Char('.') + eventType;
}

QString NatsEndpoint::subjects() const
{
    return subjectPrefix + QStringLiteral(".>");
}

QString NatsEndpoint::subjectProblem(const QString& subject)
{
    if (subject.isEmpty())
        return QStringLiteral("empty");
    for (const QString& token : subject.split(QLatin1Char('.'))) {
        if (token.isEmpty())
            return QStringLiteral("'%1' has an empty token (a leading, trailing or double '.')").arg(subject);
        if (token == QLatin1String("*") || token == QLatin1String(">"))
            return QStringLiteral("'%1' has a wildcard token ('%2')").arg(subject, token);
        if (std::any_of(token.begin(), token.end(),
                [](QChar c) { return c.isSpace() || c.category() == QChar::Other_Control; }))
            return QStringLiteral("'%1' has white space or a control character").arg(subject);
    }
    return {};
}
