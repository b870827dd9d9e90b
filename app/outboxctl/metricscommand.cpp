// SPDX-License-Identifier: GPL-3.0-or-later
#include "metricscommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "export/exporttables.h"
#include "metrics/metricsrepository.h"

#include <QTimeZone>

QString MetricsCommand::summary() const
{
    return QStringLiteral("Print request and relay metrics per time bucket as CSV or JSON.");
}

QString MetricsCommand::synopsis() const
{
    return QStringLiteral("--from T --to T [--bucket 1m|5m|1h] [--tz UTC|local|Area/City] [--format csv|json]");
}

void MetricsCommand::addOptions(ArgumentParser& parser) const
{
    const QString timeHelp = QStringLiteral(
        "ISO-8601 (e.g. 2026-11-30T06:00:00+01:00; without an offset it is read in --tz), now or now-DURATION "
        "(e.g. now-1h).");
    parser.addValue(QStringLiteral("from"), QStringLiteral("T"), QStringLiteral("Start of the window. ") + timeHelp);
    parser.addValue(
        QStringLiteral("to"), QStringLiteral("T"), QStringLiteral("End of the window (exclusive). ") + timeHelp);
    parser.addValue(QStringLiteral("bucket"), QStringLiteral("DURATION"),
        QStringLiteral("Bucket length: 1m, 5m or 1h."), QStringLiteral("1m"));
    parser.addValue(QStringLiteral("tz"), QStringLiteral("ZONE"),
        QStringLiteral("Time zone that buckets align to and times are shown in: UTC, local or an IANA name such as "
                       "Europe/Berlin."),
        QStringLiteral("UTC"));
    parser.addValue(
        QStringLiteral("format"), QStringLiteral("F"), QStringLiteral("csv or json."), QStringLiteral("csv"));
}

int MetricsCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    QString zoneId = parser.value(QStringLiteral("tz"));
    if (zoneId == QLatin1String("local"))
        zoneId = QString::fromUtf8(QTimeZone::systemTimeZoneId());
    if (!MetricsRepository::isSupportedTimeZone(zoneId)) {
        throw parser.usageError(
            QStringLiteral("--tz: unknown time zone '%1': use an IANA name such as UTC or Europe/Berlin").arg(zoneId));
    }
    const QTimeZone zone(zoneId.toUtf8());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QDateTime from = parser.instant(QStringLiteral("from"), now, zone);
    const QDateTime to = parser.instant(QStringLiteral("to"), now, zone);
    if (from > to)
        throw parser.usageError(QStringLiteral("--from must not be after --to"));
    const QString bucket
        = parser.choice(QStringLiteral("bucket"), { QStringLiteral("1m"), QStringLiteral("5m"), QStringLiteral("1h") });
    const int bucketSeconds = int(parser.toDurationMs(QStringLiteral("bucket"), bucket) / 1000);
    const RecordTable::Format format = RecordTable::formatNamed(
        parser.choice(QStringLiteral("format"), { QStringLiteral("csv"), QStringLiteral("json") }));

    const auto session = connect(settings);
    if (format == RecordTable::Format::Csv) {
        Console::write(ExportTables::metricsCsv(*session, from, to, bucketSeconds, zone));
    } else {
        const QList<MetricPoint> points
            = MetricsRepository(*session).series(from, to, bucketSeconds, QString::fromUtf8(zone.id()));
        Console::write(ExportTables::metrics(points, zone).render(format, QStringLiteral("series")));
    }
    return ExitCode::Success;
}
