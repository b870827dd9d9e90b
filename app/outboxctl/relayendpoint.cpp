// SPDX-License-Identifier: GPL-3.0-or-later
#include "relayendpoint.h"

#include "common/prometheusformat.h"

#include <QHttpServer>
#include <QJsonDocument>

namespace RelayEndpoint {

QByteArray metrics(const RelayStatus& status, const Identity& identity)
{
    const RelayTotals& t = status.totals;
    PrometheusFormat format;
    format.addCounter(QStringLiteral("outbox_relay_published_total"),
        QStringLiteral("Outbox rows this relay published (since it started)."), t.published);
    format.addCounter(QStringLiteral("outbox_relay_failed_total"),
        QStringLiteral("Publish attempts that failed and were scheduled for a retry or dead-lettered."), t.failed);
    format.addCounter(QStringLiteral("outbox_relay_dead_total"),
        QStringLiteral("Rows this relay dead-lettered after their last attempt (publish failures and rescues)."),
        t.dead);
    format.addCounter(QStringLiteral("outbox_relay_rescued_total"),
        QStringLiteral("Rows whose lease had expired (a crashed or cut-off relay) that this relay took back."),
        t.rescued);
    format.addCounter(QStringLiteral("outbox_relay_fenced_total"),
        QStringLiteral("Completions refused because the row's lease had been taken over meanwhile."), t.fenced);
    format.addCounter(QStringLiteral("outbox_relay_handed_back_total"),
        QStringLiteral("Rows returned unpublished because the sink was unavailable."), t.handedBack);
    format.addHistogram(QStringLiteral("outbox_relay_publish_latency_seconds"),
        QStringLiteral("From a row's commit to its publish being recorded."), t.publishLatency);
    format.addHistogram(QStringLiteral("outbox_relay_batch_seconds"),
        QStringLiteral("From a batch's claim to its outcome being committed."), t.batchDuration);
    // Without a sample yet the backlog is unknown: left out rather than reported as zero.
    if (status.backlog) {
        format.addGauge(QStringLiteral("outbox_backlog_rows"),
            QStringLiteral("Unpublished outbox rows (pending, in flight, failed) at the last sample, counted up to %1.")
                .arg(BacklogSample::CountCap),
            double(status.backlog->unpublished));
        format.addGauge(QStringLiteral("outbox_oldest_pending_age_seconds"),
            QStringLiteral("Age of the oldest unpublished row at the last sample; 0 when nothing waits."),
            double(status.backlog->oldestUnpublishedAgeMs) / 1000.0);
    }
    format.addGauge(QStringLiteral("outbox_relay_db_up"),
        QStringLiteral("1 while the relay reaches PostgreSQL, 0 during an outage."), status.databaseUp ? 1 : 0);
    format.addGauge(QStringLiteral("outbox_relay_sink_up"),
        QStringLiteral("1 while the relay reaches its sink, 0 during an outage."), status.sinkUp ? 1 : 0);
    format.addGauge(QStringLiteral("outbox_relay_failing"),
        QStringLiteral("1 while the relay publishes nothing: its sink is unreachable, or its publishes failed and "
                       "none has succeeded since (relay_nodes state 'failing')."),
        status.failing ? 1 : 0);
    format.addGauge(QStringLiteral("outbox_relay_paused"),
        QStringLiteral("1 while an operator has paused the relay (outboxctl pause --relay): it claims nothing."),
        status.pause ? 1 : 0);
    format.addInfo(QStringLiteral("outbox_relay_info"), QStringLiteral("The relay's name and version."),
        { { QStringLiteral("version"), identity.version }, { QStringLiteral("name"), identity.name } });
    return format.text();
}

Health health(const RelayStatus& status)
{
    const auto peer = [](bool up) { return up ? QStringLiteral("up") : QStringLiteral("down"); };
    Health health;
    health.body
        = { { QStringLiteral("database"), peer(status.databaseUp) }, { QStringLiteral("sink"), peer(status.sinkUp) } };
    QStringList reasons;
    if (!status.databaseUp)
        reasons.append(QStringLiteral("database: ") + status.databaseProblem);
    if (!status.sinkUp)
        reasons.append(QStringLiteral("sink: ") + status.sinkProblem);
    else if (status.failing)
        reasons.append(status.failingProblem); // reachable, but refusing every publish
    // Paused on purpose, but publishing nothing all the same: not healthy, and the reason names who and why.
    if (status.pause)
        reasons.append(QStringLiteral("paused by %1: %2").arg(status.pause->pausedBy, status.pause->reason));
    health.body.insert(QStringLiteral("publishing"),
        status.pause         ? QStringLiteral("paused")
            : status.failing ? QStringLiteral("failing")
                             : QStringLiteral("ok"));
    health.httpStatus = reasons.isEmpty() ? 200 : 503;
    health.body.insert(
        QStringLiteral("status"), reasons.isEmpty() ? QStringLiteral("ok") : QStringLiteral("unavailable"));
    if (!reasons.isEmpty())
        health.body.insert(QStringLiteral("reason"), reasons.join(QStringLiteral("; ")));
    return health;
}

void addRoutes(QHttpServer& server, const std::function<RelayStatus()>& status, const Identity& identity)
{
    using Method = QHttpServerRequest::Method;
    server.route(QStringLiteral("/metrics"), Method::Get,
        [status, identity] { return QHttpServerResponse(PrometheusFormat::ContentType, metrics(status(), identity)); });
    server.route(QStringLiteral("/healthz"), Method::Get, [status] {
        const Health answer = health(status());
        return QHttpServerResponse(QByteArrayLiteral("application/json"),
            QJsonDocument(answer.body).toJson(QJsonDocument::Compact),
            QHttpServerResponder::StatusCode(answer.httpStatus));
    });
}

} // namespace RelayEndpoint
