// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/relaystatus.h"

#include <QByteArray>
#include <QJsonObject>
#include <functional>

class QHttpServer;

// What `outboxctl relay --metrics-listen` serves: /metrics in the Prometheus text format and /healthz.
namespace RelayEndpoint {

struct Identity {
    QString name;
    QString version;
};

// The scrape: counters since the process started, latency histograms, the last backlog sample and whether the
// database and the sink are reachable.
QByteArray metrics(const RelayStatus& status, const Identity& identity);

// 200 {"status": "ok", ...} while the database and the sink are reachable, else 503 with the reason.
struct Health {
    int httpStatus = 200;
    QJsonObject body;
};
Health health(const RelayStatus& status);

// Serves both from `status`, which is called on the endpoint's thread.
void addRoutes(QHttpServer& server, const std::function<RelayStatus()>& status, const Identity& identity);

} // namespace RelayEndpoint
