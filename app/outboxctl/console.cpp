// SPDX-License-Identifier: GPL-3.0-or-later
#include "console.h"

#include "common/diagnosticlog.h"

#include <QStringList>
#include <cstdio>

namespace Console {

void write(const QByteArray& bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

QString idList(const QList<qint64>& ids)
{
    QStringList texts;
    for (const qint64 id : ids)
        texts.append(QString::number(id));
    return texts.join(QLatin1Char(','));
}

void line(const QString& text)
{
    write(text.toUtf8() + '\n');
}

void error(const QString& text)
{
    DiagnosticLog::write(QtCriticalMsg, text, QStringLiteral("outboxctl: ") + text);
}

void warning(const QString& text)
{
    DiagnosticLog::write(QtWarningMsg, text, QStringLiteral("outboxctl: warning: ") + text);
}

void hint(const QString& text)
{
    DiagnosticLog::write(QtInfoMsg, text, text);
}

void log(const QString& text, QtMsgType level)
{
    DiagnosticLog::event(level, text);
}

} // namespace Console
