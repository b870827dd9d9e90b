// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "common/programversion.h"

#include "argumentparser.h"
#include "auditcommand.h"
#include "common/exitcode.h"
#include "console.h"
#include "consumecommand.h"
#include "createordercommand.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "failurescommand.h"
#include "listcommand.h"
#include "loadgencommand.h"
#include "metricscommand.h"
#include "migratecommand.h"
#include "purgecommand.h"
#include "relaycommand.h"
#include "relayscommand.h"
#include "requeuecommand.h"

#include <QCommandLineParser>
#include <QCoreApplication>

// Library diagnostics (e.g. server warnings) keep to outboxctl's one-line-per-diagnostic format on stderr.
static void routeQtMessages(QtMsgType type, const QMessageLogContext&, const QString& message)
{
    if (DbSession::echoesALostConnection(message))
        return;
    if (type == QtDebugMsg || type == QtInfoMsg)
        Console::log(message);
    else
        Console::warning(message);
}

Cli::Cli()
{
    qInstallMessageHandler(routeQtMessages);
    m_commands.push_back(std::make_unique<MigrateCommand>());
    m_commands.push_back(std::make_unique<CreateOrderCommand>());
    m_commands.push_back(std::make_unique<RelayCommand>());
    m_commands.push_back(std::make_unique<RelaysCommand>());
    m_commands.push_back(std::make_unique<ListCommand>());
    m_commands.push_back(std::make_unique<FailuresCommand>());
    m_commands.push_back(std::make_unique<RequeueCommand>());
    m_commands.push_back(std::make_unique<AuditCommand>());
    m_commands.push_back(std::make_unique<MetricsCommand>());
    m_commands.push_back(std::make_unique<PurgeCommand>());
    m_commands.push_back(std::make_unique<LoadgenCommand>());
    m_commands.push_back(std::make_unique<ConsumeCommand>());
}

Cli::~Cli() = default;

int Cli::run(const QStringList& arguments)
{
    try {
        return dispatch(arguments);
    } catch (const OutboxError& error) {
        Console::error(error.message());
        return ExitCode::forError(error.kind());
    } catch (const std::exception& error) {
        Console::error(QString::fromLocal8Bit(error.what()));
        return ExitCode::Unexpected;
    }
}

int Cli::dispatch(const QStringList& arguments)
{
    // Only the options before the subcommand's name are ours; the rest belongs to the subcommand.
    QCommandLineParser parser;
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    const QCommandLineOption dsn(QStringLiteral("dsn"), QString(), QStringLiteral("DSN"));
    const QCommandLineOption help({ QStringLiteral("h"), QStringLiteral("help") }, QString());
    const QCommandLineOption version(QStringLiteral("version"), QString());
    parser.addOptions({ dsn, help, version });
    if (!parser.parse(arguments))
        throw ArgumentParser::usageError({}, ArgumentParser::parseProblem(parser));
    if (parser.isSet(help)) {
        Console::write(helpText().toUtf8());
        return ExitCode::Success;
    }
    if (parser.isSet(version)) {
        Console::line(ProgramVersion::line(QStringLiteral("outboxctl")));
        return ExitCode::Success;
    }
    const QStringList rest = parser.positionalArguments();
    if (rest.isEmpty())
        throw ArgumentParser::usageError({}, QStringLiteral("no command given"));
    Command* command = find(rest.first());
    if (!command)
        throw ArgumentParser::usageError({}, QStringLiteral("unknown command '%1'").arg(rest.first()));
    const QString globalDsn = parser.isSet(dsn) ? parser.value(dsn) : QString();
    return command->run(QStringList { arguments.first() } + rest.mid(1), globalDsn);
}

Command* Cli::find(const QString& name) const
{
    for (const auto& command : m_commands) {
        if (command->name() == name)
            return command.get();
    }
    return nullptr;
}

QString Cli::helpText() const
{
    QString text = QStringLiteral("Usage: outboxctl [--dsn DSN] COMMAND [options]\n"
                                  "\n"
                                  "Idempotency keys and a transactional outbox on PostgreSQL.\n"
                                  "\n"
                                  "Commands:\n");
    for (const auto& command : m_commands)
        text += QStringLiteral("  %1%2\n").arg(command->name().leftJustified(14), command->summary());
    text += QStringLiteral("\n"
                           "Global options (before or after COMMAND):\n"
                           "  --dsn DSN     PostgreSQL URI or key=value connection string. Without it the libpq\n"
                           "                environment applies: PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD,\n"
                           "                PGSERVICE, ~/.pgpass.\n"
                           "  -h, --help    This help; 'outboxctl COMMAND --help' shows the options of COMMAND.\n"
                           "  --version     The version of outboxctl and the schema version it expects.\n"
                           "\n"
                           "Exit codes:\n"
                           "  0  success\n"
                           "  1  unexpected error\n"
                           "  2  bad input or usage\n"
                           "  3  create-order: a request with this key is still in progress\n"
                           "  4  create-order: the key was used with a different request\n"
                           "  5  cannot connect (server unreachable, authentication failed, invalid connection)\n"
                           "  6  schema missing, outdated or newer than this binary\n"
                           "  7  permission denied\n"
                           "  8  create-order: rejected by a business rule (or the replay of such a rejection)\n"
                           "  9  create-order: retryable failure, the key was released\n");
    return text;
}
