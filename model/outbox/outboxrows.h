// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxstatus.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

// An outbox row as lists show it: no payload, headers or full error (the heavy columns stay out of list queries).
struct OutboxRowSummary {
    qint64 id = 0;
    QString aggregateType;
    QString aggregateId;
    QString eventType;
    OutboxStatus status = OutboxStatus::Pending;
    int attempts = 0;
    QDateTime nextAttemptAt;
    QString lastErrorLine; // first line of last_error, at most 200 characters
    QString leaseOwner;
    QDateTime leaseExpiresAt;
    QDateTime createdAt;
    QDateTime publishedAt;
    QString orderingKey; // empty: unordered
};

struct OutboxPage {
    QList<OutboxRowSummary> rows; // newest first
    QDateTime serverNow; // the database's clock when the page was read, for classifying stuck rows
};

struct OutboxRowDetail {
    OutboxRowSummary summary;
    QString dedupeKey;
    QByteArray payload; // JSON as stored
    QByteArray headers;
    QString lastError; // complete
    qint64 leaseToken = 0;
    QDateTime updatedAt;
};

// One failed publish attempt (outbox_attempts).
struct OutboxAttempt {
    int attempt = 0;
    QString worker;
    QString error;
    QDateTime at;
};
