// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/messagesink.h"

// Appends each message as one JSON line to a file and fsyncs before confirming, so a confirmed message
// survives a power cut. Several workers (and processes) may append to the same file: each batch is one
// write() on an O_APPEND descriptor, so lines never interleave.
class JsonLinesFileSink final : public MessageSink {
    Q_DISABLE_COPY_MOVE(JsonLinesFileSink)
public:
    // Throws OutboxError(InvalidInput) naming the file if it cannot be opened for appending.
    explicit JsonLinesFileSink(const QString& path);
    ~JsonLinesFileSink() final override;

    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override;

    static QByteArray line(const OutboxMessage& message);

private:
    QString m_path;
    int m_fd = -1;
    bool m_endTornLine = false; // the file ended in an unfinished line when opened
};
