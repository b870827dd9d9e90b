// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/listenaddress.h"

#include "db/outboxerror.h"

#include <QUrl>

ListenAddress ListenAddress::parse(const QString& text, const QString& option, bool allowBarePort)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    ListenAddress listen;
    bool hostOk = true;
    if (colon >= 0 || !allowBarePort) {
        QString host = text.left(colon);
        if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
            host = host.mid(1, host.size() - 2);
        listen.address = QHostAddress(host);
        hostOk = colon >= 0 && !listen.address.isNull();
    }
    bool portOk = false;
    const uint port = text.mid(colon + 1).toUInt(&portOk);
    if (!hostOk || !portOk || port > 65535) {
        throw OutboxError(OutboxError::Kind::InvalidInput,
            QStringLiteral("--%1: invalid value '%2': expected IP:PORT, e.g. 127.0.0.1:8080%3 (port 0: any free port)")
                .arg(option, text, allowBarePort ? QStringLiteral(", or a PORT alone for the loopback") : QString()));
    }
    listen.port = quint16(port);
    return listen;
}

QString ListenAddress::url(const QHostAddress& address, quint16 boundPort)
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(address.toString());
    url.setPort(boundPort);
    return url.toString();
}
