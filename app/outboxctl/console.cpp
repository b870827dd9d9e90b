// SPDX-License-Identifier: GPL-3.0-or-later
#include "console.h"

#include <QDateTime>
#include <cstdio>

namespace Console {

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

void error(const QString& text)
{
    writeTo(stderr, QByteArrayLiteral("outboxctl: ") + oneLine(text).toUtf8() + '\n');
}

void warning(const QString& text)
{
    error(QStringLiteral("warning: ") + text);
}

void hint(const QString& text)
{
    writeTo(stderr, oneLine(text).toUtf8() + '\n');
}

void log(const QString& text)
{
    const QString stamp = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    writeTo(stderr, (stamp + QLatin1Char(' ') + oneLine(text)).toUtf8() + '\n');
}

} // namespace Console
