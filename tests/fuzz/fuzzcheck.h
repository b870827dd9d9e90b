// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <cstdio>
#include <cstdlib>
#include <fuzzer/FuzzedDataProvider.h>

// A property that does not hold is a finding like a crash: say which, with the values involved, and abort so that
// libFuzzer saves the input.
[[noreturn]] inline void propertyViolated(const char* property, const char* file, int line, const QByteArray& detail)
{
    std::fprintf(stderr, "%s:%d: property violated: %s\n%s\n", file, line, property, detail.constData());
    std::abort();
}

// `detail` is only evaluated when `condition` fails.
#define FUZZ_REQUIRE(condition, detail)                                                                                \
    do {                                                                                                               \
        if (!(condition))                                                                                              \
            propertyViolated(#condition, __FILE__, __LINE__, (detail));                                                \
    } while (false)

// Text for a message: UTF-8 with anything unprintable escaped, so a failure report can be pasted into a test.
inline QByteArray quotedForReport(const QString& text)
{
    QByteArray out = "\"";
    for (const char c : text.toUtf8()) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\')
            out += '\\' + QByteArray(1, c);
        else if (byte < 0x20 || byte == 0x7f)
            out += "\\x" + QByteArray::number(byte, 16).rightJustified(2, '0');
        else
            out += c;
    }
    return out + '"';
}

// A string of at most `maxBytes` bytes from the fuzzer's data, decoded as UTF-8 (invalid sequences become U+FFFD,
// as they would in any text the programs read).
inline QString consumeText(FuzzedDataProvider& data, size_t maxBytes)
{
    return QString::fromStdString(data.ConsumeRandomLengthString(maxBytes));
}
