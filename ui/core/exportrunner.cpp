// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/exportrunner.h"

#include "core/databaseclient.h"
#include "export/exporttables.h"

#include <QDir>
#include <QSaveFile>

namespace {

struct ExportResult {
    qint64 rows = 0;
    bool cancelled = false;
};

} // namespace

RecordTable::Format ExportRunner::formatForPath(const QString& path)
{
    return path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive) ? RecordTable::Format::Csv
                                                                     : RecordTable::Format::JsonLines;
}

ExportRunner* ExportRunner::exportOutbox(DatabaseClient& worker, QWidget* dialogParent, const OutboxFilter& filter,
    RecordTable::Format format, const QString& path)
{
    return start(worker, dialogParent, tr("Exporting rows to %1…").arg(QDir::toNativeSeparators(path)), path,
        [filter, format](DbSession& session, QIODevice& out, const std::function<bool(qint64)>& progress) {
            return ExportTables::streamOutbox(session, filter, format, out, progress);
        });
}

ExportRunner* ExportRunner::exportKeys(DatabaseClient& worker, QWidget* dialogParent, const KeyFilter& filter,
    RecordTable::Format format, const QString& path)
{
    return start(worker, dialogParent, tr("Exporting rows to %1…").arg(QDir::toNativeSeparators(path)), path,
        [filter, format](DbSession& session, QIODevice& out, const std::function<bool(qint64)>& progress) {
            return ExportTables::streamKeys(session, filter, format, out, progress);
        });
}

ExportRunner* ExportRunner::exportMetrics(DatabaseClient& worker, QWidget* dialogParent, const QDateTime& from,
    const QDateTime& to, int bucketSeconds, const QTimeZone& zone, const QString& path)
{
    return start(worker, dialogParent, tr("Exporting metrics to %1…").arg(QDir::toNativeSeparators(path)), path,
        [from, to, bucketSeconds, zone, path](
            DbSession& session, QIODevice& out, const std::function<bool(qint64)>& progress) -> qint64 {
            const QByteArray csv = ExportTables::metricsCsv(session, from, to, bucketSeconds, zone);
            if (out.write(csv) != csv.size()) {
                throw writeFailed(OutboxError::Kind::Other, path, out);
            }
            const qint64 buckets = csv.count('\n') - 1; // without the header
            progress(buckets);
            return buckets;
        });
}

OutboxError ExportRunner::writeFailed(OutboxError::Kind kind, const QString& path, const QIODevice& device)
{
    return OutboxError(kind, tr("cannot write %1: %2").arg(QDir::toNativeSeparators(path), device.errorString()));
}

ExportRunner* ExportRunner::start(
    DatabaseClient& worker, QWidget* dialogParent, const QString& label, const QString& path, Stream stream)
{
    auto* runner = new ExportRunner(dialogParent, label, 0);
    worker.run<ExportResult>(
        runner,
        [path, stream = std::move(stream), progress = runner->progressCallback()](DbSession& session) {
            // QSaveFile: a failed or cancelled export never leaves a half-written file behind.
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly))
                throw writeFailed(OutboxError::Kind::InvalidInput, path, file);
            ExportResult result;
            result.rows = stream(session, file, [&](qint64 rows) {
                result.cancelled = !progress(rows);
                return !result.cancelled;
            });
            if (result.cancelled)
                file.cancelWriting();
            else if (!file.commit())
                throw writeFailed(OutboxError::Kind::Other, path, file);
            return result;
        },
        [runner](const ExportResult& result) {
            emit runner->finished(result.rows, result.cancelled);
            runner->finish();
        },
        [runner](const OutboxError& error) {
            emit runner->failed(error.message());
            runner->finish();
        });
    return runner;
}
