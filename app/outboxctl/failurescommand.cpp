// SPDX-License-Identifier: GPL-3.0-or-later
#include "failurescommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "export/exporttables.h"
#include "outbox/failuregrouprepository.h"

#include <QDateTime>

QString FailuresCommand::summary() const
{
    return QStringLiteral("Group failed and dead outbox rows by the cause of their last error, largest first.");
}

QString FailuresCommand::synopsis() const
{
    return QStringLiteral("[--status failed|dead] [--since DURATION] [--limit N] [--format table|json|csv]");
}

void FailuresCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(QStringLiteral("status"), QStringLiteral("S"),
        QStringLiteral("Only rows in this state: failed or dead (default: both)."));
    parser.addValue(QStringLiteral("since"), QStringLiteral("DURATION"),
        QStringLiteral("Only groups with a failure this recent, e.g. 1h."));
    parser.addValue(QStringLiteral("limit"), QStringLiteral("N"), QStringLiteral("Groups at most (1 to 10000)."),
        QStringLiteral("100"));
    parser.addValue(QStringLiteral("format"), QStringLiteral("F"),
        QStringLiteral("table (what an operator scans), json or csv (every field)."), QStringLiteral("table"));
}

int FailuresCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    FailureGroupFilter filter;
    if (parser.isSet(QStringLiteral("status"))) {
        filter.statuses = { *OutboxStatusNames.parse(parser.choice(
            QStringLiteral("status"), OutboxStatusNames.names({ OutboxStatus::Failed, OutboxStatus::Dead }))) };
    }
    filter.limit = int(parser.integer(QStringLiteral("limit"), 1, 10'000));
    const RecordTable::Format format = RecordTable::formatNamed(parser.choice(
        QStringLiteral("format"), { QStringLiteral("table"), QStringLiteral("json"), QStringLiteral("csv") }));
    const auto session = connect(settings);
    if (parser.isSet(QStringLiteral("since")))
        filter.seenSince = session->serverNow().addMSecs(-parser.durationMs(QStringLiteral("since")));
    const QList<FailureGroup> groups = FailureGroupRepository(*session).groups(filter);
    Console::write(ExportTables::failureGroups(groups, format != RecordTable::Format::Table)
                       .render(format, QStringLiteral("groups")));
    if (format == RecordTable::Format::Table && !groups.isEmpty())
        Console::hint(QStringLiteral("retry a group: outboxctl requeue --signature ID --reason TEXT"));
    return ExitCode::Success;
}
