// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "support/databaseprobe.h"
#include "support/httptesting.h"
#include "support/processtesting.h"
#include "support/relayprocess.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkProxy>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <numeric>
#include <vector>

// `outboxctl relay` as the long-running process it is in production, against PostgreSQL servers that crash under
// it (`pg_ctl stop -m immediate`: what a crash looks like to a client), and relays killed with SIGKILL. Every test
// runs against private clusters of its own, since the shared test cluster cannot be stopped under the other tests.
// Failovers are tst_hacluster's, on a real Patroni cluster.
class TestRelayChaos final : public QObject {
    Q_OBJECT

    // The schema and `rows` pending outbox rows with ids from `firstId` on.
    static void seed(PrivateCluster& cluster, int rows, int firstId = 1)
    {
        cluster.start();
        DbSession session(cluster.settings(), QStringLiteral("chaos-seed"));
        SchemaMigrator(session).migrate();
        session.execScript(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                          "dedupe_key) SELECT 'order', g::text, 'order.created', '{}', "
                                          "'order.created:' || g FROM generate_series(%1, %2) g")
                               .arg(firstId)
                               .arg(firstId + rows - 1),
            QStringLiteral("seeding the outbox"));
    }

    // `SELECT count(*) FROM <from>`; -1 while the server is down.
    static qint64 count(const PrivateCluster& cluster, const QString& from)
    {
        return DatabaseProbe::scalar(cluster.settings(), QStringLiteral("SELECT count(*) FROM ") + from);
    }
    // By the rows' state as outbox_messages derives it: a row in the log (stored status NULL) is pending, in flight
    // or published by its lane's cursor (migration 0028).
    static qint64 published(const PrivateCluster& cluster)
    {
        return count(cluster, QStringLiteral("outbox_messages WHERE status = 'published'"));
    }
    static qint64 unfinished(const PrivateCluster& cluster)
    {
        return count(cluster, QStringLiteral("outbox_messages WHERE status IN ('pending', 'in_flight', 'failed')"));
    }
    // Whether a row is left to publish (1, or 0): one off the log not published, or one of the log that its lane has
    // not published. Asked through outbox_log_unpublished(), which reads only the lanes' backlogs, rather than by
    // published(): deriving the state of every row of outbox_messages takes a tenth of a second and more under the
    // relays' load, in which they publish hundreds of rows, and a test that asks it between kills runs out of rows
    // before its kills are done.
    static qint64 leftToPublish(const PrivateCluster& cluster)
    {
        return DatabaseProbe::scalar(cluster.settings(),
            QStringLiteral("SELECT (EXISTS (SELECT FROM outbox WHERE status <> 'published') "
                           "  OR EXISTS (SELECT FROM outbox_log_unpublished(1)))::int"));
    }

    // How often the file sink at `path` got each message, by dedupe key (unique across the clusters of a test).
    // The records of each dedupe key in the sink's file; a line a killed relay left unfinished is none.
    static QHash<QString, int> deliveries(const QString& path)
    {
        QHash<QString, int> perId;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return perId;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().trimmed();
            const QString key = QJsonDocument::fromJson(line).object().value(QStringLiteral("dedupe_key")).toString();
            if (!key.isEmpty())
                ++perId[key];
        }
        return perId;
    }
    static qint64 lineCount(const QString& path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll().count('\n') : -1;
    }

    static std::unique_ptr<RelayProcess> startRelay(const QString& dsn, const QStringList& options)
    {
        return std::make_unique<RelayProcess>(QStringLiteral(OUTBOXCTL_PATH),
            QStringList { QStringLiteral("relay"), QStringLiteral("--dsn"), dsn } + options);
    }

    // `outboxctl relays --format json`: the registry as an operator's script reads it.
    static QJsonArray registry(const QString& dsn)
    {
        const ProcessTesting::Run run = ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("relays"), QStringLiteral("--dsn"), dsn, QStringLiteral("--format"),
                QStringLiteral("json"), QStringLiteral("--limit"), QStringLiteral("1000") });
        return run.exitCode == 0 ? run.json().value(QStringLiteral("relays")).toArray() : QJsonArray();
    }
    static int relaysIn(const QJsonArray& relays, const QString& state)
    {
        int n = 0;
        for (const auto& relay : relays)
            n += relay.toObject().value(QStringLiteral("state")).toString() == state ? 1 : 0;
        return n;
    }

    QNetworkAccessManager m_network;

private slots:
    void initTestCase() { m_network.setProxy(QNetworkProxy::NoProxy); }

    // The relay drains 20,000 rows; the server crashes under it and comes back 3 s later. The relay keeps running,
    // says so once each way, its /healthz answers 503 while the database is away, and every row arrives: the only
    // copies are of batches cut off between their publish and being marked.
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
        const auto relay = startRelay(cluster.dsn(),
            { QStringLiteral("--workers"), QString::number(Workers), QStringLiteral("--batch"),
                QString::number(BatchSize), QStringLiteral("--lease-seconds"), QStringLiteral("5"),
                QStringLiteral("--sink"), QStringLiteral("file:") + events, QStringLiteral("--metrics-listen"),
                QStringLiteral("0") });
        const QUrl health = relay->metricsUrl().resolved(QUrl(QStringLiteral("/healthz")));
        QVERIFY2(health.port() > 0, relay->story().constData());
        QCOMPARE(HttpTesting::get(m_network, health).status, 200);

        // Mid-drain: something is published, not everything.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(events).size() > 0, 20'000);
        cluster.crash();
        QVERIFY2(relay->waitForLog("database unavailable: "), relay->story().constData());
        const qint64 linesAtCrash = lineCount(events); // nothing more reaches the sink without the database
        QVERIFY2(linesAtCrash < Rows, "the relay had drained everything before the crash");
        const HttpTesting::HttpReply down = HttpTesting::get(m_network, health);
        QCOMPARE(down.status, 503);
        QCOMPARE(down.json().value(QStringLiteral("database")).toString(), QStringLiteral("down"));
        QVERIFY2(down.json().value(QStringLiteral("reason")).toString().startsWith(QStringLiteral("database: ")),
            down.body.constData());

        QTest::qWait(3'000); // the outage an operator described: the server is back three seconds later
        QVERIFY2(relay->isRunning(), relay->story().constData());
        cluster.start();
        QElapsedTimer sinceRestart;
        sinceRestart.start();
        QTRY_VERIFY_WITH_TIMEOUT(lineCount(events) > linesAtCrash, 30'000);
        const qint64 firstPublishMs = sinceRestart.elapsed();
        QVERIFY2(relay->waitForLog("database available again after "), relay->story().constData());
        QTRY_COMPARE_WITH_TIMEOUT(HttpTesting::get(m_network, health).status, 200, 10'000);

        QTRY_COMPARE_WITH_TIMEOUT(published(cluster), qint64(Rows), 60'000);
        QVERIFY2(relay->isRunning(), relay->story().constData());
        // One outage, one line each way, whatever the workers and the supervisor each ran into.
        QVERIFY2(relay->count("database unavailable: ") == 1, relay->story().constData());
        QVERIFY2(relay->count("database available again") == 1, relay->story().constData());

        const QHash<QString, int> perId = deliveries(events);
        QCOMPARE(perId.size(), Rows);
        const qint64 lines = lineCount(events);
        QVERIFY2(lines - Rows <= qint64(Workers) * BatchSize,
            qPrintable(
                QStringLiteral("%1 duplicates for %2 workers of %3").arg(lines - Rows).arg(Workers).arg(BatchSize)));
        qInfo("%lld rows published (%lld before the crash), %lld duplicates, first publish %lld ms after the restart",
            qint64(perId.size()), linesAtCrash, lines - Rows, firstPublishMs);
        QVERIFY2(relay->terminate(), relay->story().constData());
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
        const auto relay = startRelay(cluster.dsn(),
            { QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--batch"), QStringLiteral("10"),
                QStringLiteral("--lease-seconds"), QStringLiteral("1"), QStringLiteral("--sink"),
                QStringLiteral("fault:0,2000") });
        QTRY_VERIFY_WITH_TIMEOUT(
            count(cluster, QStringLiteral("outbox_messages WHERE status = 'in_flight'")) > 0, 20'000);
        cluster.crash();
        QVERIFY2(relay->waitForLog("database unavailable: "), relay->story().constData());
        cluster.start();

        QTRY_COMPARE_WITH_TIMEOUT(published(cluster), qint64(Rows), 60'000);
        QVERIFY2(relay->isRunning(), relay->story().constData());
        const qint64 rescued = count(cluster, QStringLiteral("outbox_attempts WHERE error LIKE 'lease of % expired%'"));
        QVERIFY2(rescued > 0, relay->story().constData());
        qInfo("%lld rows of the cut-off batches rescued", rescued);
        QVERIFY2(relay->terminate(), relay->story().constData());
    }

    // What /metrics says equals what the database says the relay did: a sink that fails a third of the messages,
    // two attempts per row, so rows end published or dead and every failure is an attempt row.
    void metricsEqualWhatTheRelayDid()
    {
        constexpr int Rows = 3'000;
        PrivateCluster cluster;
        seed(cluster, Rows);
        const auto relay = startRelay(cluster.dsn(),
            { QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--batch"), QStringLiteral("50"),
                QStringLiteral("--sink"), QStringLiteral("fault:0.33"), QStringLiteral("--max-attempts"),
                QStringLiteral("2"), QStringLiteral("--backoff-base-ms"), QStringLiteral("0"), QStringLiteral("--name"),
                QStringLiteral("counted"), QStringLiteral("--metrics-listen"), QStringLiteral("127.0.0.1:0") });
        const QUrl metrics = relay->metricsUrl().resolved(QUrl(QStringLiteral("/metrics")));
        QVERIFY2(metrics.port() > 0, relay->story().constData());
        QTRY_COMPARE_WITH_TIMEOUT(unfinished(cluster), 0LL, 60'000);

        const qint64 publishedRows = published(cluster);
        const qint64 deadRows = count(cluster, QStringLiteral("outbox WHERE status = 'dead'"));
        const qint64 failures = count(cluster, QStringLiteral("outbox_attempts"));
        QCOMPARE(publishedRows + deadRows, qint64(Rows));
        QVERIFY2(deadRows > 0 && failures > deadRows, "the sink failed nothing: the test proves nothing");
        const HttpTesting::HttpReply scrape = HttpTesting::get(m_network, metrics);
        QCOMPARE(scrape.status, 200);
        QVERIFY(scrape.contentType.startsWith("text/plain; version=0.0.4"));
        const auto value = [&](const char* name) { return qint64(HttpTesting::sample(scrape.body, name)); };
        QCOMPARE(value("outbox_relay_published_total"), publishedRows);
        QCOMPARE(value("outbox_relay_dead_total"), deadRows);
        QCOMPARE(value("outbox_relay_failed_total"), failures);
        QCOMPARE(value("outbox_relay_fenced_total"), 0LL);
        QCOMPARE(value("outbox_relay_rescued_total"), 0LL);
        QCOMPARE(value("outbox_relay_handed_back_total"), 0LL);
        QCOMPARE(value("outbox_relay_publish_latency_seconds_count"), publishedRows);
        QVERIFY(value("outbox_relay_batch_seconds_count") >= (Rows + 49) / 50);
        QCOMPARE(value("outbox_relay_db_up"), 1LL);
        QCOMPARE(value("outbox_relay_sink_up"), 1LL);
        QVERIFY2(scrape.body.contains("outbox_relay_info{version=\"") && scrape.body.contains(",name=\"counted\"} 1\n"),
            scrape.body.constData());
        // The backlog gauges appear with the first sample, a second after the start (the drain may be faster).
        QTRY_VERIFY_WITH_TIMEOUT(
            HttpTesting::sample(HttpTesting::get(m_network, metrics).body, "outbox_backlog_rows") >= 0, 10'000);
        QVERIFY(
            HttpTesting::sample(HttpTesting::get(m_network, metrics).body, "outbox_oldest_pending_age_seconds") >= 0);
        QVERIFY2(relay->terminate(), relay->story().constData());
    }

    // Relays killed with SIGKILL at random moments, 20 times, while draining: no row is lost, each killed relay
    // shows as gone (its sessions closed with it) in `outboxctl relays`, and the leases it left are rescued.
    void killedRelaysAreGoneAndTheirRowsAreRescued()
    {
        constexpr int Kills = 20;
        constexpr int RowsPerRound = 2'000;
        constexpr int Workers = 2;
        constexpr int BatchSize = 20;
        QTemporaryDir sinkDirectory;
        const QString events = sinkDirectory.filePath(QStringLiteral("events.jsonl"));
        PrivateCluster cluster;
        const QStringList options { QStringLiteral("--workers"), QString::number(Workers), QStringLiteral("--batch"),
            QString::number(BatchSize), QStringLiteral("--lease-seconds"), QStringLiteral("2"),
            QStringLiteral("--heartbeat-seconds"), QStringLiteral("1"), QStringLiteral("--sink"),
            QStringLiteral("file:") + events };
        QRandomGenerator random(20'261'201);
        for (int round = 0; round < Kills; ++round) {
            // Fresh rows each round, so every kill lands in the middle of a drain.
            seed(cluster, RowsPerRound, round * RowsPerRound + 1);
            const qint64 before = lineCount(events);
            auto relay = startRelay(cluster.dsn(), options);
            // A random moment in the first half of the drain.
            const qint64 killAt = before + 1 + random.bounded(RowsPerRound / 2);
            QVERIFY2(QTest::qWaitFor([&] { return lineCount(events) >= killAt || !relay->isRunning(); }, 20'000),
                relay->story().constData());
            relay->kill();
            QVERIFY2(unfinished(cluster) > 0, "the round drained before the kill");
        }
        const qint64 rows = qint64(Kills) * RowsPerRound;
        QTRY_COMPARE_WITH_TIMEOUT(relaysIn(registry(cluster.dsn()), QStringLiteral("gone")), Kills, 20'000);

        const auto survivor = startRelay(cluster.dsn(), options);
        QTRY_COMPARE_WITH_TIMEOUT(published(cluster), rows, 120'000);
        QVERIFY2(survivor->terminate(), survivor->story().constData());
        // The survivor counted the leases it took over from the killed relays.
        const QRegularExpressionMatch summary = QRegularExpression(QStringLiteral("rescued (\\d+) handed back"))
                                                    .match(QString::fromUtf8(survivor->log()));
        QVERIFY2(summary.hasMatch() && summary.captured(1).toLongLong() > 0, survivor->story().constData());
        const QJsonArray relays = registry(cluster.dsn());
        QCOMPARE(relaysIn(relays, QStringLiteral("gone")), Kills);
        QCOMPARE(relaysIn(relays, QStringLiteral("stopped")), 1);

        const QHash<QString, int> perId = deliveries(events);
        QCOMPARE(qint64(perId.size()), rows); // nothing lost
        const qint64 records = std::accumulate(perId.cbegin(), perId.cend(), qint64(0));
        // At most one line per kill unfinished, and the next writer did not glue a record onto it (which would lose
        // the record: caught above).
        QVERIFY2(lineCount(events) - records <= Kills, qPrintable(QString::number(lineCount(events) - records)));
        const qint64 duplicates = records - rows;
        const qint64 rescued = count(cluster, QStringLiteral("outbox_attempts WHERE error LIKE 'lease of % expired%'"));
        QVERIFY2(rescued > 0, survivor->story().constData());
        // A kill can cost at most the batches in flight: published, not yet marked.
        QVERIFY2(duplicates <= qint64(Kills) * Workers * BatchSize, qPrintable(QString::number(duplicates)));
        qInfo("%d kills: %lld rows, %lld duplicates (%.1f per kill), %lld leases rescued", Kills, rows, duplicates,
            double(duplicates) / Kills, rescued);
    }

    // Issue 23's guarantee under every fault at once: three relays of four workers, a sink failing 5 % of publishes
    // (in front of the file that records what was delivered, in order), and 20 SIGKILLs of a random relay at a
    // random moment, each replaced. For every key the first deliveries are increasing in id (a kill may repeat a
    // row, never overtake one); the unkeyed rows of the same run went out in parallel, out of id order. 20,000 rows:
    // the relays drain the rows of the log a lane's batch at a time (migration 0028), fast enough that 10,000 ran
    // out before the 20th kill.
    void keyedRowsStayInOrderThroughKillsOfThreeRelays()
    {
        constexpr int Kills = 20;
        constexpr int Relays = 3;
        constexpr int KeyedRows = 16'000;
        constexpr int Keys = 40;
        constexpr int UnkeyedRows = 4'000;
        QTemporaryDir sinkDirectory;
        const QString events = sinkDirectory.filePath(QStringLiteral("events.jsonl"));
        PrivateCluster cluster;
        cluster.start();
        {
            DbSession session(cluster.settings(), QStringLiteral("chaos-seed"));
            SchemaMigrator(session).migrate();
            // Interleaved, so that every claim sees keyed and unkeyed rows.
            session.exec(
                QStringLiteral("SELECT CASE WHEN g % 5 = 0 "
                               "  THEN outbox_enqueue('payment', g::text, 'payment.made', '{}', ordered => false) "
                               "  ELSE outbox_enqueue('order', (g % ?::int)::text, 'order.updated', '{}') END "
                               "FROM generate_series(1, ?::int) AS g"),
                { Keys, KeyedRows + UnkeyedRows }, QStringLiteral("seeding the outbox"));
        }
        QCOMPARE(count(cluster, QStringLiteral("outbox WHERE ordering_key IS NOT NULL")), qint64(KeyedRows));
        const QStringList options { QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--batch"),
            QStringLiteral("10"), QStringLiteral("--lease-seconds"), QStringLiteral("2"),
            QStringLiteral("--heartbeat-seconds"), QStringLiteral("1"), QStringLiteral("--backoff-base-ms"),
            QStringLiteral("10"), QStringLiteral("--backoff-max-ms"), QStringLiteral("50"),
            QStringLiteral("--max-attempts"), QStringLiteral("1000"), QStringLiteral("--sink"),
            QStringLiteral("fault:0.05>file:") + events };
        std::vector<std::unique_ptr<RelayProcess>> relays;
        for (int i = 0; i < Relays; ++i)
            relays.push_back(startRelay(cluster.dsn(), options));
        QRandomGenerator random(20'261'202);
        const qint64 rows = KeyedRows + UnkeyedRows;
        for (int kill = 0; kill < Kills; ++kill) {
            // A random moment: after 20 to 140 more deliveries.
            const qint64 killAt = lineCount(events) + 20 + random.bounded(120);
            QVERIFY2(QTest::qWaitFor([&] { return lineCount(events) >= killAt; }, 30'000),
                qPrintable(QStringLiteral("kill %1: no progress; %2 of %3 published")
                               .arg(kill)
                               .arg(published(cluster))
                               .arg(rows)));
            QVERIFY2(leftToPublish(cluster) == 1, "the outbox drained before the kills were done");
            std::unique_ptr<RelayProcess>& victim = relays.at(random.bounded(Relays));
            victim->kill();
            victim = startRelay(cluster.dsn(), options);
        }
        QTRY_COMPARE_WITH_TIMEOUT(published(cluster), rows, 180'000);

        // Who is who: the key of each id, from the table.
        QHash<qint64, QString> keyOf;
        {
            DbSession session(cluster.settings(), QStringLiteral("chaos-check"));
            QSqlQuery& q = session.exec(QStringLiteral("SELECT id, coalesce(ordering_key, '') FROM outbox"), {},
                QStringLiteral("reading keys"));
            while (q.next())
                keyOf.insert(q.value(0).toLongLong(), q.value(1).toString());
        }
        QFile file(events);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QSet<qint64> seen;
        QHash<QString, qint64> highest;
        qint64 inversions = 0;
        qint64 unkeyedOutOfOrder = 0;
        qint64 lastUnkeyed = 0;
        qint64 lines = 0;
        QString example;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().trimmed();
            if (line.isEmpty())
                continue;
            ++lines;
            const qint64 id = QJsonDocument::fromJson(line).object().value(QStringLiteral("id")).toInteger();
            if (seen.contains(id))
                continue; // a redelivery may repeat a row
            seen.insert(id);
            const QString key = keyOf.value(id);
            if (key.isEmpty()) {
                unkeyedOutOfOrder += id < lastUnkeyed ? 1 : 0;
                lastUnkeyed = std::max(lastUnkeyed, id);
                continue;
            }
            if (id < highest.value(key)) {
                ++inversions;
                if (example.isEmpty())
                    example = QStringLiteral("key %1: #%2 after #%3").arg(key).arg(id).arg(highest.value(key));
            }
            highest[key] = std::max(highest.value(key), id);
        }
        QCOMPARE(qint64(seen.size()), rows); // nothing lost
        QVERIFY2(inversions == 0, qPrintable(QStringLiteral("%1 inversions, e.g. %2").arg(inversions).arg(example)));
        QVERIFY2(unkeyedOutOfOrder > 0, "the unkeyed rows went out in id order: were they serialised with the keys?");
        const qint64 failures = count(cluster, QStringLiteral("outbox_attempts WHERE error LIKE '%injected fault%'"));
        const qint64 rescued = count(cluster, QStringLiteral("outbox_attempts WHERE error LIKE 'lease of % expired%'"));
        QVERIFY2(failures > 100, qPrintable(QString::number(failures))); // the faults did happen
        qInfo("%d kills of %d relays: %lld rows, %lld redelivered, %lld injected failures, %lld leases rescued, "
              "0 inversions over %d keys, %lld unkeyed rows out of id order",
            Kills, Relays, rows, lines - rows, failures, rescued, Keys, unkeyedOutOfOrder);
        for (const auto& relay : relays)
            QVERIFY2(relay->terminate(), relay->story().constData());
    }
};

QTEST_GUILESS_MAIN(TestRelayChaos)
#include "tst_relaychaos.moc"
