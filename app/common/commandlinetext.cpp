// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/commandlinetext.h"

namespace {

constexpr char16_t EscapeBase = 0xDC00;

// The length of the valid UTF-8 sequence at `s` (of `n` bytes), or 0: overlong forms, surrogates and code
// points beyond U+10FFFF are invalid too.
qsizetype sequenceLength(const unsigned char* s, qsizetype n)
{
    const unsigned char lead = s[0];
    if (lead < 0x80)
        return 1;
    qsizetype length = 0;
    char32_t codePoint = 0;
    if ((lead & 0xE0) == 0xC0) {
        length = 2;
        codePoint = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        codePoint = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        codePoint = lead & 0x07;
    } else {
        return 0;
    }
    if (n < length)
        return 0;
    for (qsizetype i = 1; i < length; ++i) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        codePoint = (codePoint << 6) | (s[i] & 0x3F);
    }
    static constexpr char32_t Smallest[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (codePoint < Smallest[length] || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF))
        return 0;
    return length;
}

QString decode(const char* argument)
{
    const auto* bytes = reinterpret_cast<const unsigned char*>(argument);
    const qsizetype size = qsizetype(qstrlen(argument));
    QString text;
    qsizetype runStart = 0;
    for (qsizetype i = 0; i < size;) {
        const qsizetype length = sequenceLength(bytes + i, size - i);
        if (length > 0) {
            i += length;
            continue;
        }
        text += QString::fromUtf8(argument + runStart, i - runStart);
        text += QChar(char16_t(EscapeBase + bytes[i]));
        runStart = ++i;
    }
    return text + QString::fromUtf8(argument + runStart, size - runStart);
}

// What is wrong with `text`, if it holds an escaped byte: the byte and where it is (counted in characters, as the
// user typed them), so the user can find it.
std::optional<QString> escapedByte(const QString& text)
{
    qsizetype character = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t unit = text.at(i).unicode();
        const bool secondHalf = i > 0 && text.at(i - 1).isHighSurrogate() && text.at(i).isLowSurrogate();
        if (secondHalf)
            continue; // of a character outside the BMP, counted with its first half
        ++character;
        if (unit >= EscapeBase + 0x80 && unit <= EscapeBase + 0xFF) {
            return QStringLiteral("is not valid UTF-8 (byte 0x%1 at character %2); only UTF-8 text is accepted")
                .arg(unit - EscapeBase, 2, 16, QLatin1Char('0'))
                .arg(character);
        }
    }
    return std::nullopt;
}

} // namespace

QStringList CommandLineText::arguments(int argc, const char* const* argv)
{
    QStringList arguments;
    arguments.reserve(argc);
    for (int i = 0; i < argc; ++i)
        arguments.append(decode(argv[i]));
    return arguments;
}

std::optional<QString> CommandLineText::optionNotUtf8(
    const QCommandLineParser& parser, const QList<QCommandLineOption>& options)
{
    for (const QCommandLineOption& option : options) {
        const QString name = option.names().constLast();
        if (!parser.isSet(name))
            continue;
        for (const QString& value : parser.values(name)) {
            if (const std::optional<QString> problem = escapedByte(value))
                return QStringLiteral("--%1: the value %2").arg(name, *problem);
        }
    }
    return std::nullopt;
}

std::optional<QString> CommandLineText::positionalNotUtf8(
    const QCommandLineParser& parser, const QStringList& positionalNames)
{
    const QStringList positional = parser.positionalArguments();
    for (qsizetype i = 0; i < positional.size(); ++i) {
        if (const std::optional<QString> problem = escapedByte(positional.at(i))) {
            const QString argument = i < positionalNames.size()
                ? QStringLiteral("the %1 argument").arg(positionalNames.at(i))
                : QStringLiteral("argument %1").arg(i + 1);
            return QStringLiteral("%1 %2").arg(argument, *problem);
        }
    }
    return std::nullopt;
}
