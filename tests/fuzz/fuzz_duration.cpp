// SPDX-License-Identifier: GPL-3.0-or-later
// Duration::parseMs, the durations operators type (--older-than 7d, --lease 30s): arbitrary text never crashes it,
// what it accepts is a whole number of a unit, converted without overflow, and every such number written with any
// unit and blanks around it reads back as that many milliseconds.
#include "common/duration.h"
#include "fuzzcheck.h"

namespace {

struct Unit {
    const char* name;
    qint64 ms;
};
constexpr Unit Units[] = { { "ms", 1 }, { "s", 1000 }, { "m", 60'000 }, { "h", 3'600'000 }, { "d", 86'400'000 } };

// The reading of `text` that parseMs promises: blanks, one to nine ASCII digits, a unit, blanks.
std::optional<qint64> expectedMs(const QString& text)
{
    const QString trimmed = text.trimmed();
    qsizetype digits = 0;
    while (digits < trimmed.size() && trimmed.at(digits) >= u'0' && trimmed.at(digits) <= u'9')
        ++digits;
    if (digits < 1 || digits > 9)
        return std::nullopt;
    for (const Unit& unit : Units) {
        if (trimmed.mid(digits) == QLatin1String(unit.name))
            return trimmed.left(digits).toLongLong() * unit.ms;
    }
    return std::nullopt;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size)
{
    FuzzedDataProvider data(bytes, size);
    const qint64 number = data.ConsumeIntegralInRange<qint64>(0, 999'999'999);
    const Unit& unit = Units[data.ConsumeIntegralInRange<size_t>(0, std::size(Units) - 1)];
    static const char* const blanks[] = { "", " ", "\t", "\n", "  \r\n" };
    const QString written = QLatin1String(blanks[data.ConsumeIntegralInRange<size_t>(0, std::size(blanks) - 1)])
        + QString::number(number).rightJustified(data.ConsumeIntegralInRange(0, 9), QLatin1Char('0'))
        + QLatin1String(unit.name)
        + QLatin1String(blanks[data.ConsumeIntegralInRange<size_t>(0, std::size(blanks) - 1)]);
    const std::optional<qint64> read = Duration::parseMs(written);
    FUZZ_REQUIRE(read == number * unit.ms,
        quotedForReport(written) + " reads as " + (read ? QByteArray::number(*read) : QByteArray("nothing")));

    const QString text = consumeText(data, 64);
    const std::optional<qint64> parsed = Duration::parseMs(text);
    FUZZ_REQUIRE(parsed == expectedMs(text),
        quotedForReport(text) + " reads as " + (parsed ? QByteArray::number(*parsed) : QByteArray("nothing")));
    FUZZ_REQUIRE(!parsed || *parsed >= 0, quotedForReport(text));
    return 0;
}
