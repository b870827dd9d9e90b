// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
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

// What a program left when it ended.
struct Run {
    int exitCode = -1; // -1: crashed or killed after the timeout
    QByteArray out;
    QByteArray err;

    QList<QByteArray> outLines() const { return out.split('\n').mid(0, out.count('\n')); }
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

// Waits for a started `process` to end (killing it after `timeoutMs`) and collects its exit code and output.
inline Run finish(QProcess& process, int timeoutMs = 120'000)
{
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
    }
    Run run;
    if (process.exitStatus() == QProcess::NormalExit)
        run.exitCode = process.exitCode();
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

// Runs `program` with `arguments` to its end.
inline Run run(const QString& program, const QStringList& arguments,
    const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(), int timeoutMs = 120'000)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    return finish(process, timeoutMs);
}

// Runs `program` with arguments of any bytes, which QProcess cannot pass (it passes text, as UTF-8): a shell's
// printf writes each byte from its octal escape. A trailing line break of an argument is lost, as in any $(...).
inline Run runWithBytes(const QString& program, const QList<QByteArray>& arguments,
    const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(), int timeoutMs = 120'000)
{
    QString script = QStringLiteral("exec \"$0\"");
    for (const QByteArray& argument : arguments) {
        QString escaped;
        for (const char byte : argument)
            escaped += QStringLiteral("\\%1").arg(uint(uchar(byte)), 3, 8, QLatin1Char('0'));
        script += QStringLiteral(" \"$(printf '%1')\"").arg(escaped);
    }
    return run(QStringLiteral("/bin/sh"), { QStringLiteral("-c"), script, program }, environment, timeoutMs);
}

} // namespace ProcessTesting
