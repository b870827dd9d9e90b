// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// The command line as text. Qt decodes argv with U+FFFD in place of every byte that is not UTF-8, so two
// different idempotency keys could become one key. Here each such byte becomes a lone surrogate (U+DC80 to
// U+DCFF), which valid UTF-8 never decodes to, so a parser can refuse the option it came with. The same idea
// as Python's surrogateescape.
namespace CommandLineText {

QStringList arguments(int argc, const char* const* argv);

// "--NAME: the value is not valid UTF-8 ..." for the first option of `options` set in `parser` whose bytes
// were not UTF-8; nothing if all are text.
std::optional<QString> optionNotUtf8(const QCommandLineParser& parser, const QList<QCommandLineOption>& options);
// "the NAME argument is not valid UTF-8 ..." for the first such positional argument, named after
// `positionalNames` in order ("argument N" past their end).
std::optional<QString> positionalNotUtf8(const QCommandLineParser& parser, const QStringList& positionalNames);

} // namespace CommandLineText
