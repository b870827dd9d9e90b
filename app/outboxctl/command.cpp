// SPDX-License-Identifier: GPL-3.0-or-later
#include "command.h"

#include "argumentparser.h"
#include "common/diagnosticlog.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/connectionsettings.h"
#include "db/dbsession.h"
#include "db/schemamigrator.h"

std::unique_ptr<ArgumentParser> Command::commandLine() const
{
    auto parser = std::make_unique<ArgumentParser>(name(), synopsis(), summary());
    parser->addValue(QStringLiteral("dsn"), QStringLiteral("DSN"),
        QStringLiteral("PostgreSQL URI or key=value connection string (default: the libpq environment)."));
    parser->addValue(QStringLiteral("log-format"), QStringLiteral("FORMAT"),
        QStringLiteral("Diagnostics on stderr as 'text' or as 'json' lines (time, level, program, message) for log "
                       "collectors."),
        QStringLiteral("text"));
    addOptions(*parser);
    return parser;
}

int Command::run(const QStringList& arguments, const QString& globalDsn)
{
    const std::unique_ptr<ArgumentParser> commandLine = this->commandLine();
    ArgumentParser& parser = *commandLine;
    if (!parser.parse(arguments))
        return ExitCode::Success;
    DiagnosticLog::Format format = DiagnosticLog::Format::Text;
    DiagnosticLog::parseFormat(
        parser.choice(QStringLiteral("log-format"), { QStringLiteral("text"), QStringLiteral("json") }), format);
    DiagnosticLog::setFormat(format);
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
