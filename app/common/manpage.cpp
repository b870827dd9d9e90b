// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/manpage.h"

#include "common/exitcode.h"
#include "common/programversion.h"

#include <QStringList>

ManPage::ManPage(const QString& program, const QString& summary)
    : m_program(program)
{
    // No date: the page is built from the sources, and the same sources should give the same page. Left-aligned,
    // because synopses of many options and URIs spread badly when justified.
    m_text = QStringLiteral(".TH \"%1\" \"1\" \"\" \"%2\" \"User Commands\"\n.ad l\n")
                 .arg(program.toUpper(), escaped(ProgramVersion::line(program)));
    section(QStringLiteral("NAME"));
    m_text += QStringLiteral("%1 \\- %2\n").arg(escaped(program), escaped(summary));
}

// What must stay on one line (a request's argument, a .TP tag): a line break there would end it early and start the
// next line with the rest.
static QString oneLine(const QString& text)
{
    return ManPage::escaped(QString(text).replace(QLatin1Char('\n'), QLatin1Char(' ')));
}

// A request's argument in double quotes; a quote inside would close it, so it is roff's \(dq instead.
static QString quotedArgument(const QString& text)
{
    return QLatin1Char('"') + oneLine(text).replace(QLatin1Char('"'), QLatin1String("\\(dq")) + QLatin1Char('"');
}

void ManPage::section(const QString& heading)
{
    m_text += QStringLiteral(".SH %1\n").arg(quotedArgument(heading.toUpper()));
}

void ManPage::subsection(const QString& heading)
{
    m_text += QStringLiteral(".SS %1\n").arg(quotedArgument(heading));
}

void ManPage::paragraph(const QString& text)
{
    m_text += QStringLiteral(".PP\n%1\n").arg(escaped(text));
}

void ManPage::synopsis(const QString& arguments)
{
    m_text += QStringLiteral(".PP\n\\fB%1\\fR %2\n").arg(escaped(m_program), escaped(arguments));
}

void ManPage::options(const QList<QCommandLineOption>& options)
{
    for (const QCommandLineOption& option : options) {
        QStringList names;
        for (const QString& name : option.names())
            names.append(QStringLiteral("\\fB%1%2\\fR").arg(name.size() == 1 ? "\\-" : "\\-\\-", oneLine(name)));
        QString term = names.join(QStringLiteral(", "));
        if (!option.valueName().isEmpty())
            term += QStringLiteral(" \\fI%1\\fR").arg(oneLine(option.valueName()));
        m_text += QStringLiteral(".TP\n%1\n%2\n").arg(term, escaped(option.description()));
    }
}

void ManPage::entry(const QString& term, const QString& text)
{
    m_text += QStringLiteral(".TP\n\\fB%1\\fR\n%2\n").arg(oneLine(term), escaped(text));
}

void ManPage::exitStatus(const QList<int>& codes)
{
    section(QStringLiteral("Exit status"));
    for (const ExitCode::Meaning& meaning : ExitCode::Meanings) {
        if (codes.isEmpty() || codes.contains(meaning.code))
            entry(QString::number(meaning.code), QLatin1String(meaning.text));
    }
}

void ManPage::libpqEnvironment()
{
    section(QStringLiteral("Environment"));
    paragraph(QStringLiteral("Without --dsn, libpq's variables say where to connect: PGHOST, PGPORT, PGUSER, "
                             "PGDATABASE, PGPASSWORD, PGSERVICE, PGSSLMODE, and the password file ~/.pgpass."));
}

QString ManPage::escaped(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c == QLatin1Char('\\'))
            out += QStringLiteral("\\e");
        else if (c == QLatin1Char('-'))
            out += QStringLiteral("\\-");
        else
            out += c;
    }
    // A line that starts with a dot or an apostrophe is a roff request; \& in front makes it text.
    QStringList lines = out.split(QLatin1Char('\n'));
    for (QString& line : lines) {
        if (line.startsWith(QLatin1Char('.')) || line.startsWith(QLatin1Char('\'')))
            line.prepend(QStringLiteral("\\&"));
    }
    return lines.join(QLatin1Char('\n'));
}
