// SPDX-License-Identifier: GPL-3.0-or-later
#include "idempotency/requestfingerprint.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <utility>
#include <vector>

namespace {

// Objects are written member by member, sorted here by their keys' UTF-16 code units: Qt 6.4 does not always keep
// an object's keys in order. Parsed from text with raw control characters in its keys (not JSON, which Qt accepts
// all the same; JsonText finds them), keys came out of order, and the compact document of one request differed by
// its spelling (found by fuzz_requestfingerprint). Scalars are written as Qt's compact writer spells them: shortest
// round-trip numbers, its string escapes.
void writeCanonical(const QJsonValue& value, QByteArray& out)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        std::vector<std::pair<QString, QJsonValue>> members;
        members.reserve(size_t(object.size()));
        for (auto it = object.constBegin(); it != object.constEnd(); ++it)
            members.emplace_back(it.key(), it.value());
        std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        out += '{';
        for (size_t i = 0; i < members.size(); ++i) {
            if (i)
                out += ',';
            writeCanonical(QJsonValue(members[i].first), out);
            out += ':';
            writeCanonical(members[i].second, out);
        }
        out += '}';
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        out += '[';
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (i)
                out += ',';
            writeCanonical(array.at(i), out);
        }
        out += ']';
    } else {
        const QByteArray wrapped = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
        out += QByteArrayView(wrapped).sliced(1, wrapped.size() - 2);
    }
}

} // namespace

QByteArray RequestFingerprint::canonicalJson(const QJsonObject& request)
{
    QByteArray out;
    writeCanonical(request, out);
    return out;
}

QString RequestFingerprint::compute(const QString& operation, const QJsonObject& request)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(operation.toUtf8());
    hash.addData(QByteArrayView("\n"));
    hash.addData(canonicalJson(request));
    return QString::fromLatin1(hash.result().toHex());
}
