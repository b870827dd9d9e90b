// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

// The server-computed identity of a request: SHA-256 over the operation name and a canonical JSON form of
// the request (keys sorted at every level, no insignificant whitespace, numbers in shortest round-trip
// form), so {"a":1,"b":2} and { "b":2, "a":1 } fingerprint alike.
class RequestFingerprint final {
public:
    static QByteArray canonicalJson(const QJsonObject& request);
    // 64 lowercase hex digits.
    static QString compute(const QString& operation, const QJsonObject& request);
};
