// SPDX-License-Identifier: GPL-3.0-or-later
#include "serviceoptions.h"

#include "common/commandlinetext.h"
#include "common/exitcode.h"
#include "common/listenaddress.h"
#include "common/manpage.h"
#include "common/programversion.h"
#include "common/sinkspec.h"
#include "db/outboxerror.h"

#include <QCommandLineParser>
#include <QThread>
#include <algorithm>

static OutboxError usageError(const QString& message)
{
    return OutboxError(OutboxError::Kind::InvalidInput, message);
}

int ServiceOptions::defaultDbConnections()
{
    return std::clamp(QThread::idealThreadCount() * 2, 2, 256);
}

static const QString Description
    = QStringLiteral("The reference HTTP service: idempotent POST /orders, GET /orders/{id}, /healthz, /metrics.");

QList<QCommandLineOption> ServiceOptions::table()
{
    return {
        QCommandLineOption({ QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help and exit.")),
        QCommandLineOption(
            QStringLiteral("version"), QStringLiteral("Show the version and the schema version it expects, and exit.")),
        QCommandLineOption(
            QStringLiteral("man-page"), QStringLiteral("Print the manual page (roff), which the package installs.")),
        QCommandLineOption(QStringLiteral("listen"),
            QStringLiteral("Address to listen on; port 0 picks a free port (default 127.0.0.1:8080)."),
            QStringLiteral("HOST:PORT"), QStringLiteral("127.0.0.1:8080")),
        QCommandLineOption(QStringLiteral("dsn"),
            QStringLiteral("PostgreSQL URI or key=value connection string (default: the libpq environment)."),
            QStringLiteral("DSN")),
        QCommandLineOption(QStringLiteral("relay"),
            QStringLiteral("Also run an outbox relay with N workers (1 to 64) in this process."), QStringLiteral("N")),
        QCommandLineOption(QStringLiteral("sink"),
            QStringLiteral("Where the relay publishes: file:PATH, fault:RATE[,LATENCY_MS[,CRASH_AFTER]] or null."),
            QStringLiteral("SPEC"), QStringLiteral("null")),
        QCommandLineOption(QStringLiteral("max-connections"),
            QStringLiteral("Open connections at most (1 to 100000); more are closed at once."), QStringLiteral("N"),
            QStringLiteral("256")),
        QCommandLineOption(QStringLiteral("connection-lifetime-ms"),
            QStringLiteral(
                "Close every connection after this long, so a slow client cannot hold one (100 to 3600000)."),
            QStringLiteral("MS"), QStringLiteral("30000")),
        QCommandLineOption(QStringLiteral("db-connections"),
            QStringLiteral("Database connections serving requests, each on its own thread (1 to 256; default: twice "
                           "the cores, %1 here).")
                .arg(ServiceOptions::defaultDbConnections()),
            QStringLiteral("N")),
        QCommandLineOption(QStringLiteral("max-queued"),
            QStringLiteral("Requests that may wait for a database connection (1 to 100000; default 16 per "
                           "connection); more are answered 503 with Retry-After."),
            QStringLiteral("N")),
        QCommandLineOption(QStringLiteral("log-format"),
            QStringLiteral("Diagnostics on stderr as 'text' or as 'json' lines (time, level, program, message)."),
            QStringLiteral("FORMAT"), QStringLiteral("text")),
    };
}

QString ServiceOptions::manPage()
{
    ManPage page(QStringLiteral("orders-service"), QStringLiteral("the reference HTTP service on the outbox library"));
    page.section(QStringLiteral("Synopsis"));
    page.synopsis(QStringLiteral("[options]"));
    page.section(QStringLiteral("Description"));
    page.paragraph(Description);
    page.paragraph(QStringLiteral(
        "POST /orders takes an Idempotency-Key header: the same key and body give the first answer again, the same "
        "key with another body is refused with 422, and a request still running with 409. The order, its outbox "
        "row and the key commit in one transaction. SIGTERM stops taking connections and answers what was taken."));
    page.section(QStringLiteral("Options"));
    page.options(table());
    // Only the codes a service start can end with; the rest belong to outboxctl's subcommands.
    page.exitStatus({ ExitCode::Success, ExitCode::Unexpected, ExitCode::Usage, ExitCode::CannotConnect,
        ExitCode::Schema, ExitCode::PermissionDenied });
    page.libpqEnvironment();
    page.section(QStringLiteral("See also"));
    page.paragraph(QStringLiteral("outboxctl(1)"));
    return page.text();
}

ServiceOptions ServiceOptions::parse(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(Description);
    parser.addOptions(table());
    if (!parser.parse(arguments))
        throw usageError(parser.errorText());
    if (const std::optional<QString> notText = CommandLineText::optionNotUtf8(parser, table()))
        throw usageError(*notText);
    if (!parser.positionalArguments().isEmpty())
        throw usageError(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().constFirst()));

    ServiceOptions options;
    if (parser.isSet(QStringLiteral("help"))) {
        options.helpText = parser.helpText();
        return options;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        options.helpText = ProgramVersion::line(QStringLiteral("orders-service")) + QLatin1Char('\n');
        return options;
    }
    if (parser.isSet(QStringLiteral("man-page"))) {
        options.helpText = manPage();
        return options;
    }
    const QString listen = QStringLiteral("listen");
    const QString dsn = QStringLiteral("dsn");
    const QString relay = QStringLiteral("relay");
    const QString sink = QStringLiteral("sink");
    const QString logFormat = QStringLiteral("log-format");
    const QString dbConnections = QStringLiteral("db-connections");
    const QString maxQueued = QStringLiteral("max-queued");
    if (!DiagnosticLog::parseFormat(parser.value(logFormat), options.logFormat))
        throw usageError(QStringLiteral("--log-format: invalid value '%1': expected one of text, json")
                             .arg(parser.value(logFormat)));
    const ListenAddress address = ListenAddress::parse(parser.value(listen), QStringLiteral("listen"), false);
    options.listenAddress = address.address;
    options.listenPort = address.port;
    const auto boundedInteger = [&parser](const QString& option, int min, int max) {
        bool ok = false;
        const int value = parser.value(option).toInt(&ok);
        if (!ok || value < min || value > max) {
            throw usageError(QStringLiteral("--%1: invalid value '%2': expected an integer from %3 to %4")
                                 .arg(option, parser.value(option))
                                 .arg(min)
                                 .arg(max));
        }
        return value;
    };
    options.maxConnections = boundedInteger(QStringLiteral("max-connections"), 1, 100'000);
    options.connectionLifetimeMs = boundedInteger(QStringLiteral("connection-lifetime-ms"), 100, 3'600'000);
    options.dbConnections
        = parser.isSet(dbConnections) ? boundedInteger(dbConnections, 1, 256) : ServiceOptions::defaultDbConnections();
    options.maxQueued = parser.isSet(maxQueued) ? boundedInteger(maxQueued, 1, 100'000) : options.dbConnections * 16;
    if (parser.isSet(dsn))
        options.dsn = parser.value(dsn);
    if (parser.isSet(relay)) {
        options.relayWorkers = boundedInteger(relay, 1, 64);
    } else if (parser.isSet(sink)) {
        throw usageError(QStringLiteral("--sink only applies with --relay"));
    }
    options.sinkSpec = parser.value(sink);
    if (options.relayWorkers > 0) {
        // A sink that cannot be created (say, an unwritable file) is bad input: say so now, not from every worker.
        try {
            options.sinks = SinkSpec::parse(options.sinkSpec);
            options.sinks();
        } catch (const OutboxError& error) {
            throw usageError(QStringLiteral("--sink: %1").arg(error.message()));
        }
    }
    return options;
}
