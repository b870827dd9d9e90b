// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventtypescommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "export/recordtable.h"
#include "operations/eventtypebreakdown.h"

QString EventTypesCommand::summary() const
{
    return QStringLiteral("List every event type with its rows per state (each count stops at the cap: N+) and how "
                          "long its oldest unpublished row has waited.");
}

void EventTypesCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(
        QStringLiteral("format"), QStringLiteral("F"), QStringLiteral("table or json."), QStringLiteral("table"));
    parser.addValue(QStringLiteral("cap"), QStringLiteral("N"),
        QStringLiteral("Count each state of each type up to N rows (1 to 10000000); more shows as N+."),
        QString::number(EventTypeBreakdown::DefaultCountCap));
}

int EventTypesCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const RecordTable::Format format = RecordTable::formatNamed(
        parser.choice(QStringLiteral("format"), { QStringLiteral("table"), QStringLiteral("json") }));
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
