// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

// Everything outboxctl prints goes through here: results to stdout, diagnostics to stderr (as text or JSON lines,
// see DiagnosticLog), each call one write so lines from relay worker threads never interleave.
namespace Console {

void write(const QByteArray& bytes);
// Ids as the command line takes them: "4,7,9".
QString idList(const QList<qint64>& ids);
void line(const QString& text);

// One diagnostic line, "outboxctl: <text>"; line breaks in `text` are folded so it stays one line.
void error(const QString& text);
void warning(const QString& text);

// A line on stderr for the human at the terminal that is neither result nor error, e.g. where the next page starts.
void hint(const QString& text);

// A progress line of a long-running command on stderr, stamped with the UTC time and its level
// (QtInfoMsg: info, QtWarningMsg: warning, QtCriticalMsg: error).
void log(const QString& text, QtMsgType level = QtInfoMsg);

} // namespace Console
