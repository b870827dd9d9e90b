// SPDX-License-Identifier: GPL-3.0-or-later
#include "argumentparser.h"

#include "common/commandlinetext.h"
#include "common/duration.h"
#include "console.h"

#include <QSet>
#include <algorithm>

ArgumentParser::ArgumentParser(const QString& command, const QString& synopsis, const QString& description)
    : m_command(command)
    , m_synopsis(synopsis)
{
    m_parser.setApplicationDescription(description);
    // Not addHelpOption(): its --help-all advertises Qt's own options, which a subcommand does not take.
    add(QCommandLineOption({ QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help.")));
}

void ArgumentParser::add(const QCommandLineOption& option)
{
    m_parser.addOption(option);
    m_options.append(option);
}

void ArgumentParser::addFlag(const QString& name, const QString& description)
{
    add(QCommandLineOption(name, description));
}

void ArgumentParser::addValue(
    const QString& name, const QString& valueName, const QString& description, const QString& defaultValue)
{
    if (defaultValue.isEmpty()) {
        add(QCommandLineOption(name, description, valueName));
        return;
    }
    QCommandLineOption option(name, QStringLiteral("%1 Default: %2.").arg(description, defaultValue), valueName);
    option.setDefaultValue(defaultValue);
    add(option);
}

void ArgumentParser::addPositional(const QString& name, const QString& description, const QString& syntax)
{
    m_parser.addPositionalArgument(name, description, syntax);
    m_positionals.append({ name, description, syntax });
}

bool ArgumentParser::parse(const QStringList& arguments)
{
    if (!m_parser.parse(arguments))
        throw usageError(parseProblem(m_parser));
    QStringList positionalNames;
    for (const Positional& positional : std::as_const(m_positionals))
        positionalNames.append(positional.name);
    std::optional<QString> notText = CommandLineText::optionNotUtf8(m_parser, m_options);
    if (!notText)
        notText = CommandLineText::positionalNotUtf8(m_parser, positionalNames);
    if (notText)
        throw usageError(*notText);
    if (!m_parser.isSet(QStringLiteral("help")))
        return true;
    // QCommandLineParser's usage line knows nothing of subcommands; replace it with one that does.
    QString help = m_parser.helpText();
    help = QStringLiteral("Usage: outboxctl %1 %2\n").arg(m_command, m_synopsis)
        + help.mid(help.indexOf(QLatin1Char('\n')));
    Console::write(help.toUtf8());
    return false;
}

qint64 ArgumentParser::integer(const QString& name, qint64 min, qint64 max) const
{
    const QString text = value(name);
    bool ok = false;
    const qint64 number = text.trimmed().toLongLong(&ok);
    if (!ok || number < min || number > max) {
        throw usageError(QStringLiteral("--%1: invalid value '%2': expected an integer from %3 to %4")
                             .arg(name, text)
                             .arg(min)
                             .arg(max));
    }
    return number;
}

qint64 ArgumentParser::toDurationMs(const QString& name, const QString& text) const
{
    const std::optional<qint64> ms = Duration::parseMs(text);
    if (!ms)
        throw usageError(QStringLiteral("--%1: invalid duration '%2': expected e.g. 30s, 5m, 2h, 7d").arg(name, text));
    return *ms;
}

QDateTime ArgumentParser::instant(const QString& name, const QDateTime& now, const QTimeZone& zone) const
{
    const QString text = requiredText(name).trimmed();
    if (text == QLatin1String("now"))
        return now;
    if (text.startsWith(QLatin1String("now-")))
        return now.addMSecs(-toDurationMs(name, text.mid(4)));
    if (text.startsWith(QLatin1String("now+")))
        return now.addMSecs(toDurationMs(name, text.mid(4)));
    QDateTime instant = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!instant.isValid()) {
        throw usageError(QStringLiteral("--%1: invalid time '%2': expected ISO-8601 such as "
                                        "2026-11-30T06:00:00Z, now, now-DURATION or now+DURATION")
                             .arg(name, text));
    }
    // Qt reads a time without an offset as local time; it means a time in the chosen zone.
    if (instant.timeSpec() == Qt::LocalTime)
        instant = QDateTime(instant.date(), instant.time(), zone);
    return instant;
}

QList<qint64> ArgumentParser::ids(const QString& name) const
{
    QSet<qint64> ids;
    for (const QString& value : values(name)) {
        for (const QString& part : value.split(QLatin1Char(','))) {
            bool ok = false;
            const qint64 id = part.trimmed().toLongLong(&ok);
            if (!ok || id < 1)
                throw usageError(QStringLiteral("--%1: invalid id '%2': expected a positive integer").arg(name, part));
            ids.insert(id);
        }
    }
    QList<qint64> sorted(ids.cbegin(), ids.cend());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

QString ArgumentParser::choice(const QString& name, const QStringList& allowed) const
{
    QString text = value(name);
    if (!allowed.contains(text)) {
        throw usageError(QStringLiteral("--%1: invalid value '%2': expected one of %3")
                             .arg(name, text, allowed.join(QStringLiteral(", "))));
    }
    return text;
}

QString ArgumentParser::requiredText(const QString& name) const
{
    QString text = value(name);
    if (text.trimmed().isEmpty())
        throw usageError(QStringLiteral("--%1 is required and must not be blank").arg(name));
    return text;
}

OutboxError ArgumentParser::usageError(const QString& command, const QString& problem)
{
    const QString message = command.isEmpty()
        ? QStringLiteral("%1 (see 'outboxctl --help')").arg(problem)
        : QStringLiteral("%1: %2 (see 'outboxctl %1 --help')").arg(command, problem);
    return OutboxError(OutboxError::Kind::InvalidInput, message);
}

QString ArgumentParser::parseProblem(const QCommandLineParser& parser)
{
    QString problem = parser.errorText();
    if (problem.endsWith(QLatin1Char('.')))
        problem.chop(1);
    return problem;
}
