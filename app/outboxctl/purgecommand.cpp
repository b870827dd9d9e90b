#include "purgecommand.h"

#include "argumentparser.h"
#include "console.h"
#include "dbsession.h"
#include "exitcode.h"
#include "retentionpurger.h"

QString PurgeCommand::summary() const
{
    return QStringLiteral("Delete expired idempotency keys and/or old published outbox rows, in small batches.");
}

QString PurgeCommand::synopsis() const
{
    return QStringLiteral("[--keys] [--outbox --older-than DURATION] [--batch N]");
}

void PurgeCommand::addOptions(ArgumentParser& parser) const
{
    parser.addFlag(QStringLiteral("keys"), QStringLiteral("Delete idempotency keys past their TTL."));
    parser.addFlag(QStringLiteral("outbox"), QStringLiteral("Delete published outbox rows (needs --older-than)."));
    parser.addValue(QStringLiteral("older-than"), QStringLiteral("DURATION"),
        QStringLiteral("With --outbox: rows published at least this long ago, e.g. 7d."));
    parser.addValue(QStringLiteral("batch"), QStringLiteral("N"),
        QStringLiteral("Rows deleted per transaction (1 to 100000)."),
        QString::number(RetentionPurger::DefaultBatchSize));
}

int PurgeCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const bool keys = parser.isSet(QStringLiteral("keys"));
    const bool outbox = parser.isSet(QStringLiteral("outbox"));
    if (!keys && !outbox)
        throw parser.usageError(QStringLiteral("say what to purge: --keys, --outbox or both"));
    if (outbox != parser.isSet(QStringLiteral("older-than")))
        throw parser.usageError(QStringLiteral("--outbox and --older-than go together"));
    const qint64 olderThanMs = outbox ? parser.durationMs(QStringLiteral("older-than")) : 0;
    const int batchSize = int(parser.integer(QStringLiteral("batch"), 1, 100'000));

    const auto session = connect(settings);
    RetentionPurger purger(*session, batchSize);
    if (keys)
        Console::line(QStringLiteral("purged %1 expired keys").arg(purger.purgeExpiredKeys()));
    if (outbox)
        Console::line(QStringLiteral("purged %1 published outbox rows").arg(purger.purgePublishedOutbox(olderThanMs)));
    return ExitCode::Success;
}
