// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/sinks/jsonlinesfilesink.h"

#include "db/outboxerror.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static OutboxError fileError(OutboxError::Kind kind, const QString& what, const QString& path)
{
    return OutboxError(kind, QStringLiteral("%1 %2: %3").arg(what, path, QString::fromLocal8Bit(std::strerror(errno))));
}

JsonLinesFileSink::JsonLinesFileSink(const QString& path)
    : m_path(path)
    , m_fd(::open(QFile::encodeName(path).constData(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644))
{
    if (m_fd < 0)
        throw fileError(OutboxError::Kind::InvalidInput, QStringLiteral("cannot open sink file"), path);
    // A relay killed in the middle of a write leaves its last line unfinished (its rows were not confirmed and are
    // published again). Appending to it would glue the next record onto that fragment: it is ended first. (The file
    // is opened for reading too, to see its last byte.)
    struct stat status { };
    char last = '\n';
    if (::fstat(m_fd, &status) == 0 && status.st_size > 0 && ::pread(m_fd, &last, 1, status.st_size - 1) == 1)
        m_endTornLine = last != '\n';
}

JsonLinesFileSink::~JsonLinesFileSink()
{
    ::close(m_fd);
}

QByteArray JsonLinesFileSink::line(const OutboxMessage& message)
{
    const QJsonObject envelope {
        { QStringLiteral("id"), message.id },
        { QStringLiteral("dedupe_key"), message.dedupeKey },
        { QStringLiteral("event_type"), message.eventType },
        { QStringLiteral("aggregate_type"), message.aggregateType },
        { QStringLiteral("aggregate_id"), message.aggregateId },
        { QStringLiteral("attempt"), message.attempt },
        { QStringLiteral("created_at"), message.createdAt.toUTC().toString(Qt::ISODateWithMs) },
    };
    // Payload and headers are spliced in as the database rendered them (valid JSON without raw newlines),
    // so any JSON value survives unchanged, scalars included.
    QByteArray line = QJsonDocument(envelope).toJson(QJsonDocument::Compact);
    line.chop(1);
    return line + ",\"headers\":" + message.headers + ",\"payload\":" + message.payload + "}\n";
}

QList<PublishResult> JsonLinesFileSink::publish(const QList<OutboxMessage>& batch)
{
    QByteArray buffer = m_endTornLine ? QByteArrayLiteral("\n") : QByteArray();
    for (const OutboxMessage& message : batch)
        buffer += line(message);
    qsizetype written = 0;
    while (written < buffer.size()) {
        const ssize_t n = ::write(m_fd, buffer.constData() + written, size_t(buffer.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw fileError(OutboxError::Kind::Other, QStringLiteral("cannot write to sink file"), m_path);
        written += n;
    }
    if (::fsync(m_fd) != 0)
        throw fileError(OutboxError::Kind::Other, QStringLiteral("cannot fsync sink file"), m_path);
    m_endTornLine = false;
    QList<PublishResult> results;
    for (const OutboxMessage& message : batch)
        results.append({ message.id, true, {} });
    return results;
}
