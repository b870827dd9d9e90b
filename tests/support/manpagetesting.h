// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRegularExpression>
#include <QStringList>

// Compares a program's --help with its --man-page: both are written from one option table, and these tests check
// that the page leaves nothing out.
namespace ManPageTesting {

// The long option names a QCommandLineParser help text lists, as in "  -h, --help" or "  --dsn <DSN>".
inline QStringList optionsOf(const QString& help)
{
    static const QRegularExpression option(
        QStringLiteral("^  (?:-\\w, )?--([a-z][a-z0-9-]*)"), QRegularExpression::MultilineOption);
    QStringList names;
    for (const QRegularExpressionMatch& match : option.globalMatch(help))
        names.append(match.captured(1));
    return names;
}

// How the manual page writes option `name` in the entry that describes it: in bold, dashes escaped (synopses have
// it in plain text).
inline QString entryOf(const QString& name)
{
    QString escaped = name;
    escaped.replace(QLatin1Char('-'), QLatin1String("\\-"));
    return QStringLiteral("\\fB\\-\\-%1\\fR").arg(escaped);
}

// The part of a manual page from `.SS "heading"` to the next heading.
inline QString subsection(const QString& page, const QString& heading)
{
    QString escaped = heading;
    escaped.replace(QLatin1Char('-'), QLatin1String("\\-"));
    const QString start = QStringLiteral(".SS \"%1\"\n").arg(escaped);
    const qsizetype from = page.indexOf(start);
    if (from < 0)
        return {};
    static const QRegularExpression next(QStringLiteral("^\\.S[SH] "), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch end = next.match(page, from + start.size());
    return page.mid(from, end.hasMatch() ? end.capturedStart() - from : -1);
}

} // namespace ManPageTesting
