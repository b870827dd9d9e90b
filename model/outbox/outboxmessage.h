// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>

// An event to be written to the outbox in the same transaction as the change it describes.
struct NewOutboxMessage {
    QString aggregateType;
    QString aggregateId;
    QString eventType;
    QByteArray payload; // JSON
    QByteArray headers = QByteArrayLiteral("{}"); // JSON object
    QString dedupeKey; // unique; consumers deduplicate on it
};

// A claimed outbox row, as the relay hands it to a MessageSink.
struct OutboxMessage {
    qint64 id = 0;
    qint64 leaseToken = 0; // fencing token of this claim
    QString aggregateType;
    QString aggregateId;
    QString eventType;
    QString dedupeKey;
    QByteArray payload;
    QByteArray headers;
    int attempt = 0; // 1 for the first publish attempt
    QDateTime createdAt;
    QString orderingKey; // empty: unordered (outbox.ordering_key NULL)
};
