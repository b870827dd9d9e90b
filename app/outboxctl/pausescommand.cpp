// SPDX-License-Identifier: GPL-3.0-or-later
#include "pausescommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "export/recordtable.h"
#include "operations/publishpauses.h"

QString PausesCommand::summary() const
{
    return QStringLiteral("List what is paused (relays and event types): by whom, why, since when, and an event "
                          "type's parked rows; a type being resumed shows resumed_at until its rows are let go.");
}

void PausesCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(
        QStringLiteral("format"), QStringLiteral("F"), QStringLiteral("table or json."), QStringLiteral("table"));
}

int PausesCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const RecordTable::Format format = RecordTable::formatNamed(
        parser.choice(QStringLiteral("format"), { QStringLiteral("table"), QStringLiteral("json") }));
    const auto session = connect(settings);
    RecordTable table({ QStringLiteral("id"), QStringLiteral("scope"), QStringLiteral("target"),
        QStringLiteral("paused_by"), QStringLiteral("paused_at"), QStringLiteral("reason"),
        QStringLiteral("parked_rows"), QStringLiteral("resumed_at") });
    for (const PublishPause& pause : PublishPauses(*session).current()) {
        table.addRow({ Cell::integer(pause.id), Cell::text(PauseScopeNames.name(pause.scope)), Cell::text(pause.target),
            Cell::text(pause.pausedBy), Cell::instant(pause.pausedAt), Cell::text(pause.reason),
            pause.parkedCapped ? Cell::text(QStringLiteral("%1+").arg(pause.parkedRows))
                               : Cell::integer(pause.parkedRows),
            Cell::instant(pause.resumedAt) });
    }
    Console::write(table.render(format, QStringLiteral("pauses")));
    return ExitCode::Success;
}
