// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/brokeruri.h"

#include "db/outboxerror.h"

QString BrokerNode::display() const
{
    const QString shownHost = host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
    return QStringLiteral("%1:%2").arg(shownHost).arg(port);
}

// Where the URI's authority (user info and hosts) starts and ends.
static std::pair<qsizetype, qsizetype> authorityOf(const QString& uri)
{
    const qsizetype start = uri.indexOf(QLatin1String("://")) + 3;
    qsizetype end = start;
    while (end < uri.size() && uri.at(end) != QLatin1Char('/') && uri.at(end) != QLatin1Char('?')
        && uri.at(end) != QLatin1Char('#'))
        ++end;
    return { start, end };
}

BrokerUri BrokerUri::parse(
    const QString& uri, const QString& scheme, const QString& what, const QString& defaultHost, int defaultPort)
{
    const auto bad = [&what](const QString& why) {
        return OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("invalid %1 URI: %2").arg(what, why));
    };
    const QString malformed = QStringLiteral("malformed URI (check the host, the port and percent-encoding)");
    if (!uri.startsWith(scheme + QLatin1String("://"), Qt::CaseInsensitive))
        throw bad(QStringLiteral("the scheme must be %1:// (TLS is not supported)").arg(scheme));
    const auto [start, end] = authorityOf(uri);
    const QString authority = uri.mid(start, end - start);
    const qsizetype at = authority.lastIndexOf(QLatin1Char('@'));
    const QString userInfo = at < 0 ? QString() : authority.left(at + 1);
    const QStringList nodeTexts = authority.mid(at + 1).split(QLatin1Char(','));
    // A raw '@' after the hosts: most likely a password with a raw '?', '/' or '#', which ended the authority early;
    // reading on would show part of the password as a host, path or parameter.
    if (uri.indexOf(QLatin1Char('@'), end) >= 0)
        throw bad(QStringLiteral("an '@' after the host: percent-encode '@', '?', '/' and '#' in the user, the "
                                 "password and the parameters (%40, %3F, %2F, %23)"));
    BrokerUri parsed;
    parsed.url = QUrl(uri.left(start) + userInfo + nodeTexts.first() + uri.mid(end), QUrl::StrictMode);
    if (!parsed.url.isValid()) // not url.errorString(): it repeats the user info, password included
        throw bad(malformed);
    for (const QString& text : nodeTexts) {
        if (text.isEmpty() && nodeTexts.size() > 1)
            throw bad(QStringLiteral("an empty node in the list of hosts (a stray comma?)"));
        // QUrl checks the host and port of one node; the user info and the rest are the whole URI's.
        const QUrl url(scheme + QLatin1String("://") + text, QUrl::StrictMode);
        if (!url.isValid() || !url.userInfo().isEmpty() || url.path().size() > 0)
            throw bad(malformed);
        if (url.port() == 0)
            throw bad(QStringLiteral("the port must be from 1 to 65535"));
        const BrokerNode node { url.host().isEmpty() ? defaultHost : url.host(), url.port(defaultPort) };
        if (parsed.nodes.contains(node))
            throw bad(QStringLiteral("the node %1 is named twice").arg(node.display()));
        parsed.nodes.append(node);
    }
    return parsed;
}

QString BrokerUri::redacted(const QString& uri)
{
    // By hand rather than through QUrl, which takes no list of hosts; and for a URI that may not parse, so on the safe
    // side: the password runs from the first ':' after the scheme to the last '@' (a raw '@', '/', '?' or '#' in the
    // password must not end it early). A ':' of a port before an '@' in the path or query masks more than the
    // password, never less.
    // User info without a ':' is a token (NATS): all of it is masked.
    const qsizetype start = uri.indexOf(QLatin1String("://"));
    if (start < 0)
        return uri;
    const qsizetype at = uri.lastIndexOf(QLatin1Char('@'));
    if (at < start + 3)
        return uri;
    const qsizetype colon = uri.indexOf(QLatin1Char(':'), start + 3);
    if (colon < 0 || colon > at)
        return uri.left(start + 3) + QStringLiteral("***") + uri.mid(at);
    if (colon + 1 == at)
        return uri;
    return uri.left(colon + 1) + QStringLiteral("***") + uri.mid(at);
}
