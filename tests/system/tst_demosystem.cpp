// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "demo/demosystem.h"
#include "support/processtesting.h"

#include <QDir>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>

// The one-command demo: everything starts, traffic with duplicates flows, and nothing is left behind.
class TestDemoSystem final : public QObject {
    Q_OBJECT

    static qint64 count(DbSession& session, const QString& sql)
    {
        QSqlQuery& q = session.exec(sql, {}, QStringLiteral("count"));
        return q.next() ? q.value(0).toLongLong() : -1;
    }

private slots:
    void trafficFlowsAndEverythingIsRemoved()
    {
        QString directory;
        {
            DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
            QSignalSpy ready(&demo, &DemoSystem::ready);
            QSignalSpy failed(&demo, &DemoSystem::processFailed);
            demo.start();
            directory = demo.cluster().directory();
            QVERIFY(ready.wait(20'000));
            QVERIFY(demo.serviceUrl().toString().startsWith(QStringLiteral("http://127.0.0.1:")));
            DbSession session(demo.settings(), QStringLiteral("observer"));
            // Orders are created, duplicates replayed, events published, and the failing broker leaves retries.
            QTRY_VERIFY_WITH_TIMEOUT(count(session, QStringLiteral("SELECT count(*) FROM orders")) >= 20, 30'000);
            QTRY_VERIFY_WITH_TIMEOUT(
                count(session, QStringLiteral("SELECT coalesce(sum(replay_count), 0) FROM idempotency_keys")) > 0,
                30'000);
            QTRY_VERIFY_WITH_TIMEOUT(
                count(session, QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'published'")) > 0, 30'000);
            QTRY_VERIFY_WITH_TIMEOUT(
                count(session, QStringLiteral("SELECT count(*) FROM outbox_attempts")) > 0, 30'000);
            QCOMPARE(failed.size(), 0);
            QVERIFY(ProcessTesting::processesMentioning(directory) > 0);
        }
        QVERIFY(!QDir(directory).exists());
        QCOMPARE(ProcessTesting::processesMentioning(directory), 0);
    }

    // Stopped at once, while the service may still be announcing its address: no client is started on the way
    // out, and nothing is left behind.
    void stoppingRightAfterStartLeavesNothing()
    {
        QString directory;
        {
            DemoSystem demo(DemoSystem::locate(QCoreApplication::applicationDirPath()));
            demo.start();
            directory = demo.cluster().directory();
        }
        QVERIFY(!QDir(directory).exists());
        QCOMPARE(ProcessTesting::processesMentioning(directory), 0);
    }

    // SIGTERM to `outbox-console --demo` quits it and removes the demo's processes and database.
    void consoleDemoCleansUpOnSigterm()
    {
        // A temporary directory of its own, so a demo another test runs at the same time is not mistaken for this
        // one; the server (run as another user when the test runs as root) must be able to reach it.
        QTemporaryDir tmp;
        QFile::setPermissions(tmp.path(), QFile::permissions(tmp.path()) | QFile::ExeGroup | QFile::ExeOther);
        QProcess console;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("TMPDIR"), tmp.path());
        console.setProcessEnvironment(environment);
        console.setProcessChannelMode(QProcess::ForwardedChannels); // a crash's last words reach the test log
        console.start(QStringLiteral(OUTBOX_CONSOLE_PATH), { QStringLiteral("--demo") });
        QVERIFY(console.waitForStarted());
        QString directory;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QStringList demos = QDir(tmp.path()).entryList({ QStringLiteral("outbox-demo-*") }, QDir::Dirs);
                directory = demos.isEmpty() ? QString() : QDir(tmp.path()).filePath(demos.first());
                return !directory.isEmpty() && ProcessTesting::processesMentioning(directory) >= 2;
            }(),
            30'000);
        ::kill(pid_t(console.processId()), SIGTERM);
        QVERIFY(console.waitForFinished(30'000));
        QCOMPARE(console.exitStatus(), QProcess::NormalExit);
        QCOMPARE(console.exitCode(), 0);
        QVERIFY(!QDir(directory).exists());
        QCOMPARE(ProcessTesting::processesMentioning(directory), 0);
    }
};

QTEST_GUILESS_MAIN(TestDemoSystem)
#include "tst_demosystem.moc"
