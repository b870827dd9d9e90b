// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QString>

// JSON as the detail panes show it: indented for reading, or the stored text unchanged when it is not an
// object or array (a scalar payload, or something the database holds that Qt cannot parse).
namespace JsonFormat {

inline QString pretty(const QByteArray& json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || document.isNull())
        return QString::fromUtf8(json);
    return QString::fromUtf8(document.toJson(QJsonDocument::Indented)).trimmed();
}

} // namespace JsonFormat
