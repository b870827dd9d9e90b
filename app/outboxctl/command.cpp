// SPDX-License-Identifier: GPL-3.0-or-later
#include "command.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/connectionsettings.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"

int Command::run(const QStringList& arguments, const QString& globalDsn)
{
    ArgumentParser parser(name(), synopsis(), summary());
    parser.addValue(QStringLiteral("dsn"), QStringLiteral("DSN"),
        QStringLiteral("PostgreSQL URI or key=value connection string (default: the libpq environment)."));
    addOptions(parser);
    if (!parser.parse(arguments))
        return ExitCode::Success;
    const QString dsn = parser.isSet(QStringLiteral("dsn")) ? parser.value(QStringLiteral("dsn")) : globalDsn;
    ConnectionSettings settings = dsn.isNull() ? ConnectionSettings() : ConnectionSettings::fromDsn(dsn);
    settings.setDefaultApplicationName(QStringLiteral("outboxctl"));
    return execute(parser, settings);
}

std::unique_ptr<DbSession> Command::connect(const ConnectionSettings& settings, SchemaCheck check)
{
    auto session = std::make_unique<DbSession>(settings, QStringLiteral("outboxctl"));
    if (check == SchemaCheck::RequireCurrent)
        SchemaMigrator(*session).requireCurrent();
    return session;
}
