// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "idempotency/keyfilter.h"
#include "outbox/outboxfilter.h"

#include "core/progressrunner.h"
#include "db/outboxerror.h"
#include "export/recordtable.h"
#include <QDateTime>
#include <QTimeZone>

class QIODevice;

class DatabaseClient;
class DbSession;
class QIODevice;

// Exports every row matching a list's filter — not just the loaded ones — to a file, streamed page by page
// on a database worker behind a cancellable progress dialog. Deletes itself when done.
class ExportRunner final : public ProgressRunner {
    Q_OBJECT
public:
    static ExportRunner* exportOutbox(DatabaseClient& worker, QWidget* dialogParent, const OutboxFilter& filter,
        RecordTable::Format format, const QString& path);
    static ExportRunner* exportKeys(DatabaseClient& worker, QWidget* dialogParent, const KeyFilter& filter,
        RecordTable::Format format, const QString& path);

    // The metrics of [from, to) in `bucketSeconds` buckets of `zone` as CSV, exactly as `outboxctl metrics`
    // writes them. One query: Cancel takes effect once it has returned, and then nothing is written.
    static ExportRunner* exportMetrics(DatabaseClient& worker, QWidget* dialogParent, const QDateTime& from,
        const QDateTime& to, int bucketSeconds, const QTimeZone& zone, const QString& path);

    // CSV for *.csv, JSON lines otherwise (*.jsonl, *.ndjson).
    static RecordTable::Format formatForPath(const QString& path);

signals:
    void finished(qint64 rows, bool cancelled);
    void failed(const QString& message);

private:
    // On the worker thread: tr() is safe there.
    static OutboxError writeFailed(OutboxError::Kind kind, const QString& path, const QIODevice& device);
    using ProgressRunner::ProgressRunner;
    using Stream = std::function<qint64(DbSession&, QIODevice&, const std::function<bool(qint64)>&)>;
    static ExportRunner* start(
        DatabaseClient& worker, QWidget* dialogParent, const QString& label, const QString& path, Stream stream);
};
