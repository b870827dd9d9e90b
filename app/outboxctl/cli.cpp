// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "common/programversion.h"

#include "argumentparser.h"
#include "auditcommand.h"
#include "common/commandlinetext.h"
#include "common/exitcode.h"
#include "common/manpage.h"
#include "console.h"
#include "consumecommand.h"
#include "createordercommand.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "discardcommand.h"
#include "editcommand.h"
#include "eventtypescommand.h"
#include "failurescommand.h"
#include "forgetrelayscommand.h"
#include "listcommand.h"
#include "loadgencommand.h"
#include "metricscommand.h"
#include "migratecommand.h"
#include "pausecommand.h"
#include "pausescommand.h"
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
    m_commands.push_back(std::make_unique<ForgetRelaysCommand>());
    m_commands.push_back(std::make_unique<PauseCommand>(PauseCommand::Direction::Pause));
    m_commands.push_back(std::make_unique<PauseCommand>(PauseCommand::Direction::Resume));
    m_commands.push_back(std::make_unique<PausesCommand>());
    m_commands.push_back(std::make_unique<ListCommand>());
    m_commands.push_back(std::make_unique<FailuresCommand>());
    m_commands.push_back(std::make_unique<EventTypesCommand>());
    m_commands.push_back(std::make_unique<RequeueCommand>());
    m_commands.push_back(std::make_unique<DiscardCommand>());
    m_commands.push_back(std::make_unique<EditCommand>());
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

namespace {

const QString DsnOption = QStringLiteral("dsn");
const QString HelpOption = QStringLiteral("help");
const QString VersionOption = QStringLiteral("version");
const QString ManPageOption = QStringLiteral("man-page");

const QString Summary = QStringLiteral("idempotency keys and a transactional outbox on PostgreSQL");

} // namespace

QList<QCommandLineOption> Cli::globalOptions()
{
    return {
        QCommandLineOption(DsnOption,
            QStringLiteral("PostgreSQL URI or key=value connection string. Without it the libpq environment applies: "
                           "PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGSERVICE, ~/.pgpass."),
            QStringLiteral("DSN")),
        QCommandLineOption({ QStringLiteral("h"), HelpOption },
            QStringLiteral("This help; 'outboxctl COMMAND --help' shows the options of COMMAND.")),
        QCommandLineOption(
            VersionOption, QStringLiteral("The version of outboxctl and the schema version it expects.")),
        QCommandLineOption(ManPageOption, QStringLiteral("Print the manual page (roff), which the package installs.")),
    };
}

int Cli::dispatch(const QStringList& arguments)
{
    // Only the options before the subcommand's name are ours; the rest belongs to the subcommand.
    QCommandLineParser parser;
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    parser.addOptions(globalOptions());
    if (!parser.parse(arguments))
        throw ArgumentParser::usageError({}, ArgumentParser::parseProblem(parser));
    // The command's own arguments are checked by its parser.
    if (const std::optional<QString> notText = CommandLineText::optionNotUtf8(parser, globalOptions()))
        throw ArgumentParser::usageError({}, *notText);
    if (parser.isSet(HelpOption)) {
        Console::write(helpText().toUtf8());
        return ExitCode::Success;
    }
    if (parser.isSet(VersionOption)) {
        Console::line(ProgramVersion::line(QStringLiteral("outboxctl")));
        return ExitCode::Success;
    }
    if (parser.isSet(ManPageOption)) {
        Console::write(manPage().toUtf8());
        return ExitCode::Success;
    }
    const QStringList rest = parser.positionalArguments();
    if (rest.isEmpty())
        throw ArgumentParser::usageError({}, QStringLiteral("no command given"));
    Command* command = find(rest.first());
    if (!command)
        throw ArgumentParser::usageError({}, QStringLiteral("unknown command '%1'").arg(rest.first()));
    const QString globalDsn = parser.isSet(DsnOption) ? parser.value(DsnOption) : QString();
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
    // QCommandLineParser lays the options out as every subcommand's --help does.
    QCommandLineParser global;
    global.addOptions(globalOptions());
    const QString options = global.helpText();
    text += QStringLiteral("\nGlobal options (before or after COMMAND):\n")
        + options.mid(options.indexOf(QLatin1Char('\n'), options.indexOf(QStringLiteral("Options:"))) + 1);
    text += QStringLiteral("\nExit codes:\n");
    for (const ExitCode::Meaning& meaning : ExitCode::Meanings)
        text += QStringLiteral("  %1  %2\n").arg(meaning.code, -2).arg(QLatin1String(meaning.text));
    return text;
}

QString Cli::manPage() const
{
    ManPage page(QStringLiteral("outboxctl"), Summary);
    page.section(QStringLiteral("Synopsis"));
    page.synopsis(QStringLiteral("[--dsn DSN] COMMAND [options]"));
    page.section(QStringLiteral("Description"));
    page.paragraph(QStringLiteral("outboxctl runs the outbox relay and a consumer, applies the schema, and finds, "
                                  "explains and requeues outbox rows and idempotency keys from the command line. "
                                  "Its messages are English and one line each, for scripts and log collectors."));
    page.section(QStringLiteral("Global options"));
    page.options(globalOptions());
    page.section(QStringLiteral("Commands"));
    for (const auto& command : m_commands) {
        const std::unique_ptr<ArgumentParser> commandLine = command->commandLine();
        page.subsection(command->name());
        page.synopsis(QStringLiteral("%1 %2").arg(command->name(), commandLine->synopsis()));
        page.paragraph(commandLine->description());
        for (const ArgumentParser::Positional& positional : commandLine->positionals())
            page.entry(positional.syntax, positional.description);
        page.options(commandLine->options());
    }
    page.exitStatus();
    page.libpqEnvironment();
    page.section(QStringLiteral("See also"));
    page.paragraph(QStringLiteral("orders-service(1), systemctl(1) for the outbox-relay@.service unit, psql(1)"));
    return page.text();
}
