// SPDX-License-Identifier: GPL-3.0-or-later
#include "console.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <atomic>
#include <cstdio>

namespace Console {

static std::atomic<LogFormat> logFormat { LogFormat::Text };

void setLogFormat(LogFormat format)
{
    logFormat = format;
}

static void writeTo(FILE* stream, const QByteArray& bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

void write(const QByteArray& bytes)
{
    writeTo(stdout, bytes);
}

void line(const QString& text)
{
    write(text.toUtf8() + '\n');
}

static QString oneLine(const QString& text)
{
    return QString(text)
        .replace(QLatin1String("\r\n"), QLatin1String(" "))
        .replace(QLatin1Char('\n'), QLatin1Char(' '));
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

// In JSON every diagnostic is an object of its own; `textLine` is what a terminal gets instead.
static void diagnostic(QtMsgType level, const QString& text, const QString& textLine)
{
    if (logFormat == LogFormat::Json) {
        const QJsonObject entry { { QStringLiteral("time"),
                                      QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs) },
            { QStringLiteral("level"), levelName(level) }, { QStringLiteral("program"), QStringLiteral("outboxctl") },
            { QStringLiteral("message"), text } };
        writeTo(stderr, QJsonDocument(entry).toJson(QJsonDocument::Compact) + '\n');
        return;
    }
    writeTo(stderr, oneLine(textLine).toUtf8() + '\n');
}

void error(const QString& text)
{
    diagnostic(QtCriticalMsg, text, QStringLiteral("outboxctl: ") + text);
}

void warning(const QString& text)
{
    diagnostic(QtWarningMsg, text, QStringLiteral("outboxctl: warning: ") + text);
}

void hint(const QString& text)
{
    diagnostic(QtInfoMsg, text, text);
}

void log(const QString& text, QtMsgType level)
{
    const QString stamp = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    diagnostic(level, text, QStringLiteral("%1 %2 %3").arg(stamp, levelName(level), text));
}

} // namespace Console
