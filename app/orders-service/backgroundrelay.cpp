// SPDX-License-Identifier: GPL-3.0-or-later
#include "backgroundrelay.h"

#include "common/diagnosticlog.h"

#include <exception>

static void logLine(QtMsgType level, const QString& line)
{
    DiagnosticLog::event(level, QStringLiteral("relay: ") + line);
}

static RelayOptions relayOptions(int workers, const QString& sinkDescription)
{
    RelayOptions options;
    options.workers = workers;
    options.sinkDescription = sinkDescription;
    options.log = logLine;
    return options;
}

BackgroundRelay::BackgroundRelay(
    const ConnectionSettings& settings, const MessageSinkFactory& sinks, const QString& sinkDescription, int workers)
    : m_relay(settings, sinks, relayOptions(workers, sinkDescription))
{
    // A fatal relay error (schema, permissions, a sink that stopped working) ends only the relay: the
    // service keeps accepting orders, whose outbox rows wait for the next relay.
    m_thread = std::thread([this] {
        try {
            m_relay.run();
        } catch (const std::exception& error) {
            logLine(QtCriticalMsg, QStringLiteral("stopped: %1").arg(QString::fromUtf8(error.what())));
        }
    });
}

BackgroundRelay::~BackgroundRelay()
{
    m_relay.stop();
    m_thread.join();
}
