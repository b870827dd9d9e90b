// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QIODevice>
#include <QNetworkAccessManager>
#include <QObject>
#include <QRandomGenerator>
#include <QTimer>
#include <QUrl>

// Create traffic with the duplicates real clients produce: each new order is POSTed with its own
// Idempotency-Key; a share is sent twice at once (double submit, concurrent duplicates); a client timeout
// shorter than a slow answer makes the client retry with the same key; and a small share reuses a key with a
// different body. Counts every answer by what the server said.
class LoadGenerator final : public QObject {
    Q_OBJECT
public:
    struct Options {
        QUrl url; // the service's base URL, e.g. http://127.0.0.1:8080
        double ratePerSecond = 20;
        qint64 orders = 0; // new keys to send; 0 = until stopped
        int timeoutMs = 2000; // client timeout; a timed-out request is retried with the same key
        int maxRetries = 3;
        double duplicateShare = 0.2; // sent twice at once
        double mismatchShare = 0.02; // the key is reused with a different body
        quint32 seed = 0; // 0 = random
        // Where each answer is appended as a JSON line (time, key, HTTP status, replayed, order id), to check
        // afterwards that every acknowledged order exists; null = nowhere.
        QIODevice* answers = nullptr;
    };

    struct Summary {
        qint64 sent = 0; // HTTP requests, retries and duplicates included
        qint64 created = 0; // 201 without Idempotent-Replayed
        qint64 replayed = 0; // any answer with Idempotent-Replayed: true
        qint64 inProgress = 0; // 409
        qint64 mismatched = 0; // 422 key reuse
        qint64 rejected = 0; // other 4xx/5xx answers
        qint64 timeouts = 0;
        qint64 errors = 0; // no HTTP answer at all
    };

    explicit LoadGenerator(Options options, QObject* parent = nullptr);

    void start();
    void stop(); // stops sending; finished() follows once the requests in flight are answered
    const Summary& summary() const { return m_summary; }

signals:
    void finished();

private:
    struct Order {
        QString key;
        QByteArray body;
    };

    void sendNext();
    void post(const Order& order, int attempt);
    void finishIfIdle();
    void recordAnswer(const QString& key, int status, bool replayed, const QByteArray& body);

    Options m_options;
    Summary m_summary;
    QNetworkAccessManager m_network;
    QRandomGenerator m_random;
    QTimer m_ticker;
    qint64 m_ordersSent = 0;
    int m_inFlight = 0;
    bool m_stopping = false;
};
