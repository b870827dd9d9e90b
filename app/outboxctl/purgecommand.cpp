// SPDX-License-Identifier: GPL-3.0-or-later
#include "purgecommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "operations/retentionpurger.h"

QString PurgeCommand::summary() const
{
    return QStringLiteral(
        "Delete expired idempotency keys, old inbox rows and/or gone relays in small batches, and old published outbox "
        "rows by dropping their partitions.");
}

QString PurgeCommand::synopsis() const
{
    return QStringLiteral(
        "[--keys] [--outbox] [--inbox] [--relays] [--older-than DURATION] [--partition-age DURATION] [--batch N]");
}

void PurgeCommand::addOptions(ArgumentParser& parser) const
{
    parser.addFlag(QStringLiteral("keys"), QStringLiteral("Delete idempotency keys past their TTL."));
    parser.addFlag(QStringLiteral("outbox"),
        QStringLiteral("Drop the outbox partitions whose rows were all published before --older-than (rows that "
                       "were not stay), after closing the open partition if it is --partition-age old."));
    parser.addFlag(QStringLiteral("inbox"),
        QStringLiteral("Delete consumers' inbox rows (needs --older-than; keep them longer than a message can be "
                       "redelivered)."));
    parser.addFlag(QStringLiteral("relays"),
        QStringLiteral("Delete the registry rows of stopped and stale relays (needs --older-than; live ones are "
                       "never deleted)."));
    parser.addValue(QStringLiteral("older-than"), QStringLiteral("DURATION"),
        QStringLiteral("With --outbox: rows published at least this long ago; with --inbox: rows received at least "
                       "this long ago; with --relays: relays last seen at least this long ago, e.g. 7d."));
    parser.addValue(QStringLiteral("partition-age"), QStringLiteral("DURATION"),
        QStringLiteral("With --outbox: close the open partition (new rows go to a new one) once it was opened this "
                       "long ago; its rows can go only once it is closed. 0s closes it whenever it has rows."),
        QStringLiteral("1d"));
    parser.addValue(QStringLiteral("batch"), QStringLiteral("N"),
        QStringLiteral("Rows deleted per transaction (1 to 100000); for --outbox, the attempts of dropped rows."),
        QString::number(RetentionPurger::DefaultBatchSize));
}

int PurgeCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const bool keys = parser.isSet(QStringLiteral("keys"));
    const bool outbox = parser.isSet(QStringLiteral("outbox"));
    const bool inbox = parser.isSet(QStringLiteral("inbox"));
    const bool relays = parser.isSet(QStringLiteral("relays"));
    if (!keys && !outbox && !inbox && !relays)
        throw parser.usageError(QStringLiteral("say what to purge: --keys, --outbox, --inbox, --relays or several"));
    const bool aged = outbox || inbox || relays;
    if (aged != parser.isSet(QStringLiteral("older-than")))
        throw parser.usageError(
            QStringLiteral("--outbox, --inbox and --relays need --older-than, and only they take it"));
    const qint64 olderThanMs = aged ? parser.durationMs(QStringLiteral("older-than")) : 0;
    const int batchSize = int(parser.integer(QStringLiteral("batch"), 1, 100'000));
    if (!outbox && parser.isSet(QStringLiteral("partition-age")))
        throw parser.usageError(QStringLiteral("--partition-age goes with --outbox only"));
    const qint64 partitionAgeMs = parser.durationMs(QStringLiteral("partition-age"));

    const auto session = connect(settings);
    RetentionPurger purger(*session, batchSize);
    if (keys)
        Console::line(QStringLiteral("purged %1 expired keys").arg(purger.purgeExpiredKeys()));
    if (outbox)
        Console::line(QStringLiteral("purged %1 published outbox rows")
                          .arg(purger.purgePublishedOutbox(olderThanMs, partitionAgeMs)));
    if (inbox)
        Console::line(QStringLiteral("purged %1 inbox rows").arg(purger.purgeInbox(olderThanMs)));
    if (relays)
        Console::line(QStringLiteral("purged %1 gone relays").arg(purger.purgeGoneRelays(olderThanMs)));
    return ExitCode::Success;
}
