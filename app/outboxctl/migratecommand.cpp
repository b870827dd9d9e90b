// SPDX-License-Identifier: GPL-3.0-or-later
#include "migratecommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "outbox/signaturebackfill.h"

QString MigrateCommand::summary() const
{
    return QStringLiteral("Apply the schema migrations and print the schema version.");
}

void MigrateCommand::addOptions(ArgumentParser& parser) const
{
    parser.addFlag(QStringLiteral("grant-roles"),
        QStringLiteral("Also create the optional outbox_viewer and outbox_operator roles and their grants."));
}

int MigrateCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const bool grantRoles = parser.isSet(QStringLiteral("grant-roles"));
    const auto session = connect(settings, SchemaCheck::Skip);
    SchemaMigrator migrator(*session);
    const int before = migrator.currentVersion();
    const int version = migrator.migrate();
    // Failures recorded before signatures existed are signed once, in short batches (safe while relays run).
    if (before > 0 && before < SignatureBackfill::IntroducedBySchemaVersion) {
        const SignatureBackfill::Result backfilled = SignatureBackfill(*session).run();
        Console::line(QStringLiteral("error signatures backfilled: %1 outbox rows, %2 attempts")
                          .arg(backfilled.outboxRows)
                          .arg(backfilled.attemptRows));
    }
    if (grantRoles)
        migrator.grantRoles();
    Console::line(QStringLiteral("schema version %1").arg(version));
    if (grantRoles)
        Console::line(QStringLiteral("roles outbox_viewer and outbox_operator granted"));
    return ExitCode::Success;
}
