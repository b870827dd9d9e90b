// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

// A manual page in man(7) roff, written from the same QCommandLineOption tables a program parses its command line
// with, so that `man PROGRAM` cannot drift from `PROGRAM --help`. The build runs each program with --man-page and
// installs what it prints.
class ManPage final {
public:
    // Section 1 (user commands); `summary` is the NAME line after the dash.
    ManPage(const QString& program, const QString& summary);

    void section(const QString& heading); // .SH
    void subsection(const QString& heading); // .SS
    void paragraph(const QString& text);
    // The program's usage line, with the program's name in bold.
    void synopsis(const QString& arguments);
    // One indented entry per option: its names in bold, its value name in italics, then its description.
    void options(const QList<QCommandLineOption>& options);
    // An indented entry for anything else with a name: an exit code, an environment variable, a positional.
    void entry(const QString& term, const QString& text);

    // The EXIT STATUS section: the meanings of `codes` (ExitCode), or of every code when none are given.
    void exitStatus(const QList<int>& codes = {});
    // The ENVIRONMENT section of a program that connects as libpq does without --dsn.
    void libpqEnvironment();

    QString text() const { return m_text; }

    // `text` made safe for roff: backslashes, dashes, and a leading dot or quote that would start a request.
    static QString escaped(const QString& text);

private:
    QString m_program;
    QString m_text;
};
