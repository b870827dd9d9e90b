// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcess>
#include <QTest>
#include <QUrl>

// `outboxctl relay` (or any long-running program) as a process under test: everything it says is collected, and
// story() tells what it said and how it ended, for failure messages. `launcher` runs it through another program,
// e.g. {"ip", "netns", "exec", NAME} to start it in a network namespace (which execs it: the pid stays the relay's).
class RelayProcess final {
    Q_DISABLE_COPY_MOVE(RelayProcess)
public:
    RelayProcess(const QString& program, const QStringList& arguments, const QStringList& launcher = {})
    {
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&m_process, &QProcess::readyRead, [this] { m_log += m_process.readAll(); });
        if (launcher.isEmpty())
            m_process.start(program, arguments);
        else
            m_process.start(launcher.first(), launcher.mid(1) + QStringList { program } + arguments);
        m_process.waitForStarted();
    }

    ~RelayProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    bool isRunning() const { return m_process.state() == QProcess::Running; }
    qint64 pid() const { return m_process.processId(); }

    const QByteArray& log()
    {
        m_log += m_process.readAll();
        return m_log;
    }

    // What it said, and how it ended if it did.
    QByteArray story()
    {
        log();
        if (m_process.state() != QProcess::NotRunning)
            return m_log;
        return m_log
            + QStringLiteral("\n(%1 with exit code %2)")
                  .arg(m_process.exitStatus() == QProcess::CrashExit ? QStringLiteral("crashed or killed")
                                                                     : QStringLiteral("exited"))
                  .arg(m_process.exitCode())
                  .toUtf8();
    }

    // Waits until the log contains `text`; false if the process ends or `timeoutMs` passes first.
    bool waitForLog(const QByteArray& text, int timeoutMs = 20'000)
    {
        return QTest::qWaitFor([&] { return log().contains(text) || !isRunning(); }, timeoutMs) && log().contains(text);
    }

    // The URL it announced in a line "`announcement` http://..."; empty if it ends or says nothing of the kind.
    QUrl announcedUrl(const QByteArray& announcement)
    {
        if (!waitForLog(announcement + " http://"))
            return {};
        const qsizetype start = log().indexOf("http://", log().indexOf(announcement));
        const qsizetype end = log().indexOf('\n', start);
        return QUrl(QString::fromUtf8(log().mid(start, end - start).trimmed()));
    }

    // The endpoint it announced with --metrics-listen.
    QUrl metricsUrl() { return announcedUrl("serving /metrics and /healthz on"); }

    // SIGKILL: no chance to sign off or hand anything back.
    void kill()
    {
        m_process.kill();
        m_process.waitForFinished();
    }

    // SIGTERM, as systemd stops it; true if it then exited cleanly with status 0.
    bool terminate(int timeoutMs = 30'000)
    {
        m_process.terminate();
        return m_process.waitForFinished(timeoutMs) && m_process.exitStatus() == QProcess::NormalExit
            && m_process.exitCode() == 0;
    }

    int count(const QByteArray& text) { return int(log().count(text)); }

private:
    QProcess m_process;
    QByteArray m_log;
};
