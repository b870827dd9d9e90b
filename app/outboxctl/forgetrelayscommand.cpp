// SPDX-License-Identifier: GPL-3.0-or-later
#include "forgetrelayscommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "operations/relayfleet.h"

// The registry holds a row per relay start; far fewer live at a time.
static constexpr int ScannedRelays = 10'000;

static QStringList notRunningStates()
{
    QStringList names;
    for (const RelayState state : RelayStateNames.values()) {
        if (!isRunning(state))
            names.append(RelayStateNames.name(state));
    }
    return names;
}

QString ForgetRelaysCommand::summary() const
{
    return QStringLiteral("Remove relays that no longer run (stopped, stale, gone) from the registry, by id or by "
                          "state, with an audited reason; a running relay is left alone.");
}

QString ForgetRelaysCommand::synopsis() const
{
    return QStringLiteral("(--id ID ... | --state %1) --reason TEXT [--dry-run]")
        .arg(notRunningStates().join(QLatin1Char('|')));
}

void ForgetRelaysCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(QStringLiteral("id"), QStringLiteral("ID"),
        QStringLiteral("Forget this relay (the id `outboxctl relays` shows); repeat the option or separate ids with "
                       "commas."));
    parser.addValue(QStringLiteral("state"), QStringLiteral("S"),
        QStringLiteral("Forget every relay in this state: %1.").arg(notRunningStates().join(QStringLiteral(", "))));
    parser.addValue(
        QStringLiteral("reason"), QStringLiteral("TEXT"), QStringLiteral("Why, for the audit log (required)."));
    parser.addFlag(
        QStringLiteral("dry-run"), QStringLiteral("List the relays that would be forgotten and change nothing."));
}

int ForgetRelaysCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const bool byId = parser.isSet(QStringLiteral("id"));
    if (byId == parser.isSet(QStringLiteral("state")))
        throw parser.usageError(QStringLiteral("give either --id or --state"));
    const QList<qint64> givenIds = byId ? parser.ids(QStringLiteral("id")) : QList<qint64>();
    const QString state = byId ? QString() : parser.choice(QStringLiteral("state"), notRunningStates());
    const QString reason = parser.requiredText(QStringLiteral("reason"));

    const auto session = connect(settings);
    RelayFleet fleet(*session);
    QList<qint64> ids;
    QStringList described;
    // By id, however long ago a relay was seen; by state, among the most recently seen.
    for (const RelayNode& node : byId ? fleet.byIds(givenIds) : fleet.recent(ScannedRelays)) {
        if (!byId && RelayStateNames.name(node.state) != state)
            continue;
        ids.append(node.id);
        described.append(QStringLiteral("%1 %2 on %3 (%4)")
                             .arg(node.id)
                             .arg(node.name, node.host, RelayStateNames.name(node.state)));
    }
    std::sort(ids.begin(), ids.end());
    if (byId) {
        // Ids that are not in the registry: a typo, or forgotten already. Said, and left alone below.
        for (const qint64 id : givenIds) {
            if (!ids.contains(id))
                Console::warning(QStringLiteral("there is no relay %1 in the registry").arg(id));
        }
    }
    if (parser.isSet(QStringLiteral("dry-run"))) {
        Console::line(QStringLiteral("dry run: would forget %1 relays (a running one is left alone)").arg(ids.size()));
        for (const QString& relay : described)
            Console::line(relay);
        return ExitCode::Success;
    }
    const OperatorActionReport report = fleet.forget(ids, reason);
    Console::line(QStringLiteral("forgot %1, left alone %2 (running when applied)")
                      .arg(report.changed.size())
                      .arg(report.leftAlone.size()));
    if (!report.leftAlone.isEmpty())
        Console::line(QStringLiteral("left alone: %1").arg(Console::idList(report.leftAlone)));
    return ExitCode::Success;
}
