// SPDX-License-Identifier: GPL-3.0-or-later
#include "consolecommandline.h"

#include "common/commandlinetext.h"
#include "common/exitcode.h"
#include "common/programversion.h"
#include "db/schemamigrator.h"

#include <QTextStream>

ConsoleCommandLine::ConsoleCommandLine()
    : m_dsn(QStringLiteral("dsn"),
        tr("PostgreSQL URI or key=value connection string; without it a connection dialog opens."), tr("DSN"))
    , m_demo(QStringLiteral("demo"),
          tr("Start a private PostgreSQL and RabbitMQ, the orders service, a relay, a consumer and duplicate-heavy "
             "traffic, and open the console on them. Quitting removes it all."))
    , m_demoKeep(QStringLiteral("demo-keep"),
          tr("Like --demo, but keep the demo database in DIR (and reuse it next time)."), tr("DIR"))
{
    m_parser.setApplicationDescription(
        tr("Inspect and repair idempotency keys and the transactional outbox.\n\nExit codes: 0 success, 1 the console "
           "could not start (no display, the demo failed), 2 bad usage."));
    m_parser.addHelpOption();
    m_parser.addVersionOption();
    m_parser.addOptions({ m_dsn, m_demo, m_demoKeep });
}

QString ConsoleCommandLine::versionText()
{
    return tr("%1 (schema version %2)").arg(ProgramVersion::number()).arg(SchemaMigrator::latestVersion());
}

std::optional<int> ConsoleCommandLine::read(const QStringList& arguments)
{
    const auto mistake = [](const QString& what) {
        QTextStream(stderr) << tr("outbox-console: %1 (see 'outbox-console --help')").arg(what) << Qt::endl;
        return ExitCode::Usage;
    };
    if (!m_parser.parse(arguments))
        return mistake(m_parser.errorText());
    // Not the values Qt would have decoded with U+FFFD: a DSN or a directory would be another one than asked for.
    if (const std::optional<QString> notText = CommandLineText::optionNotUtf8(m_parser, { m_dsn, m_demoKeep }))
        return mistake(*notText);
    if (!m_parser.positionalArguments().isEmpty())
        return mistake(tr("unexpected argument '%1'").arg(m_parser.positionalArguments().constFirst()));
    if (m_parser.isSet(QStringLiteral("help")) || m_parser.isSet(QStringLiteral("help-all"))) {
        QTextStream(stdout) << m_parser.helpText();
        return ExitCode::Success;
    }
    return std::nullopt;
}

bool ConsoleCommandLine::demo() const
{
    return m_parser.isSet(m_demo) || m_parser.isSet(m_demoKeep);
}

QString ConsoleCommandLine::demoKeepDirectory() const
{
    return m_parser.value(m_demoKeep);
}

std::optional<QString> ConsoleCommandLine::dsn() const
{
    return m_parser.isSet(m_dsn) ? std::optional(m_parser.value(m_dsn)) : std::nullopt;
}
