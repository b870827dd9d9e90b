// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// How a program's diagnostics look on stderr (outboxctl, orders-service): text lines for a terminal, or one JSON
// object per line ({"time", "level", "program", "message"}) for a log collector. Each call is one write, so lines
// from different threads never interleave.
namespace DiagnosticLog {

enum class Format { Text, Json };
void setFormat(Format format);

// Sets `format` from its name, "text" or "json"; false (and `format` unchanged) for any other name.
bool parseFormat(const QString& name, Format& format);

// One diagnostic: `textLine` is what a terminal gets, `message` what the JSON object carries.
void write(QtMsgType level, const QString& message, const QString& textLine);

// A line of a long-running process: "<UTC time> <level> <message>" as text.
void event(QtMsgType level, const QString& message);

} // namespace DiagnosticLog
