// SPDX-License-Identifier: GPL-3.0-or-later
#include "relayscommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "export/recordtable.h"
#include "operations/relayfleet.h"

QString RelaysCommand::summary() const
{
    return QStringLiteral("List the registered relays (alive; paused = by an operator, claiming nothing; failing = "
                          "its sink unreachable or its publishes failing; gone = its process died; stale = presumed "
                          "dead; stopped), most recently seen first.");
}

void RelaysCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(QStringLiteral("format"), QStringLiteral("F"),
        QStringLiteral("table (the columns an operator scans) or json (every field)."), QStringLiteral("table"));
    parser.addValue(QStringLiteral("limit"), QStringLiteral("N"),
        QStringLiteral("Relays at most (1 to 10000); every live relay is among the most recently seen."),
        QString::number(RelayFleet::DefaultLimit));
}

// The table keeps to what tells a live relay from a dead one; JSON carries every field for scripts.
static RecordTable relayTable(const QList<RelayNode>& nodes, bool everyField)
{
    QStringList columns { QStringLiteral("id"), QStringLiteral("name"), QStringLiteral("host"), QStringLiteral("pid"),
        QStringLiteral("state"), QStringLiteral("last_seen"), QStringLiteral("seen_seconds_ago"),
        QStringLiteral("published"), QStringLiteral("publish_rate"), QStringLiteral("publishing_to"),
        QStringLiteral("last_error"), QStringLiteral("failing_since"), QStringLiteral("paused_since") };
    if (everyField) {
        columns += { QStringLiteral("version"), QStringLiteral("sink"), QStringLiteral("sink_up"),
            QStringLiteral("workers"), QStringLiteral("batch_size"), QStringLiteral("lease_ms"),
            QStringLiteral("heartbeat_ms"), QStringLiteral("started_at"), QStringLiteral("stopped_at"),
            QStringLiteral("failed"), QStringLiteral("dead"), QStringLiteral("rescued"), QStringLiteral("fenced"),
            QStringLiteral("last_error_at") };
    }
    RecordTable table(columns);
    for (const RelayNode& node : nodes) {
        QList<Cell> cells { Cell::integer(node.id), Cell::text(node.name), Cell::text(node.host),
            Cell::integer(node.pid), Cell::text(RelayStateNames.name(node.state)), Cell::instant(node.lastSeen),
            Cell::integer(node.lastSeenAgeMs / 1000), Cell::integer(node.published), Cell::rate(node.publishRate),
            Cell::text(node.publishingTo), Cell::text(node.lastError), Cell::instant(node.failingSince),
            Cell::instant(node.pausedSince) };
        if (everyField) {
            cells += { Cell::text(node.version), Cell::text(node.sink), Cell::boolean(node.sinkUp),
                Cell::integer(node.workers), Cell::integer(node.batchSize), Cell::integer(node.leaseMs),
                Cell::integer(node.heartbeatMs), Cell::instant(node.startedAt), Cell::instant(node.stoppedAt),
                Cell::integer(node.failed), Cell::integer(node.dead), Cell::integer(node.rescued),
                Cell::integer(node.fenced), Cell::instant(node.lastErrorAt) };
        }
        table.addRow(cells);
    }
    return table;
}

int RelaysCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const RecordTable::Format format = RecordTable::formatNamed(
        parser.choice(QStringLiteral("format"), { QStringLiteral("table"), QStringLiteral("json") }));
    const int limit = int(parser.integer(QStringLiteral("limit"), 1, 10'000));
    const auto session = connect(settings);
    const QList<RelayNode> nodes = RelayFleet(*session).recent(limit);
    const bool json = format == RecordTable::Format::Json;
    Console::write(relayTable(nodes, json).render(format, QStringLiteral("relays")));
    return ExitCode::Success;
}
