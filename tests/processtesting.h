#pragma once

#include <QDirIterator>
#include <QFile>
#include <QString>

// What the tests of programs that start other programs share.
namespace ProcessTesting {

// Running processes whose command line mentions `text` (read from /proc, as ps would).
inline int processesMentioning(const QString& text)
{
    int count = 0;
    QDirIterator processes(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (processes.hasNext()) {
        QFile commandLine(processes.next() + QStringLiteral("/cmdline"));
        if (commandLine.open(QIODevice::ReadOnly) && commandLine.readAll().contains(text.toLocal8Bit()))
            ++count;
    }
    return count;
}

} // namespace ProcessTesting
