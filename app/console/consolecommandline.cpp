// SPDX-License-Identifier: GPL-3.0-or-later
#include "consolecommandline.h"

#include "common/commandlinetext.h"
#include "common/exitcode.h"
#include "common/manpage.h"
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
    , m_manPage(QStringLiteral("man-page"), tr("Print the manual page (roff), which the package installs."))
{
    m_parser.setApplicationDescription(
        tr("Inspect and repair idempotency keys and the transactional outbox.\n\nExit codes: 0 success, 1 the console "
           "could not start (no display, the demo failed), 2 bad usage."));
    m_parser.addHelpOption();
    m_parser.addVersionOption();
    m_parser.addOptions({ m_dsn, m_demo, m_demoKeep, m_manPage });
}

bool ConsoleCommandLine::wantsManPage(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--man-page") == 0)
            return true;
    }
    return false;
}

bool ConsoleCommandLine::wantsHelp(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "-h") == 0 || qstrcmp(argv[i], "--help") == 0 || qstrcmp(argv[i], "--help-all") == 0)
            return true;
    }
    return false;
}

QString ConsoleCommandLine::manPage() const
{
    ManPage page(QStringLiteral("outbox-console"), QStringLiteral("the operations console for the outbox library"));
    page.section(QStringLiteral("Synopsis"));
    page.synopsis(QStringLiteral("[--dsn DSN | --demo | --demo-keep DIR]"));
    page.section(QStringLiteral("Description"));
    page.paragraph(QStringLiteral(
        "A desktop console for the operators of services that use idempotency keys and the transactional outbox on "
        "PostgreSQL: it shows the backlog, the outbox lag and the relays, finds stuck and failed rows and says why "
        "they wait, groups failures by cause, and requeues, discards, edits or pauses with an audited reason. It "
        "never waits for the database on its window: every query runs in the background."));
    page.paragraph(QStringLiteral(
        "Without --dsn or --demo a connection dialog opens; a password given there can be kept in the desktop's "
        "keychain (Secret Service), never in the settings file."));
    page.section(QStringLiteral("Options"));
    // Help and version are Qt's own options (addHelpOption, addVersionOption), described here in the page's words.
    page.options({ QCommandLineOption(
                       { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Print the options and exit.")),
        QCommandLineOption(QStringLiteral("help-all"),
            QStringLiteral("Print the options and Qt's own (such as -platform and -style), and exit.")),
        QCommandLineOption({ QStringLiteral("v"), QStringLiteral("version") },
            QStringLiteral("Print the version and the schema version it expects, and exit; needs no display.")),
        m_dsn, m_demo, m_demoKeep, m_manPage });
    page.section(QStringLiteral("Exit status"));
    page.entry(QString::number(ExitCode::Success), QStringLiteral("the window was closed, or help was printed"));
    page.entry(QString::number(ExitCode::Unexpected),
        QStringLiteral("the console could not start (no display, the demo failed)"));
    page.entry(QString::number(ExitCode::Usage), QStringLiteral("bad usage: an unknown option, a value missing"));
    page.section(QStringLiteral("Environment"));
    page.entry(QStringLiteral("DISPLAY, WAYLAND_DISPLAY, QT_QPA_PLATFORM"),
        QStringLiteral("Where the window opens; without any of them (an empty one counts as none) the console says so "
                       "and exits with 1."));
    page.section(QStringLiteral("Files"));
    page.entry(QStringLiteral("~/.config/outbox-console/outbox-console.conf"),
        QStringLiteral("The console's settings: language, time zone, auto-refresh, thresholds, recent connections "
                       "(without passwords), window layout."));
    page.section(QStringLiteral("See also"));
    page.paragraph(QStringLiteral("outboxctl(1), orders-service(1)"));
    return page.text();
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
