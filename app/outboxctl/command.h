// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <memory>

class ArgumentParser;
class ConnectionSettings;
class DbSession;

// A subcommand of outboxctl. run() parses its command line; execute() validates the options, does the
// work and returns the exit code. Failures leave as exceptions, which Cli turns into exit codes.
class Command {
public:
    virtual ~Command() = default;

    virtual QString name() const = 0;
    virtual QString summary() const = 0;

    // The subcommand's command line, as --help shows it and the manual page lists it.
    std::unique_ptr<ArgumentParser> commandLine() const;

    // `arguments` starts with the program name, followed by everything after the subcommand's name.
    // `globalDsn` is the --dsn given before the subcommand (null if none); one given after it wins.
    int run(const QStringList& arguments, const QString& globalDsn);

protected:
    // What follows "outboxctl NAME" in the usage line.
    virtual QString synopsis() const = 0;
    virtual void addOptions(ArgumentParser& parser) const = 0;
    virtual int execute(const ArgumentParser& parser, const ConnectionSettings& settings) = 0;

    // Every command but migrate refuses to work on a schema this binary was not built for.
    enum class SchemaCheck { RequireCurrent, Skip };
    static std::unique_ptr<DbSession> connect(
        const ConnectionSettings& settings, SchemaCheck check = SchemaCheck::RequireCurrent);
};
