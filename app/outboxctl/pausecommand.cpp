// SPDX-License-Identifier: GPL-3.0-or-later
#include "pausecommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "operations/publishpauses.h"

PauseCommand::PauseCommand(Direction direction)
    : m_direction(direction)
{ }

QString PauseCommand::name() const
{
    return m_direction == Direction::Pause ? QStringLiteral("pause") : QStringLiteral("resume");
}

QString PauseCommand::summary() const
{
    if (m_direction == Direction::Pause) {
        return QStringLiteral("Pause publishing, with an audited reason: a relay (by its name; it claims nothing from "
                              "its next claim on, and shows 'paused') or an event type (no relay claims its rows; "
                              "rows already in flight are published).");
    }
    return QStringLiteral("Resume a paused relay or event type, with an audited reason; a type's parked rows are let "
                          "go before the command returns, oldest due first.");
}

QString PauseCommand::synopsis() const
{
    return QStringLiteral("(--relay NAME | --event-type TYPE) --reason TEXT [--dry-run]");
}

void PauseCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(QStringLiteral("relay"), QStringLiteral("NAME"),
        QStringLiteral("The relay's name, as `outboxctl relays` shows it (every relay running under that name)."));
    parser.addValue(QStringLiteral("event-type"), QStringLiteral("TYPE"), QStringLiteral("The event type."));
    parser.addValue(
        QStringLiteral("reason"), QStringLiteral("TEXT"), QStringLiteral("Why, for the audit log (required)."));
    parser.addFlag(QStringLiteral("dry-run"), QStringLiteral("Say what would change and change nothing."));
}

int PauseCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const bool byRelay = parser.isSet(QStringLiteral("relay"));
    if (byRelay == parser.isSet(QStringLiteral("event-type")))
        throw parser.usageError(QStringLiteral("give either --relay or --event-type"));
    const PauseScope scope = byRelay ? PauseScope::Relay : PauseScope::EventType;
    const QString target = parser.requiredText(byRelay ? QStringLiteral("relay") : QStringLiteral("event-type"));
    const QString reason = parser.requiredText(QStringLiteral("reason"));
    const QString described
        = byRelay ? QStringLiteral("relay %1").arg(target) : QStringLiteral("event type %1").arg(target);

    const auto session = connect(settings);
    PublishPauses pauses(*session);
    std::optional<PublishPause> current = pauses.find(scope, target);
    if (current && current->resuming())
        current.reset(); // resumed already; its parked rows are still being let go
    const bool pausing = m_direction == Direction::Pause;
    if (pausing && current) {
        Console::error(
            QStringLiteral("%1 is paused already (by %2 at %3: %4); nothing was written")
                .arg(described, current->pausedBy, current->pausedAt.toString(Qt::ISODate), current->reason));
        return ExitCode::NotApplicable;
    }
    if (!pausing && !current) {
        Console::error(QStringLiteral("%1 is not paused; nothing was written").arg(described));
        return ExitCode::NotApplicable;
    }
    // A typo pauses nothing that runs: said, but allowed, since a relay may be paused before it starts.
    if (pausing && !pauses.isKnown(scope, target)) {
        Console::warning(byRelay ? QStringLiteral("no relay named %1 is in the registry").arg(target)
                                 : QStringLiteral("no outbox row has the event type %1").arg(target));
    }
    if (parser.isSet(QStringLiteral("dry-run"))) {
        Console::line(pausing ? QStringLiteral("dry run: would pause %1").arg(described)
                              : QStringLiteral("dry run: would resume %1 (%2 rows parked)")
                                    .arg(described)
                                    .arg(current->parkedCapped ? QStringLiteral("%1+").arg(current->parkedRows)
                                                               : QString::number(current->parkedRows)));
        return ExitCode::Success;
    }
    if (pausing) {
        if (!pauses.pause(scope, target, reason)) {
            Console::error(
                QStringLiteral("%1 was paused by somebody else meanwhile; nothing was written").arg(described));
            return ExitCode::NotApplicable;
        }
        Console::line(byRelay
                ? QStringLiteral("paused %1: it claims nothing from its next claim on").arg(described)
                : QStringLiteral("paused %1: no relay claims its rows; those in flight are published").arg(described));
        return ExitCode::Success;
    }
    const std::optional<qint64> released = pauses.resume(scope, target, reason);
    if (!released) {
        Console::error(QStringLiteral("%1 was resumed by somebody else meanwhile; nothing was written").arg(described));
        return ExitCode::NotApplicable;
    }
    Console::line(byRelay ? QStringLiteral("resumed %1: it claims again at its next poll").arg(described)
                          : QStringLiteral("resumed %1: %2 parked rows let go").arg(described).arg(*released));
    return ExitCode::Success;
}
