// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineOption>
#include <QStringList>
#include <memory>
#include <vector>

class Command;

// The top level of outboxctl: global options, dispatch to a subcommand, and the one place where every
// failure becomes a diagnostic line and a documented exit code.
class Cli final {
public:
    Cli();
    ~Cli();

    // `arguments` as CommandLineText::arguments() decodes them. Never throws.
    int run(const QStringList& arguments);

private:
    int dispatch(const QStringList& arguments);
    Command* find(const QString& name) const;
    QString helpText() const;
    QString manPage() const;
    // The options before COMMAND, as --help and the manual page list them.
    static QList<QCommandLineOption> globalOptions();

    std::vector<std::unique_ptr<Command>> m_commands;
};
