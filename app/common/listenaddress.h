// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHostAddress>
#include <QString>

// Where an HTTP endpoint listens, as given on a command line.
struct ListenAddress {
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 0; // 0: any free port

    // IP:PORT (an IPv6 address in brackets, e.g. [::1]:8080) or, with `allowBarePort`, a PORT alone, which
    // listens on the loopback only. Throws OutboxError(InvalidInput) naming `option`.
    static ListenAddress parse(const QString& text, const QString& option, bool allowBarePort);

    // http://HOST:PORT, with the port actually bound.
    static QString url(const QHostAddress& address, quint16 boundPort);
};
