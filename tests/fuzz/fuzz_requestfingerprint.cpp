// SPDX-License-Identifier: GPL-3.0-or-later
// RequestFingerprint: its canonical JSON is a fixed point that keeps the request's value, and every spelling of the
// same JSON value (key order, whitespace, number and string spellings) has the same fingerprint. A repeated
// Idempotency-Key is a replay only if the fingerprints match, so a spelling that changed it would answer a client's
// honest retry with 422.
#include "fuzzcheck.h"
#include "idempotency/jsontext.h"
#include "idempotency/requestfingerprint.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QVariant>
#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace {

// The members of an object sorted by key, taken as the object iterates them: Qt 6.4's lookup by key
// (QJsonObject::value) misses some keys holding control characters and NULs, and would turn their values into null.
std::vector<std::pair<QString, QJsonValue>> sortedMembers(const QJsonObject& object)
{
    std::vector<std::pair<QString, QJsonValue>> members;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it)
        members.emplace_back(it.key(), it.value());
    std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return members;
}

// Another writer of the same JSON value, its choices drawn from a generator seeded by the input.
class Respeller {
public:
    explicit Respeller(size_t seed)
        : m_random(seed)
    { }

    QByteArray write(const QJsonValue& value)
    {
        switch (value.type()) {
        case QJsonValue::Object: {
            auto members = sortedMembers(value.toObject());
            std::shuffle(members.begin(), members.end(), m_random);
            QByteArray out = "{" + blank();
            for (size_t i = 0; i < members.size(); ++i) {
                if (i)
                    out += "," + blank();
                out += string(members[i].first) + blank() + ":" + blank() + write(members[i].second) + blank();
            }
            return out + "}";
        }
        case QJsonValue::Array: {
            const QJsonArray array = value.toArray();
            QByteArray out = "[" + blank();
            for (qsizetype i = 0; i < array.size(); ++i)
                out += (i ? "," + blank() : QByteArray()) + write(array.at(i)) + blank();
            return out + "]";
        }
        case QJsonValue::String:
            return string(value.toString());
        case QJsonValue::Double:
            return number(value);
        case QJsonValue::Bool:
            return value.toBool() ? "true" : "false";
        case QJsonValue::Null:
        case QJsonValue::Undefined:
            break;
        }
        return "null";
    }

private:
    bool coin() { return m_random() % 2; }

    QByteArray blank()
    {
        static const char* const blanks[] = { "", "", " ", "\n", "\t", "\r\n  " };
        return blanks[m_random() % std::size(blanks)];
    }

    // A 64-bit integer stays an integer; a double is written with 17 significant digits, which reads back as the
    // same double but is not its shortest form.
    QByteArray number(const QJsonValue& value)
    {
        if (value.toVariant().typeId() == QMetaType::LongLong) {
            const qint64 integer = value.toInteger();
            constexpr qint64 exactInDouble = 1LL << 53;
            if (integer >= -exactInDouble && integer <= exactInDouble && coin())
                return QByteArray::number(integer) + (coin() ? ".0" : "e0");
            return QByteArray::number(integer);
        }
        return coin() ? QByteArray::number(value.toDouble(), 'g', 17) : QByteArray::number(value.toDouble(), 'e', 16);
    }

    // Any character may be written as a \u escape; quotes, backslashes and control characters must be escaped.
    QByteArray string(const QString& text)
    {
        QByteArray out = "\"";
        for (const QChar c : text) {
            const char16_t unit = c.unicode();
            if (unit == u'"' || unit == u'\\')
                out += coin() ? QByteArray("\\") + char(unit) : unicodeEscape(unit);
            else if (unit < 0x20 || c.isSurrogate() || coin())
                out += unicodeEscape(unit);
            else
                out += QString(c).toUtf8();
        }
        return out + "\"";
    }

    QByteArray unicodeEscape(char16_t unit)
    {
        QByteArray hex = QByteArray::number(unit, 16).rightJustified(4, '0');
        return "\\u" + (coin() ? hex.toUpper() : hex);
    }

    std::minstd_rand m_random;
};

// Whether two JSON values are the same, whatever order their objects keep their members in: QJsonObject::operator==
// compares them in that order, which Qt 6.4 has been seen to get wrong (keys holding raw control characters, now
// left out as not JSON), and RequestFingerprint does not depend on it.
bool sameJson(const QJsonValue& a, const QJsonValue& b)
{
    if (a.type() != b.type())
        return false;
    if (a.isObject()) {
        const auto x = sortedMembers(a.toObject());
        const auto y = sortedMembers(b.toObject());
        return std::equal(x.begin(), x.end(), y.begin(), y.end(),
            [](const auto& m, const auto& n) { return m.first == n.first && sameJson(m.second, n.second); });
    }
    if (a.isArray()) {
        const QJsonArray x = a.toArray();
        const QJsonArray y = b.toArray();
        if (x.size() != y.size())
            return false;
        for (qsizetype i = 0; i < x.size(); ++i) {
            if (!sameJson(x.at(i), y.at(i)))
                return false;
        }
        return true;
    }
    return a == b;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size)
{
    const QByteArray input = QByteArray::fromRawData(reinterpret_cast<const char*>(bytes), qsizetype(size));
    const QJsonDocument document = QJsonDocument::fromJson(input);
    // Not JSON, which Qt parses all the same, into objects whose keys may repeat (orders-service refuses it).
    if (!document.isObject() || JsonText::controlCharacterInString(input))
        return 0;
    const QJsonObject request = document.object();
    const QString operation = QStringLiteral("orders.create");
    const QByteArray canonical = RequestFingerprint::canonicalJson(request);

    const QJsonDocument reread = QJsonDocument::fromJson(canonical);
    FUZZ_REQUIRE(reread.isObject(), "canonical form does not parse: " + canonical);
    FUZZ_REQUIRE(sameJson(reread.object(), request), "canonical form changes the request: " + canonical);
    const QByteArray again = RequestFingerprint::canonicalJson(reread.object());
    FUZZ_REQUIRE(again == canonical, "canonicalising twice differs:\n" + canonical + "\n" + again);

    const QByteArray respelled = Respeller(qHash(input, 0)).write(request);
    const QJsonDocument other = QJsonDocument::fromJson(respelled);
    FUZZ_REQUIRE(other.isObject(), "respelled request does not parse: " + respelled);
    FUZZ_REQUIRE(
        RequestFingerprint::compute(operation, other.object()) == RequestFingerprint::compute(operation, request),
        "another spelling of the request has another fingerprint:\n" + canonical + "\n"
            + RequestFingerprint::canonicalJson(other.object()) + "\nrespelled: " + respelled);
    return 0;
}
