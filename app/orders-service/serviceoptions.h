// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/diagnosticlog.h"
#include "relay/messagesink.h"

#include <QCommandLineOption>
#include <QHostAddress>
#include <QString>
#include <QStringList>

// The command line of orders-service.
struct ServiceOptions {
    QHostAddress listenAddress = QHostAddress(QHostAddress::LocalHost);
    quint16 listenPort = 8080; // 0: any free port
    QString dsn; // null: the libpq environment
    int relayWorkers = 0; // 0: no in-process relay
    QString sinkSpec = QStringLiteral("null");
    // Connection limits Qt HTTP Server lacks (see BoundedTcpServer).
    int maxConnections = 256;
    int connectionLifetimeMs = 30'000;
    // Database connections serving requests (default: twice the cores), and requests that may wait for one.
    int dbConnections = defaultDbConnections();
    int maxQueued = 16 * defaultDbConnections();
    MessageSinkFactory sinks;
    DiagnosticLog::Format logFormat = DiagnosticLog::Format::Text;
    QString helpText; // set when --help, --version or --man-page was given: print it and exit

    static int defaultDbConnections();
    // The options --help and the manual page list, and parse() takes.
    static QList<QCommandLineOption> table();
    static QString manPage();

    // Throws OutboxError(InvalidInput) naming the bad option.
    static ServiceOptions parse(const QStringList& arguments);
};
