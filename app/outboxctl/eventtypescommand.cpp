// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventtypescommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "export/recordtable.h"
#include "metrics/throughputrepository.h"
#include "operations/eventtypebreakdown.h"

QString EventTypesCommand::summary() const
{
    return QStringLiteral("List every event type with its rows per state (each count stops at the cap: N+) and how "
                          "long its oldest unpublished row has waited; with --per-second, what the relays published "
                          "and failed in each of the last seconds.");
}

void EventTypesCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(
        QStringLiteral("format"), QStringLiteral("F"), QStringLiteral("table or json."), QStringLiteral("table"));
    parser.addValue(QStringLiteral("cap"), QStringLiteral("N"),
        QStringLiteral("Count each state of each type up to N rows (1 to 10000000); more shows as N+."),
        QString::number(EventTypeBreakdown::DefaultCountCap));
    parser.addFlag(QStringLiteral("per-second"),
        QStringLiteral("Instead: one line per second of the last --seconds, with the rows the relays published, the "
                       "attempts that failed and those that left a row dead (of all types, or of --event-type). "
                       "complete says whether every running relay has counted that second yet."));
    parser.addValue(QStringLiteral("seconds"), QStringLiteral("N"),
        QStringLiteral("With --per-second: how many seconds, the current one included (1 to %1).")
            .arg(ThroughputRepository::KeptSeconds),
        QStringLiteral("60"));
    parser.addValue(QStringLiteral("event-type"), QStringLiteral("TYPE"),
        QStringLiteral("With --per-second: only rows of this event type."));
}

int EventTypesCommand::executePerSecond(
    const ArgumentParser& parser, const ConnectionSettings& settings, RecordTable::Format format)
{
    const int seconds = int(parser.integer(QStringLiteral("seconds"), 1, ThroughputRepository::KeptSeconds));
    const auto session = connect(settings);
    const ThroughputRepository::Window window
        = ThroughputRepository(*session).lastSeconds(seconds, parser.value(QStringLiteral("event-type")));
    RecordTable table({ QStringLiteral("second"), QStringLiteral("published"), QStringLiteral("failed"),
        QStringLiteral("dead"), QStringLiteral("complete") });
    for (const MetricPoint& point : window.points) {
        table.addRow({ Cell::instant(point.start), Cell::integer(point.counters.published),
            Cell::integer(point.counters.failedAttempts), Cell::integer(point.counters.deadLetters),
            Cell::boolean(ThroughputRepository::isComplete(window, point)) });
    }
    Console::write(table.render(format, QStringLiteral("seconds")));
    if (window.runningRelays == 0)
        Console::warning(QStringLiteral("no relay is running: nothing is being published or counted"));
    return ExitCode::Success;
}

int EventTypesCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const RecordTable::Format format = RecordTable::formatNamed(
        parser.choice(QStringLiteral("format"), { QStringLiteral("table"), QStringLiteral("json") }));
    if (parser.isSet(QStringLiteral("per-second")))
        return executePerSecond(parser, settings, format);
    for (const char* perSecondOnly : { "seconds", "event-type" }) {
        if (parser.isSet(QLatin1String(perSecondOnly)))
            throw parser.usageError(QStringLiteral("--%1 needs --per-second").arg(QLatin1String(perSecondOnly)));
    }
    const int cap = int(parser.integer(QStringLiteral("cap"), 1, 10'000'000));
    const auto session = connect(settings);
    const EventTypeBreakdown breakdown = EventTypeBreakdown::load(*session, cap);
    QStringList columns { QStringLiteral("event_type") };
    columns += OutboxStatusNames.names();
    columns.append(QStringLiteral("oldest_unpublished_seconds"));
    RecordTable table(columns);
    for (const EventTypeCounts& type : breakdown.types) {
        QList<Cell> cells { Cell::text(type.eventType) };
        for (const CappedCount& count : type.counts)
            cells.append(
                count.capped ? Cell::text(QStringLiteral("%1+").arg(count.value)) : Cell::integer(count.value));
        cells.append(Cell::integer(
            type.oldestUnpublishedAgeMs ? std::optional<qint64>(*type.oldestUnpublishedAgeMs / 1000) : std::nullopt));
        table.addRow(cells);
    }
    Console::write(table.render(format, QStringLiteral("event_types")));
    if (breakdown.moreTypes)
        Console::warning(QStringLiteral("more than %1 event types: the first %1 by name are listed")
                             .arg(EventTypeBreakdown::DefaultTypeLimit));
    return ExitCode::Success;
}
