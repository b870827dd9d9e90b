// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <functional>

class DbSession;
class MetricsRecorder;

// Applies each message at most once per consumer, however often the broker delivers it: in one transaction
// the message id is recorded in the inbox and, only if it is new, the consumer's changes are made. Acknowledge
// the delivery to the broker only after process() returned; a crash before that redelivers the message, and
// the inbox then drops it.
class InboxProcessor final {
    Q_DISABLE_COPY_MOVE(InboxProcessor)
public:
    enum class Outcome { Applied, Duplicate };

    // `metrics`, if given, counts applied messages and dropped duplicates into the rollups.
    InboxProcessor(DbSession& session, QString consumer, MetricsRecorder* metrics = nullptr);

    // Runs `apply` inside the transaction unless the message was seen before; commits. If `apply` throws,
    // nothing is recorded and the exception propagates, so the message may be delivered again.
    Outcome process(const QString& messageId, const std::function<void(DbSession&)>& apply);

private:
    DbSession& m_session;
    QString m_consumer;
    MetricsRecorder* m_metrics;
};
