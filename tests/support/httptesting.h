// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>

// What the tests of HTTP endpoints (orders-service, the relay's /metrics) share. Header-only: the tests that
// include it link Qt6::Network.
namespace HttpTesting {

constexpr int WaitMs = 30'000;

struct HttpReply {
    int status = 0; // 0: no HTTP answer
    QByteArray body;
    QByteArray contentType;
    QByteArray replayed; // the Idempotent-Replayed header
    QByteArray retryAfter;

    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

// Waits for `reply` and takes what it brought.
inline HttpReply collect(QNetworkReply* reply)
{
    if (!reply->isFinished())
        QSignalSpy(reply, &QNetworkReply::finished).wait(WaitMs);
    HttpReply result;
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    result.contentType = reply->rawHeader("Content-Type");
    result.replayed = reply->rawHeader("Idempotent-Replayed");
    result.retryAfter = reply->rawHeader("Retry-After");
    reply->deleteLater();
    return result;
}

inline HttpReply get(QNetworkAccessManager& network, const QUrl& url)
{
    return collect(network.get(QNetworkRequest(url)));
}

// POST /orders as a client of orders-service: an order of 5 for customer c-1 under the idempotency key `key`.
inline HttpReply postOrder(QNetworkAccessManager& network, const QUrl& base, const QByteArray& key)
{
    QNetworkRequest request(base.resolved(QUrl(QStringLiteral("/orders"))));
    request.setRawHeader("Content-Type", "application/json");
    request.setRawHeader("Idempotency-Key", key);
    return collect(network.post(request, R"({"customer":"c-1","amount":"5"})"));
}

// The value of an unlabelled sample in a Prometheus scrape; -1 when the family has no such sample.
inline double sample(const QByteArray& scrape, const QByteArray& name)
{
    for (const QByteArray& line : scrape.split('\n')) {
        if (line.startsWith(name + ' '))
            return line.mid(name.size() + 1).toDouble();
    }
    return -1;
}

} // namespace HttpTesting
