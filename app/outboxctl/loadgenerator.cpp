// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadgenerator.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QUuid>

LoadGenerator::LoadGenerator(Options options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_random(m_options.seed ? m_options.seed : QRandomGenerator::global()->generate())
{
    m_ticker.setInterval(qMax(1, int(1000.0 / m_options.ratePerSecond)));
    connect(&m_ticker, &QTimer::timeout, this, &LoadGenerator::sendNext);
}

void LoadGenerator::start()
{
    m_ticker.start();
}

void LoadGenerator::stop()
{
    m_stopping = true;
    m_ticker.stop();
    finishIfIdle();
}

void LoadGenerator::sendNext()
{
    if (m_options.orders > 0 && m_ordersSent >= m_options.orders) {
        stop();
        return;
    }
    ++m_ordersSent;
    const Order order { QUuid::createUuid().toString(QUuid::WithoutBraces),
        QJsonDocument(QJsonObject { { QStringLiteral("customer"), QStringLiteral("c-%1").arg(m_random.bounded(500)) },
                          { QStringLiteral("amount"), double(m_random.bounded(1, 100'000)) / 100.0 },
                          { QStringLiteral("currency"), QStringLiteral("EUR") } })
            .toJson(QJsonDocument::Compact) };
    post(order, 1);
    if (m_random.generateDouble() < m_options.duplicateShare)
        post(order, 1); // double submit: the same request again while the first is in flight
    if (m_random.generateDouble() < m_options.mismatchShare) {
        Order changed = order;
        changed.body = QJsonDocument(QJsonObject { { QStringLiteral("customer"), QStringLiteral("someone-else") },
                                         { QStringLiteral("amount"), 1.0 } })
                           .toJson(QJsonDocument::Compact);
        post(changed, m_options.maxRetries); // a buggy client reusing its key; never retried
    }
}

void LoadGenerator::post(const Order& order, int attempt)
{
    QNetworkRequest request(m_options.url.resolved(QUrl(QStringLiteral("/orders"))));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setRawHeader("Idempotency-Key", order.key.toUtf8());
    request.setTransferTimeout(m_options.timeoutMs);
    ++m_summary.sent;
    ++m_inFlight;
    QNetworkReply* reply = m_network.post(request, order.body);
    connect(reply, &QNetworkReply::finished, this, [this, reply, order, attempt] {
        reply->deleteLater();
        --m_inFlight;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->readAll();
        const bool replayed = reply->rawHeader("Idempotent-Replayed") == "true";
        if (status != 0)
            recordAnswer(order.key, status, replayed, body);
        if (reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError) {
            ++m_summary.timeouts;
            // The server may have executed it: retry with the same key, as a well-behaved client does.
            if (attempt < m_options.maxRetries && !m_stopping)
                post(order, attempt + 1);
        } else if (status == 0) {
            ++m_summary.errors;
        } else if (replayed) {
            ++m_summary.replayed;
        } else if (status == 201) {
            ++m_summary.created;
        } else if (status == 409) {
            ++m_summary.inProgress;
            if (attempt < m_options.maxRetries && !m_stopping) {
                // Retry when the server says, capped so a demo keeps moving; counted in flight until then.
                const int retryAfterMs = qMin(qMax(1, reply->rawHeader("Retry-After").toInt()) * 1000, 2000);
                ++m_inFlight;
                QTimer::singleShot(retryAfterMs, this, [this, order, attempt] {
                    --m_inFlight;
                    if (m_stopping)
                        finishIfIdle();
                    else
                        post(order, attempt + 1);
                });
            }
        } else if (status == 422
            && QJsonDocument::fromJson(body).object().value(QStringLiteral("error")).toString()
                == QLatin1String("idempotency_key_reuse")) {
            ++m_summary.mismatched;
        } else {
            ++m_summary.rejected;
        }
        finishIfIdle();
    });
}

void LoadGenerator::recordAnswer(const QString& key, int status, bool replayed, const QByteArray& body)
{
    if (!m_options.answers)
        return;
    QJsonObject answer { { QStringLiteral("at_ms"), QDateTime::currentMSecsSinceEpoch() },
        { QStringLiteral("key"), key }, { QStringLiteral("status"), status },
        { QStringLiteral("replayed"), replayed } };
    if (const QJsonValue id = QJsonDocument::fromJson(body).object().value(QStringLiteral("id")); id.isDouble())
        answer.insert(QStringLiteral("order_id"), id);
    // One write per line, flushed: a line is whole even if the generator is killed.
    m_options.answers->write(QJsonDocument(answer).toJson(QJsonDocument::Compact) + '\n');
}

void LoadGenerator::finishIfIdle()
{
    if (m_stopping && m_inFlight == 0)
        emit finished();
}
