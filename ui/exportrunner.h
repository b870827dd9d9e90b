#pragma once

#include "outboxfilter.h"
#include "progressrunner.h"
#include "recordtable.h"

class DatabaseWorker;
class DbSession;
class QIODevice;

// Exports every row matching a list's filter — not just the loaded ones — to a file, streamed page by page
// on a database worker behind a cancellable progress dialog. Deletes itself when done.
class ExportRunner final : public ProgressRunner {
    Q_OBJECT
public:
    static ExportRunner* exportOutbox(DatabaseWorker& worker, QWidget* dialogParent, const OutboxFilter& filter,
        RecordTable::Format format, const QString& path);
    static ExportRunner* exportKeys(DatabaseWorker& worker, QWidget* dialogParent, const KeyFilter& filter,
        RecordTable::Format format, const QString& path);

    // CSV for *.csv, JSON lines otherwise (*.jsonl, *.ndjson).
    static RecordTable::Format formatForPath(const QString& path);

signals:
    void finished(qint64 rows, bool cancelled);
    void failed(const QString& message);

private:
    using ProgressRunner::ProgressRunner;
    using Stream = std::function<qint64(DbSession&, QIODevice&, const std::function<bool(qint64)>&)>;
    static ExportRunner* start(DatabaseWorker& worker, QWidget* dialogParent, const QString& path, Stream stream);
};
