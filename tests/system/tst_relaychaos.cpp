// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

// The relay as a long-running process against a PostgreSQL that crashes under it: `pg_ctl stop -m immediate`
// (what a crash or a failover looks like to a client) while `outboxctl relay` drains, then a restart. The relay
// must log the outage, keep running, reconnect and publish every row. It runs against a private cluster of its
// own, since the shared test cluster cannot be stopped under the other tests.
class TestRelayChaos final : public QObject {
    Q_OBJECT

    static constexpr int Rows = 20'000;
    static constexpr int Workers = 2;
    static constexpr int BatchSize = 100;

    // What the relay said, and how it ended if it did, for failure messages.
    static QByteArray story(QProcess& relay, QByteArray& log)
    {
        log += relay.readAll();
        if (relay.state() != QProcess::NotRunning)
            return log;
        return log
            + QStringLiteral("\n(the relay %1 with exit code %2)")
                  .arg(relay.exitStatus() == QProcess::CrashExit ? QStringLiteral("crashed") : QStringLiteral("exited"))
                  .arg(relay.exitCode())
                  .toUtf8();
    }

    // Rows published so far, through a new connection each time (the server may be down); -1 while it is.
    static qint64 published(const PrivateCluster& cluster)
    {
        try {
            DbSession session(cluster.settings(), QStringLiteral("chaos-probe"));
            QSqlQuery& q = session.exec(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'published'"), {},
                QStringLiteral("counting published rows"));
            return q.next() ? q.value(0).toLongLong() : -1;
        } catch (const OutboxError&) {
            return -1;
        }
    }

    static qint64 lineCount(const QString& path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return -1;
        return file.readAll().count('\n');
    }

private slots:
    void relaySurvivesAnImmediateShutdown()
    {
        QTemporaryDir sinkDirectory;
        const QString events = sinkDirectory.filePath(QStringLiteral("events.jsonl"));
        PrivateCluster cluster;
        cluster.start();
        {
            DbSession session(cluster.settings(), QStringLiteral("chaos-seed"));
            SchemaMigrator(session).migrate();
            session.execScript(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                              "dedupe_key) SELECT 'order', g::text, 'order.created', '{}', "
                                              "'order.created:' || g FROM generate_series(1, %1) g")
                                   .arg(Rows),
                QStringLiteral("seeding the outbox"));
        }

        QProcess relay;
        relay.setProcessChannelMode(QProcess::MergedChannels);
        QByteArray log;
        connect(&relay, &QProcess::readyRead, this, [&] { log += relay.readAll(); });
        // A short lease, so that the batches cut off by the crash are rescued within the test.
        relay.start(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("relay"), QStringLiteral("--dsn"), cluster.dsn(), QStringLiteral("--workers"),
                QString::number(Workers), QStringLiteral("--batch"), QString::number(BatchSize),
                QStringLiteral("--lease-seconds"), QStringLiteral("5"), QStringLiteral("--sink"),
                QStringLiteral("file:") + events });
        QVERIFY(relay.waitForStarted());

        // Mid-drain: something is published, not everything.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(events).size() > 0, 20'000);
        cluster.crash();
        const qint64 linesAtCrash = lineCount(events);
        QVERIFY2(linesAtCrash < Rows, "the relay had drained everything before the crash");
        QVERIFY2(published(cluster) < 0, "the server is still answering");
        // The relay says what happened and that it will retry, and does not exit.
        QTRY_VERIFY2_WITH_TIMEOUT(log.contains("retrying in"), story(relay, log).constData(), 20'000);
        QVERIFY2(relay.state() == QProcess::Running, story(relay, log).constData());
        cluster.start();
        QElapsedTimer sinceRestart;
        sinceRestart.start();
        QTRY_VERIFY_WITH_TIMEOUT(lineCount(events) > linesAtCrash, 30'000);
        const qint64 firstPublishMs = sinceRestart.elapsed();

        QTRY_COMPARE_WITH_TIMEOUT(published(cluster), qint64(Rows), 60'000);
        QVERIFY2(relay.state() == QProcess::Running, story(relay, log).constData());

        // Every row arrived; the only copies are of batches cut off between their publish and being marked.
        QFile file(events);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QSet<qint64> ids;
        qint64 lines = 0;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine();
            if (line.trimmed().isEmpty())
                continue;
            ++lines;
            ids.insert(QJsonDocument::fromJson(line).object().value(QStringLiteral("id")).toInteger());
        }
        QCOMPARE(ids.size(), Rows);
        QVERIFY2(lines - Rows <= qint64(Workers) * BatchSize,
            qPrintable(
                QStringLiteral("%1 duplicates for %2 workers of %3").arg(lines - Rows).arg(Workers).arg(BatchSize)));
        qInfo("%lld rows published (%lld before the crash), %lld duplicates, first publish %lld ms after the restart",
            qint64(ids.size()), linesAtCrash, lines - Rows, firstPublishMs);

        relay.terminate();
        QVERIFY(relay.waitForFinished(30'000));
        log += relay.readAll();
        QCOMPARE(relay.exitStatus(), QProcess::NormalExit);
        QVERIFY2(relay.exitCode() == 0, log.constData());
    }
};

QTEST_GUILESS_MAIN(TestRelayChaos)
#include "tst_relaychaos.moc"
