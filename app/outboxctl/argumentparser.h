// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/outboxerror.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QStringList>
#include <QTimeZone>

// One subcommand's command line: QCommandLineParser plus the checks every subcommand needs. Malformed
// input becomes OutboxError(InvalidInput), which leaves outboxctl with exit code 2 and one clear line.
class ArgumentParser final {
public:
    // `synopsis` follows "outboxctl COMMAND" in the usage line, e.g. "outbox|keys [options]".
    ArgumentParser(const QString& command, const QString& synopsis, const QString& description);

    void addFlag(const QString& name, const QString& description);
    void addValue(
        const QString& name, const QString& valueName, const QString& description, const QString& defaultValue = {});
    void addPositional(const QString& name, const QString& description, const QString& syntax);

    struct Positional {
        QString name;
        QString description;
        QString syntax;
    };
    // What the subcommand takes, in the order added, for the manual page.
    const QString& command() const { return m_command; }
    const QString& synopsis() const { return m_synopsis; }
    QString description() const { return m_parser.applicationDescription(); }
    const QList<QCommandLineOption>& options() const { return m_options; }
    const QList<Positional>& positionals() const { return m_positionals; }

    // `arguments` starts with the program name. Returns false when --help was asked for (and printed).
    bool parse(const QStringList& arguments);

    bool isSet(const QString& name) const { return m_parser.isSet(name); }
    QString value(const QString& name) const { return m_parser.value(name); }
    QStringList values(const QString& name) const { return m_parser.values(name); }
    QStringList positionalArguments() const { return m_parser.positionalArguments(); }

    // The option's value (or default) as an integer from `min` to `max`.
    qint64 integer(const QString& name, qint64 min, qint64 max) const;
    qint64 durationMs(const QString& name) const { return toDurationMs(name, value(name)); }
    // `text`, given with option `name`, as milliseconds.
    qint64 toDurationMs(const QString& name, const QString& text) const;
    // The option's value as an instant: ISO-8601 (without an offset it is read in `zone`), now, now-DURATION or
    // now+DURATION.
    QDateTime instant(const QString& name, const QDateTime& now, const QTimeZone& zone) const;
    // Every value of the option as positive ids, distinct and ascending; a value may list several, separated by commas.
    QList<qint64> ids(const QString& name) const;
    // The option's value (or default), which must be one of `allowed`.
    QString choice(const QString& name, const QStringList& allowed) const;
    // The option's value, which must not be blank.
    QString requiredText(const QString& name) const;

    // An InvalidInput error that points at this subcommand's --help.
    OutboxError usageError(const QString& problem) const { return usageError(m_command, problem); }
    // The same for `command`; an empty one points at the top-level --help.
    static OutboxError usageError(const QString& command, const QString& problem);
    // What QCommandLineParser::parse() complained about, ready to go into a usage error.
    static QString parseProblem(const QCommandLineParser& parser);

private:
    void add(const QCommandLineOption& option);

    QString m_command;
    QString m_synopsis;
    QCommandLineParser m_parser;
    QList<QCommandLineOption> m_options;
    QList<Positional> m_positionals;
};
