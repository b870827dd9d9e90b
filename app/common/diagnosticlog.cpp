// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/diagnosticlog.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <atomic>
#include <cstdio>

namespace DiagnosticLog {

static std::atomic<Format> currentFormat { Format::Text };

void setFormat(Format format)
{
    currentFormat = format;
}

bool parseFormat(const QString& name, Format& format)
{
    if (name == QLatin1String("text"))
        format = Format::Text;
    else if (name == QLatin1String("json"))
        format = Format::Json;
    else
        return false;
    return true;
}

static QString levelName(QtMsgType level)
{
    switch (level) {
    case QtWarningMsg:
        return QStringLiteral("warning");
    case QtCriticalMsg:
    case QtFatalMsg:
        return QStringLiteral("error");
    case QtDebugMsg:
        return QStringLiteral("debug");
    case QtInfoMsg:
        break;
    }
    return QStringLiteral("info");
}

// Line breaks are folded so that a diagnostic stays one line.
static QString oneLine(const QString& text)
{
    return QString(text)
        .replace(QLatin1String("\r\n"), QLatin1String(" "))
        .replace(QLatin1Char('\n'), QLatin1Char(' '));
}

static QString now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

void write(QtMsgType level, const QString& message, const QString& textLine)
{
    QByteArray bytes;
    if (currentFormat == Format::Json) {
        const QJsonObject entry { { QStringLiteral("time"), now() }, { QStringLiteral("level"), levelName(level) },
            { QStringLiteral("program"), QCoreApplication::applicationName() },
            { QStringLiteral("message"), message } };
        bytes = QJsonDocument(entry).toJson(QJsonDocument::Compact);
    } else {
        bytes = oneLine(textLine).toUtf8();
    }
    bytes += '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

void event(QtMsgType level, const QString& message)
{
    write(level, message, QStringLiteral("%1 %2 %3").arg(now(), levelName(level), message));
}

} // namespace DiagnosticLog
