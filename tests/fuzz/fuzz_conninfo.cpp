// SPDX-License-Identifier: GPL-3.0-or-later
// Conninfo, the one libpq connection-string reader and writer: whatever parse() accepts, compose() (every value
// quoted()) writes as a key=value string that parses to exactly the same options, secrets included. The console
// remembers connections and outboxctl passes them on in that form, so a value it cannot write back would connect
// somewhere else.
#include "db/conninfo.h"
#include "db/outboxerror.h"
#include "fuzzcheck.h"

#include <algorithm>

namespace {

QByteArray described(const QList<Conninfo::Option>& options)
{
    QByteArray out;
    for (const Conninfo::Option& option : options)
        out += option.keyword.toUtf8() + "=" + quotedForReport(option.value) + (option.secret ? " (secret)\n" : "\n");
    return out;
}

bool same(const QList<Conninfo::Option>& a, const QList<Conninfo::Option>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
        return x.keyword == y.keyword && x.value == y.value && x.secret == y.secret;
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(bytes), qsizetype(size));
    QList<Conninfo::Option> options;
    try {
        options = Conninfo::parse(text);
    } catch (const OutboxError& error) {
        FUZZ_REQUIRE(error.kind() == OutboxError::Kind::InvalidInput, error.message().toUtf8());
        return 0;
    }

    Conninfo::Options pairs;
    for (const Conninfo::Option& option : options)
        pairs.append({ option.keyword, option.value });
    const QString composed = Conninfo::compose(pairs);
    QList<Conninfo::Option> reparsed;
    try {
        reparsed = Conninfo::parse(composed);
    } catch (const OutboxError& error) {
        propertyViolated("compose(parse(x)) parses", __FILE__, __LINE__,
            quotedForReport(text) + " composed as " + quotedForReport(composed) + ": " + error.message().toUtf8());
    }
    FUZZ_REQUIRE(same(options, reparsed),
        "input " + quotedForReport(text) + "\nparsed\n" + described(options) + "composed " + quotedForReport(composed)
            + "\nreparsed\n" + described(reparsed));

    // Without the secrets: the same options in the same order, less the ones libpq marks as secret.
    Conninfo::Options shown;
    for (const Conninfo::Option& option : options) {
        if (!option.secret)
            shown.append({ option.keyword, option.value });
    }
    FUZZ_REQUIRE(Conninfo::parseWithoutSecrets(text) == shown, "parseWithoutSecrets: " + quotedForReport(text));
    FUZZ_REQUIRE(Conninfo::compose(Conninfo::parseWithoutSecrets(composed)) == Conninfo::compose(shown),
        "composing is not canonical for " + quotedForReport(text));
    Conninfo::displayName(pairs);
    return 0;
}
