// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

// Everything outboxctl prints goes through here: results to stdout, diagnostics to stderr, each call one
// write so lines from relay worker threads never interleave.
namespace Console {

void write(const QByteArray& bytes);
void line(const QString& text);

// One diagnostic line, "outboxctl: <text>"; line breaks in `text` are folded so it stays one line.
void error(const QString& text);
void warning(const QString& text);

// A line on stderr for the human at the terminal that is neither result nor error, e.g. where the next page starts.
void hint(const QString& text);

// A relay progress line on stderr, stamped with the UTC time.
void log(const QString& text);

} // namespace Console
