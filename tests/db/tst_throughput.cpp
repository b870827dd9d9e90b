// SPDX-License-Identifier: GPL-3.0-or-later
// The relays' seconds (migration 0020): what each second published and failed per event type, stamped by the
// database's clock, complete up to where every running relay counted, and kept for 15 minutes only.
#include "db/dbsession.h"
#include "db/unitofwork.h"
#include "metrics/throughputrecorder.h"
#include "metrics/throughputrepository.h"
#include "relay/outboxrelay.h"
#include "relay/relayregistry.h"
#include "support/databasetestcase.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTest>

namespace {

// Fails every message whose payload's n is a multiple of five, publishes the others.
class EveryFifthFails final : public MessageSink {
public:
    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override
    {
        QList<PublishResult> results;
        for (const OutboxMessage& message : batch) {
            const int n = QJsonDocument::fromJson(message.payload).object().value(QStringLiteral("n")).toInt();
            results.append({ message.id, n % 5 != 0, n % 5 == 0 ? QStringLiteral("refused") : QString() });
        }
        return results;
    }
};

} // namespace

class TestThroughput final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestThroughput()
        : DatabaseTestCase(QStringLiteral("throughput"))
    { }

private:
    qint64 scalar(const QString& sql, const QVariantList& binds = {}) { return db().scalar(sql, binds).toLongLong(); }

    qint64 registerRelay(const QString& name)
    {
        RelayRegistration registration;
        registration.name = name;
        registration.host = QStringLiteral("test-host");
        registration.version = QStringLiteral("test");
        registration.sink = QStringLiteral("null:");
        registration.leaseMs = 30'000;
        registration.heartbeatMs = 60'000;
        return RelayRegistry(session()).registerNode(registration);
    }

private slots:
    // A relay's seconds add up to what it did: per event type, the rows it published, the attempts that failed and
    // the ones of those that left a row dead; and it has counted every second up to its stop.
    void aRelaysSecondsAddUpToWhatItDid()
    {
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', g::text, CASE WHEN g % 2 = 0 THEN 'order.created' "
                                 "  ELSE 'order.shipped' END, jsonb_build_object('n', g)) "
                                 "FROM generate_series(1, 200) AS g"));
        RelayOptions options;
        options.workerName = QStringLiteral("counting-relay");
        options.workers = 2;
        options.batchSize = 16;
        options.once = true;
        options.maxAttempts = 1; // a failure is dead at once: each failing row is one failed and one dead attempt
        options.log = [](QtMsgType, const QString&) {};
        OutboxRelay relay(
            db().settings(), [] { return std::make_unique<EveryFifthFails>(); }, options);
        relay.run();

        for (const QString& type : { QStringLiteral("order.created"), QStringLiteral("order.shipped") }) {
            const qint64 published = scalar(
                QStringLiteral("SELECT count(*) FROM outbox_messages WHERE event_type = ? AND status = 'published'"),
                { type });
            const qint64 dead = scalar(
                QStringLiteral("SELECT count(*) FROM outbox_messages WHERE event_type = ? AND status = 'dead'"),
                { type });
            QVERIFY(published > 0 && dead > 0);
            QCOMPARE(scalar(QStringLiteral("SELECT sum(published) FROM outbox_throughput_seconds WHERE event_type = ?"),
                         { type }),
                published);
            QCOMPARE(scalar(QStringLiteral("SELECT sum(failed) FROM outbox_throughput_seconds WHERE event_type = ?"),
                         { type }),
                dead);
            QCOMPARE(scalar(QStringLiteral("SELECT sum(dead) FROM outbox_throughput_seconds WHERE event_type = ?"),
                         { type }),
                dead);
        }
        // Stamped by the database's clock, within the run.
        QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM outbox_throughput_seconds "
                                       "WHERE second > now() OR second < now() - interval '1 minute'")),
            0LL);
    }

    // The current second stays with the relay until it ends: a part of a second added as if whole would read as a
    // drop in the rate.
    void onlyEndedSecondsAreAdded()
    {
        const qint64 relayId = registerRelay(QStringLiteral("r1"));
        // Recorded and flushed within one second of this machine's clock (again if the second turned in between).
        std::unique_ptr<ThroughputRecorder> recorder;
        for (;;) {
            recorder = std::make_unique<ThroughputRecorder>();
            const qint64 second = QDateTime::currentSecsSinceEpoch();
            recorder->record(QStringLiteral("order.created"), { 3, 1, 0 });
            recorder->flush(session(), relayId);
            if (QDateTime::currentSecsSinceEpoch() == second)
                break;
            db().exec(QStringLiteral("DELETE FROM outbox_throughput_seconds"));
        }
        QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM outbox_throughput_seconds")), 0LL);
        // The relay has counted every second but the last one or two, though it added none: one second short of
        // the flush's own, since its seconds and the database's turn at different instants.
        QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM relay_nodes WHERE id = ? AND counted_until BETWEEN "
                                       "date_trunc('second', now()) - interval '2 seconds' AND "
                                       "date_trunc('second', now()) - interval '1 second'"),
                     { relayId }),
            1LL);
        const qint64 recorded = QDateTime::currentSecsSinceEpoch();
        QVERIFY(QTest::qWaitFor([&] { return QDateTime::currentSecsSinceEpoch() > recorded; }));
        recorder->flush(session(), relayId);
        QCOMPARE(
            scalar(QStringLiteral("SELECT sum(published) * 10 + sum(failed) FROM outbox_throughput_seconds")), 31LL);
        // A stopping relay adds the current second too.
        recorder->record(QStringLiteral("order.created"), { 5, 0, 0 });
        recorder->flush(session(), relayId, ThroughputRecorder::Seconds::All);
        QCOMPARE(scalar(QStringLiteral("SELECT sum(published) FROM outbox_throughput_seconds")), 8LL);
    }

    // Seconds are stamped by the database's clock whatever the relay host's says: a second's age is what travels.
    // Two relay seconds landing on one database second add up; so do two relays' counts of one second.
    void secondsAreStampedByTheDatabasesClock()
    {
        // In one transaction: now() stands still.
        UnitOfWork uow(session());
        ThroughputRepository repository(session());
        // Within one addition (summed before the insert) and across two (the upsert).
        repository.add({ { 3, QStringLiteral("a"), 1, 0, 0 }, { 1, QStringLiteral("a"), 2, 1, 1 },
            { 1, QStringLiteral("a"), 3, 0, 0 } });
        repository.add({ { 1, QStringLiteral("a"), 1, 0, 0 }, { 1, QStringLiteral("b"), 8, 0, 0 } });
        QSqlQuery& q = session().exec(
            QStringLiteral("SELECT extract(epoch FROM date_trunc('second', now()) - second)::int, event_type, "
                           "  published, failed, dead FROM outbox_throughput_seconds ORDER BY second, event_type"),
            {}, QStringLiteral("reading the seconds"));
        QStringList rows;
        while (q.next()) {
            rows << QStringLiteral("%1 s ago %2: %3/%4/%5")
                        .arg(q.value(0).toInt())
                        .arg(q.value(1).toString())
                        .arg(q.value(2).toInt())
                        .arg(q.value(3).toInt())
                        .arg(q.value(4).toInt());
        }
        QCOMPARE(rows,
            QStringList({ QStringLiteral("3 s ago a: 1/0/0"), QStringLiteral("1 s ago a: 6/1/1"),
                QStringLiteral("1 s ago b: 8/0/0") }));
        uow.commit();
    }

    // Seconds older than the window go as relays add new ones, so the table stays the window's size.
    void oldSecondsExpire()
    {
        db().exec(QStringLiteral("INSERT INTO outbox_throughput_seconds (second, event_type, published) VALUES "
                                 "(date_trunc('second', now()) - interval '901 seconds', 'a', 1), "
                                 "(date_trunc('second', now()) - interval '899 seconds', 'a', 1)"));
        ThroughputRecorder recorder;
        recorder.flush(session(), 0);
        QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM outbox_throughput_seconds")), 1LL);
    }

    // The window has a point for every second, zero where nothing happened, of one type or all; its seconds are
    // complete up to the running relay that counted least far, and a relay that stopped heartbeating holds nobody
    // back.
    void theWindowIsCompleteWhereEveryRunningRelayCounted()
    {
        const qint64 first = registerRelay(QStringLiteral("r1"));
        const qint64 second = registerRelay(QStringLiteral("r2"));
        const qint64 stale = registerRelay(QStringLiteral("r3"));
        db().exec(QStringLiteral("UPDATE relay_nodes SET counted_until = date_trunc('second', now()) - CASE id "
                                 "  WHEN ?::bigint THEN interval '2 seconds' WHEN ?::bigint THEN interval '5 seconds' "
                                 "  ELSE interval '1 minute' END"),
            { first, second });
        db().exec(
            QStringLiteral("UPDATE relay_nodes SET last_seen = now() - interval '30 minutes' WHERE id = ?"), { stale });
        // Stamped from one reading of the clock: the window below is read a moment later, perhaps in the next second.
        const qint64 tenAgo
            = scalar(QStringLiteral("SELECT epoch_ms(date_trunc('second', now()) - interval '10 seconds')"));
        db().exec(QStringLiteral("INSERT INTO outbox_throughput_seconds (second, event_type, published, failed) "
                                 "SELECT to_timestamp(?::bigint / 1000.0) + s * interval '1 second', t, p, f "
                                 "FROM (VALUES (0, 'a', 4, 1), (0, 'b', 2, 0), (3, 'b', 1, 0)) AS v(s, t, p, f)"),
            { tenAgo });
        const auto at = [](const ThroughputRepository::Window& window, qint64 ms) {
            for (const MetricPoint& point : window.points) {
                if (point.start.toMSecsSinceEpoch() == ms)
                    return point.counters;
            }
            return MetricCounters { .requests = -1 };
        };
        const ThroughputRepository::Window all = ThroughputRepository(session()).lastSeconds(60, {});
        QCOMPARE(all.points.size(), 60);
        for (qsizetype i = 1; i < all.points.size(); ++i)
            QCOMPARE(all.points.at(i).start.toMSecsSinceEpoch() - all.points.at(i - 1).start.toMSecsSinceEpoch(), 1000);
        QCOMPARE(all.runningRelays, 2);
        QCOMPARE(all.countedUntil.toMSecsSinceEpoch(),
            scalar(QStringLiteral("SELECT epoch_ms(counted_until) FROM relay_nodes WHERE id = ?"), { second }));
        // Complete up to the least counted running relay's mark, and never the second still running.
        for (const MetricPoint& point : all.points) {
            QCOMPARE(ThroughputRepository::isComplete(all, point), point.start.addSecs(1) <= all.countedUntil);
        }
        QVERIFY(!ThroughputRepository::isComplete(all, all.points.last()));
        QVERIFY(ThroughputRepository::isComplete(all, all.points.first()));
        QCOMPARE(at(all, tenAgo).published, 6LL);
        QCOMPARE(at(all, tenAgo).failedAttempts, 1LL);
        QCOMPARE(at(all, tenAgo + 3000).published, 1LL);
        qint64 total = 0;
        for (const MetricPoint& point : all.points)
            total += point.counters.published;
        QCOMPARE(total, 7LL);
        // A relay that just started holds back no second before it ran: it registers as having counted them.
        const qint64 fresh = registerRelay(QStringLiteral("r4"));
        QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM relay_nodes WHERE id = ? AND counted_until BETWEEN "
                                       "date_trunc('second', now()) - interval '2 seconds' AND "
                                       "date_trunc('second', now()) - interval '1 second'"),
                     { fresh }),
            1LL);
        QCOMPARE(ThroughputRepository(session()).lastSeconds(60, {}).countedUntil.toMSecsSinceEpoch(),
            scalar(QStringLiteral("SELECT epoch_ms(counted_until) FROM relay_nodes WHERE id = ?"), { second }));
        // One that does not say (registered before schema 20) makes no second complete.
        db().exec(QStringLiteral("UPDATE relay_nodes SET counted_until = NULL WHERE id = ?"), { fresh });
        const ThroughputRepository::Window unsaid = ThroughputRepository(session()).lastSeconds(60, {});
        QVERIFY(!unsaid.countedUntil.isValid());
        QCOMPARE(unsaid.runningRelays, 3);
        QVERIFY(!ThroughputRepository::isComplete(unsaid, unsaid.points.first()));
        db().exec(QStringLiteral("DELETE FROM relay_nodes WHERE id = ?"), { fresh });
        const ThroughputRepository::Window b = ThroughputRepository(session()).lastSeconds(60, QStringLiteral("b"));
        QCOMPARE(at(b, tenAgo).published, 2LL);
        QCOMPARE(at(b, tenAgo).failedAttempts, 0LL);
        const ThroughputRepository::Window none
            = ThroughputRepository(session()).lastSeconds(60, QStringLiteral("no such type"));
        QCOMPARE(none.points.size(), 60);
        QCOMPARE(at(none, tenAgo).published, 0LL);
    }
};

QTEST_GUILESS_MAIN(TestThroughput)
#include "tst_throughput.moc"
