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
// must log the outage, keep running, reconnect and publish every row. Each test runs against a private cluster
// of its own, since the shared test cluster cannot be stopped under the other tests.
class TestRelayChaos final : public QObject {
    Q_OBJECT

    // A private cluster with the schema and `rows` pending outbox rows.
    static void seed(PrivateCluster& cluster, int rows)
    {
        cluster.start();
        DbSession session(cluster.settings(), QStringLiteral("chaos-seed"));
        SchemaMigrator(session).migrate();
        session.execScript(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                          "dedupe_key) SELECT 'order', g::text, 'order.created', '{}', "
                                          "'order.created:' || g FROM generate_series(1, %1) g")
                               .arg(rows),
            QStringLiteral("seeding the outbox"));
    }

    // `SELECT count(*) FROM <from>`, through a new connection each time (the server may be down); -1 while it is.
    static qint64 count(const PrivateCluster& cluster, const QString& from)
    {
        try {
            DbSession session(cluster.settings(), QStringLiteral("chaos-probe"));
            QSqlQuery& q = session.exec(QStringLiteral("SELECT count(*) FROM ") + from, {}, QStringLiteral("counting"));
            return q.next() ? q.value(0).toLongLong() : -1;
        } catch (const OutboxError&) {
            return -1;
        }
    }
    static qint64 published(const PrivateCluster& cluster)
    {
        return count(cluster, QStringLiteral("outbox WHERE status = 'published'"));
    }

    static qint64 lineCount(const QString& path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return -1;
        return file.readAll().count('\n');
    }

    // `outboxctl relay` on `cluster` with `options`, its output collected in m_log.
    bool startRelay(const PrivateCluster& cluster, const QStringList& options)
    {
        m_relay = std::make_unique<QProcess>();
        m_log.clear();
        m_relay->setProcessChannelMode(QProcess::MergedChannels);
        connect(m_relay.get(), &QProcess::readyRead, this, [this] { m_log += m_relay->readAll(); });
        m_relay->start(QStringLiteral(OUTBOXCTL_PATH),
            QStringList { QStringLiteral("relay"), QStringLiteral("--dsn"), cluster.dsn() } + options);
        return m_relay->waitForStarted();
    }

    // What the relay said, and how it ended if it did, for failure messages.
    QByteArray story()
    {
        m_log += m_relay->readAll();
        if (m_relay->state() != QProcess::NotRunning)
            return m_log;
        return m_log
            + QStringLiteral("\n(the relay %1 with exit code %2)")
                  .arg(m_relay->exitStatus() == QProcess::CrashExit ? QStringLiteral("crashed")
                                                                    : QStringLiteral("exited"))
                  .arg(m_relay->exitCode())
                  .toUtf8();
    }

    // Crashes the server under the relay; returns once the relay has said it will retry, still running.
    void crash(PrivateCluster& cluster)
    {
        cluster.crash();
        QVERIFY2(published(cluster) < 0, "the server is still answering");
        QTRY_VERIFY2_WITH_TIMEOUT(m_log.contains("retrying in"), story().constData(), 20'000);
        QVERIFY2(m_relay->state() == QProcess::Running, story().constData());
    }

    // SIGTERM, as systemd stops it: a clean exit.
    void stopRelay()
    {
        m_relay->terminate();
        QVERIFY(m_relay->waitForFinished(30'000));
        QCOMPARE(m_relay->exitStatus(), QProcess::NormalExit);
        QVERIFY2(m_relay->exitCode() == 0, story().constData());
    }

    std::unique_ptr<QProcess> m_relay;
    QByteArray m_log;

private slots:
    void relaySurvivesAnImmediateShutdown()
    {
        constexpr int Rows = 20'000;
        constexpr int Workers = 2;
        constexpr int BatchSize = 100;
        QTemporaryDir sinkDirectory;
        const QString events = sinkDirectory.filePath(QStringLiteral("events.jsonl"));
        PrivateCluster cluster;
        seed(cluster, Rows);
        // A short lease, so that the batches cut off by the crash are rescued within the test.
        QVERIFY(startRelay(cluster,
            { QStringLiteral("--workers"), QString::number(Workers), QStringLiteral("--batch"),
                QString::number(BatchSize), QStringLiteral("--lease-seconds"), QStringLiteral("5"),
                QStringLiteral("--sink"), QStringLiteral("file:") + events }));

        // Mid-drain: something is published, not everything.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(events).size() > 0, 20'000);
        crash(cluster);
        const qint64 linesAtCrash = lineCount(events); // nothing more reaches the sink without the database
        QVERIFY2(linesAtCrash < Rows, "the relay had drained everything before the crash");
        cluster.start();
        QElapsedTimer sinceRestart;
        sinceRestart.start();
        QTRY_VERIFY_WITH_TIMEOUT(lineCount(events) > linesAtCrash, 30'000);
        const qint64 firstPublishMs = sinceRestart.elapsed();

        QTRY_COMPARE_WITH_TIMEOUT(published(cluster), qint64(Rows), 60'000);
        QVERIFY2(m_relay->state() == QProcess::Running, story().constData());

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
        stopRelay();
    }

    // The lease heartbeat stops with the database: a batch still being published when the server crashes cannot
    // be completed by its worker, its lease runs out, and it is rescued (with an attempt row saying so) and
    // published again, rather than staying in flight for ever.
    void leasesOfACutOffBatchRunOutAndAreRescued()
    {
        constexpr int Rows = 40;
        PrivateCluster cluster;
        seed(cluster, Rows);
        // 2 s per batch against a 1 s lease: only the heartbeat keeps a batch's lease alive.
        QVERIFY(startRelay(cluster,
            { QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--batch"), QStringLiteral("10"),
                QStringLiteral("--lease-seconds"), QStringLiteral("1"), QStringLiteral("--sink"),
                QStringLiteral("fault:0,2000") }));
        QTRY_VERIFY_WITH_TIMEOUT(count(cluster, QStringLiteral("outbox WHERE status = 'in_flight'")) > 0, 20'000);
        crash(cluster);
        cluster.start();

        QTRY_COMPARE_WITH_TIMEOUT(published(cluster), qint64(Rows), 60'000);
        QVERIFY2(m_relay->state() == QProcess::Running, story().constData());
        const qint64 rescued = count(cluster, QStringLiteral("outbox_attempts WHERE error LIKE 'lease of % expired%'"));
        QVERIFY2(rescued > 0, story().constData());
        qInfo("%lld rows of the cut-off batches rescued", rescued);
        stopRelay();
    }
};

QTEST_GUILESS_MAIN(TestRelayChaos)
#include "tst_relaychaos.moc"
