// SPDX-License-Identifier: GPL-3.0-or-later
#include "idempotency/requestfingerprint.h"

#include <QCryptographicHash>
#include <QJsonDocument>

QByteArray RequestFingerprint::canonicalJson(const QJsonObject& request)
{
    // QJsonObject keeps its keys sorted and the compact writer emits no whitespace and shortest
    // round-trip numbers, so the compact document is already canonical.
    return QJsonDocument(request).toJson(QJsonDocument::Compact);
}

QString RequestFingerprint::compute(const QString& operation, const QJsonObject& request)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(operation.toUtf8());
    hash.addData(QByteArrayView("\n"));
    hash.addData(canonicalJson(request));
    return QString::fromLatin1(hash.result().toHex());
}
