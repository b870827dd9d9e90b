// SPDX-License-Identifier: GPL-3.0-or-later
#include "backgroundrelay.h"
#include "common/boundedtcpserver.h"
#include "common/commandlinetext.h"
#include "common/connectionlossechoes.h"
#include "common/diagnosticlog.h"
#include "common/exitcode.h"
#include "common/listenaddress.h"
#include "common/signalwatcher.h"
#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "ordershttpapi.h"
#include "serviceoptions.h"

#include <QCoreApplication>
#include <QHttpServer>
#include <QTextStream>
#include <QTimer>
#include <functional>
#include <optional>

// What SIGTERM and SIGINT do, on the main thread: quit at once until serve() knows better.
static std::function<void()> stop = [] { QCoreApplication::quit(); };

static constexpr int StopGraceMs = 10'000;

static int serve(const ServiceOptions& options)
{
    ConnectionSettings settings
        = options.dsn.isNull() ? ConnectionSettings() : ConnectionSettings::fromDsn(options.dsn);
    settings.setDefaultApplicationName(QStringLiteral("orders-service"));
    {
        DbSession session(settings, QStringLiteral("orders-service"));
        SchemaMigrator(session).requireCurrent();
    }

    // The server outlives the API, whose pool may still finish work (and post its answers) while it is destroyed.
    QHttpServer server;
    OrdersHttpApi api(settings, OrdersHttpApi::Pool { options.dbConnections, options.maxQueued });
    api.registerRoutes(server);
    auto* socket = new BoundedTcpServer(options.maxConnections, options.connectionLifetimeMs, &server);
    if (!socket->listen(options.listenAddress, options.listenPort)) {
        throw OutboxError(OutboxError::Kind::Other,
            QStringLiteral("cannot listen on %1:%2: %3")
                .arg(options.listenAddress.toString())
                .arg(options.listenPort)
                .arg(socket->errorString()));
    }
    server.bind(socket);
    // The first line on stdout, so scripts and tests started with port 0 learn the port.
    QTextStream(stdout) << "listening on " << ListenAddress::url(options.listenAddress, socket->serverPort())
                        << Qt::endl;

    QTimer flushTimer;
    QObject::connect(&flushTimer, &QTimer::timeout, [&api] { api.flushMetrics(); });
    flushTimer.start(1000);

    // A stop request closes the listening socket, then quits once every request taken is answered, or after a
    // grace period if the database holds some of them.
    stop = [&api, socket] {
        socket->close();
        api.whenIdle([] { QCoreApplication::quit(); });
        QTimer::singleShot(StopGraceMs, [] {
            DiagnosticLog::event(QtWarningMsg, QStringLiteral("stopping with requests still unanswered"));
            QCoreApplication::quit();
        });
    };

    std::optional<BackgroundRelay> relay;
    if (options.relayWorkers > 0)
        relay.emplace(settings, options.sinks, SinkSpec::describe(options.sinkSpec), options.relayWorkers);
    const int code = QCoreApplication::exec();
    relay.reset();
    stop = [] { QCoreApplication::quit(); };
    api.flushMetrics(); // run by the pool before `api` is gone
    return code;
}

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("orders-service"));
    ConnectionLossEchoes::dropFromQtMessages();
    // Constructed before any other thread exists (see SignalWatcher).
    const SignalWatcher watcher([] {
        QMetaObject::invokeMethod(
            QCoreApplication::instance(), [] { stop(); }, Qt::QueuedConnection);
    });
    try {
        const ServiceOptions options = ServiceOptions::parse(CommandLineText::arguments(argc, argv));
        if (!options.helpText.isEmpty()) {
            QTextStream(stdout) << options.helpText;
            return ExitCode::Success;
        }
        DiagnosticLog::setFormat(options.logFormat);
        return serve(options);
    } catch (const OutboxError& error) {
        DiagnosticLog::write(QtCriticalMsg, error.message(), QStringLiteral("orders-service: ") + error.message());
        return ExitCode::forError(error.kind());
    }
}
