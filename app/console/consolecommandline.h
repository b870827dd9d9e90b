// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <optional>

// outbox-console's command line, answered before any window: --help prints the options, a mistake (an unknown
// option, a value missing, bytes that are not UTF-8, an argument) is one line on stderr, and either ends the
// program, with or without a display. Unlike the other programs' (scripts read those), the help speaks the console's
// language: it is for the person about to open the window. Construct it once that language is applied.
class ConsoleCommandLine final {
    Q_DECLARE_TR_FUNCTIONS(ConsoleCommandLine)
public:
    ConsoleCommandLine();

    // "0.1.0 (schema version 19)" in the console's language, for the About box; --version stays English.
    static QString versionText();
    // Whether `argv` asks for the manual page; main() answers it before the language is applied, so the page the
    // package installs is English whatever the build host's locale.
    static bool wantsManPage(int argc, char* argv[]);
    // Whether `argv` asks for the help (-h, --help, --help-all); main() answers it without a display.
    static bool wantsHelp(int argc, char* argv[]);
    // The manual page (roff) from the same options as --help.
    QString manPage() const;

    // Reads `arguments` (CommandLineText::arguments: what QApplication, if any, left of argv). Returns the exit
    // code to end with once help or a mistake was printed (ExitCode::Success, ExitCode::Usage), nothing to go on.
    // Needs a QCoreApplication (the help names the program from its arguments).
    std::optional<int> read(const QStringList& arguments);

    bool demo() const;
    // Where --demo-keep keeps the demo database; empty for --demo.
    QString demoKeepDirectory() const;
    // The --dsn given, if any.
    std::optional<QString> dsn() const;

private:
    QCommandLineParser m_parser;
    QCommandLineOption m_dsn;
    QCommandLineOption m_demo;
    QCommandLineOption m_demoKeep;
    QCommandLineOption m_manPage;
};
