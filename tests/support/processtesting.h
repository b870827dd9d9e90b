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

} // namespace ProcessTesting
