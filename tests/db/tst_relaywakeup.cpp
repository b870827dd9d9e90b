// SPDX-License-Identifier: GPL-3.0-or-later
// How fast an idle relay learns that rows became due (migration 0012, DueWatch), measured by the database's own
// timestamps; and that the wake-up costs writers nothing while no relay sleeps.
#include "common/sinkspec.h"
#include "db/dbsession.h"
#include "db/retrydelay.h"
#include "operations/outboxoperator.h"
#include "relay/duewatch.h"
#include "relay/outboxleaserepository.h"
#include "relay/outboxrelay.h"
#include "support/databasetestcase.h"
#include "support/runningrelay.h"

#include <QDeadlineTimer>
#include <QTest>

namespace {

// Fails each message's first attempt, publishes the next: the claim counts the attempts.
class FailsFirstAttemptSink final : public MessageSink {
public:
    QList<PublishResult> publish(const QList<OutboxMessage>& batch) final override
    {
        QList<PublishResult> results;
        for (const OutboxMessage& message : batch) {
            const bool first = message.attempt == 1;
            results.append({ message.id, !first, first ? QStringLiteral("refused once") : QString() });
        }
        return results;
    }
};

constexpr qint64 FallbackPollMs = 3'000;

RelayOptions idleRelayOptions(const QString& name)
{
    RelayOptions options;
    options.workerName = name;
    options.workers = 2;
    options.idlePollMs = FallbackPollMs; // a row published much sooner was not found by the poll
    options.log = [](QtMsgType, const QString&) {};
    return options;
}

} // namespace

class TestRelayWakeup final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestRelayWakeup()
        : DatabaseTestCase(QStringLiteral("relaywakeup"))
    { }

private:
    // The pid of the session holding this database's due-watch lock (a relay asleep on it), 0 if none does. Test
    // executables run in parallel, each in a database of its own: everything here is limited to this one.
    int dueWatchHolder()
    {
        return db()
            .scalar(QStringLiteral("SELECT coalesce(max(pid), 0) FROM pg_locks WHERE locktype = 'advisory' "
                                   "AND classid = ?::int::oid AND objid = ?::int::oid AND objsubid = 2 "
                                   "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                                   "AND mode = 'ExclusiveLock' AND granted"),
                { DueWatch::LockClass, DueWatch::LockObject })
            .toInt();
    }

    // Whether dueWatchHolder() was seen to be `held` (some relay asleep on the lock, or none) within `timeoutMs`.
    // Not QTRY_VERIFY: the holder comes and goes (a worker's fallback poll lets it go for a moment), and QTRY
    // evaluates its condition again after seeing it true, failing on a moment it happened to be false.
    bool sawDueWatchHeld(bool held, int timeoutMs)
    {
        QDeadlineTimer deadline(timeoutMs);
        while ((dueWatchHolder() != 0) != held) {
            if (deadline.hasExpired())
                return false;
            QTest::qWait(5);
        }
        return true;
    }

    qint64 insertRow(const QString& how)
    {
        if (how == QLatin1String("INSERT")) {
            return db()
                .scalar(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                       "dedupe_key) VALUES ('order', '1', 'order.created', '{}', "
                                       "gen_random_uuid()::text) RETURNING id"))
                .toLongLong();
        }
        return db().scalar(QStringLiteral("SELECT outbox_enqueue('order', '1', 'order.created', '{}')")).toLongLong();
    }

    // published_at - `since` in ms, once the row is published; a day if it is not within `timeoutMs`. Read from
    // outbox_messages: a row in the log is published, and when, by its lane's batch (migration 0028).
    qint64 waitForPublished(qint64 id, const QString& since, int timeoutMs)
    {
        const auto published = [&] {
            return db()
                .scalar(QStringLiteral("SELECT status = 'published' FROM outbox_messages WHERE id = ?"), { id })
                .toBool();
        };
        QDeadlineTimer deadline(timeoutMs);
        while (!published()) {
            if (deadline.hasExpired())
                return 86'400'000;
            QTest::qWait(5);
        }
        const qint64 ms = db().scalar(QStringLiteral("SELECT epoch_ms(published_at) - epoch_ms(%1) "
                                                     "FROM outbox_messages WHERE id = ?")
                                          .arg(since),
                                  { id })
                              .toLongLong();
        qInfo("row %lld published %lld ms after %s", id, ms, qPrintable(since));
        return ms;
    }

private slots:
    void aRowInsertedWhileTheRelayIdlesIsPublishedAtOnce_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("plain INSERT, as any language writes it") << QStringLiteral("INSERT");
        QTest::newRow("outbox_enqueue()") << QStringLiteral("outbox_enqueue");
    }

    // Ten rows, one at a time, each while the relay sleeps on the lock: each is published in well under a tenth
    // of the fallback poll after its creation.
    void aRowInsertedWhileTheRelayIdlesIsPublishedAtOnce()
    {
        QFETCH(QString, how);
        OutboxRelay relay(
            db().settings(), SinkSpec::parse(QStringLiteral("null")), idleRelayOptions(QStringLiteral("idle")));
        RunningRelay running(relay);
        for (int i = 0; i < 10; ++i) {
            QVERIFY(sawDueWatchHeld(true, 10'000));
            const qint64 id = insertRow(how);
            const qint64 latencyMs = waitForPublished(id, QStringLiteral("created_at"), 10'000);
            QVERIFY2(latencyMs < FallbackPollMs / 10, qPrintable(QStringLiteral("%1 ms").arg(latencyMs)));
        }
    }

    // A dead row requeued by an operator is published at once after the requeue's commit: well before the fallback
    // poll (a tenth of it; typically a few milliseconds, but a loaded CI machine takes tens).
    void aRequeuedRowIsPublishedBeforeTheFallbackPoll()
    {
        const qint64 id = insertRow(QStringLiteral("INSERT"));
        db().exec(QStringLiteral("UPDATE outbox SET status = 'dead', attempts = 10, last_error = 'refused' "
                                 "WHERE id = ?"),
            { id });
        OutboxRelay relay(
            db().settings(), SinkSpec::parse(QStringLiteral("null")), idleRelayOptions(QStringLiteral("requeue")));
        RunningRelay running(relay);
        QVERIFY(sawDueWatchHeld(true, 10'000));
        const OperatorActionReport report = OutboxOperator(session()).requeue({ id }, QStringLiteral("fixed"));
        QCOMPARE(report.changed, QList<qint64> { id });
        // From the requeue transaction's start (its audit row's time): before its commit.
        const qint64 latencyMs
            = waitForPublished(id, QStringLiteral("(SELECT max(at) FROM audit_log WHERE action = 'requeue')"), 10'000);
        QVERIFY2(latencyMs >= 0 && latencyMs < FallbackPollMs / 10, qPrintable(QStringLiteral("%1 ms").arg(latencyMs)));
    }

    // A failed row is retried at its next_attempt_at (the due watch's timer), not at the next fallback poll: within
    // a tenth of the poll (3-7 ms on a quiet machine, 56 ms seen under a loaded CI run).
    void aFailedRowIsRetriedAtItsNextAttempt()
    {
        RelayOptions options = idleRelayOptions(QStringLiteral("retry"));
        options.backoffBaseMs = 400;
        options.backoffMaxMs = 400;
        OutboxRelay relay(
            db().settings(), [] { return std::make_unique<FailsFirstAttemptSink>(); }, options);
        RunningRelay running(relay);
        QVERIFY(sawDueWatchHeld(true, 10'000));
        const qint64 id = insertRow(QStringLiteral("INSERT"));
        const qint64 lateMs = waitForPublished(id, QStringLiteral("next_attempt_at"), 10'000);
        QCOMPARE(db().scalar(QStringLiteral("SELECT attempts FROM outbox_messages WHERE id = ?"), { id }).toInt(), 2);
        QVERIFY2(lateMs >= 0 && lateMs < FallbackPollMs / 10,
            qPrintable(QStringLiteral("%1 ms after next_attempt_at").arg(lateMs)));
    }

    // Two relays asleep: one holds the lock, the other backs off and listens; a new row is published at once,
    // and by exactly one of them.
    void twoIdleRelaysWakeForARowAndPublishItOnce()
    {
        OutboxRelay first(
            db().settings(), SinkSpec::parse(QStringLiteral("null")), idleRelayOptions(QStringLiteral("first")));
        OutboxRelay second(
            db().settings(), SinkSpec::parse(QStringLiteral("null")), idleRelayOptions(QStringLiteral("second")));
        RunningRelay runningFirst(first);
        RunningRelay runningSecond(second);
        for (int i = 0; i < 10; ++i) {
            QVERIFY(sawDueWatchHeld(true, 10'000));
            const qint64 id = insertRow(QStringLiteral("INSERT"));
            const qint64 latencyMs = waitForPublished(id, QStringLiteral("created_at"), 10'000);
            QVERIFY2(latencyMs < FallbackPollMs / 10, qPrintable(QStringLiteral("%1 ms").arg(latencyMs)));
        }
        runningFirst.stop();
        runningSecond.stop();
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages "
                                            "WHERE status = 'published' AND attempts = 1"))
                     .toLongLong(),
            10LL);
    }

    // Every session of an idle relay is terminated (pg_terminate_backend); a row inserted meanwhile finds no
    // sleeper to notify. The relay reconnects (each session after RetryDelay's first wait) and publishes it within
    // the fallback poll after that.
    void aRowInsertedWhileTheRelaysSessionsAreKilledIsPublished()
    {
        OutboxRelay relay(
            db().settings(), SinkSpec::parse(QStringLiteral("null")), idleRelayOptions(QStringLiteral("killed")));
        RunningRelay running(relay);
        QVERIFY(sawDueWatchHeld(true, 10'000));
        const int killed
            = db().scalar(QStringLiteral("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                         "WHERE application_name = 'outbox-relay' AND datname = current_database()"))
                  .toInt();
        QVERIFY2(killed >= 4, qPrintable(QStringLiteral("%1 sessions").arg(killed))); // 2 workers, watch, supervisor
        QVERIFY(sawDueWatchHeld(false, 10'000));
        const qint64 id = insertRow(QStringLiteral("INSERT"));
        const qint64 latencyMs = waitForPublished(id, QStringLiteral("created_at"), 20'000);
        // Two reconnects in a row at most (the watch's, then the worker's finding its session dead), each at most
        // RetryDelay::FirstMs, and then at most the fallback poll.
        QVERIFY2(
            latencyMs <= FallbackPollMs + 2 * RetryDelay::FirstMs, qPrintable(QStringLiteral("%1 ms").arg(latencyMs)));
        QVERIFY(sawDueWatchHeld(true, 10'000));
    }

    // The trigger's rule, seen from a listener: a writer notifies only while a sleeper holds the lock; the relay's
    // own claims and completions never notify; a requeue does. Each step ends with a marker notification, which
    // the queue delivers after whatever the step's own commits sent.
    void writersNotifyOnlyWhileASleeperHoldsTheLock()
    {
        DbSession listener(db().settings(), QStringLiteral("listener"));
        listener.execScript(QStringLiteral("LISTEN outbox_due"), QStringLiteral("listening"));
        const QStringList nothing { QStringLiteral("marker") };
        const QStringList oneWakeUp { QString(), QStringLiteral("marker") };

        const qint64 quiet = insertRow(QStringLiteral("INSERT"));
        QCOMPARE(notificationsUpToAMarker(listener), nothing);

        listener.exec(QStringLiteral("SELECT pg_advisory_lock(?::int, ?::int)"),
            { DueWatch::LockClass, DueWatch::LockObject }, QStringLiteral("taking the lock"));
        const qint64 failed = insertRow(QStringLiteral("INSERT"));
        QCOMPARE(notificationsUpToAMarker(listener), oneWakeUp);

        // The relay's claims and completions, through its functions: both rows are in the log, each claimed with
        // its lane (migration 0028); one is published, the other fails and is due again in an hour.
        OutboxLeaseRepository lease(session());
        QList<OutboxMessage> claimed;
        for (int claim = 0; claim < 2; ++claim)
            claimed += lease.claimDue(QStringLiteral("r"), QStringLiteral("w"), 10, 60'000).messages;
        QCOMPARE(claimed.size(), 2);
        for (const OutboxMessage& message : std::as_const(claimed)) {
            if (message.id == quiet) {
                QCOMPARE(lease.markPublished({ { message.id, message.leaseToken } }).size(), 1);
            } else {
                QCOMPARE(message.id, failed);
                QCOMPARE(lease
                             .markFailed(QStringLiteral("w"),
                                 { { message.id, message.leaseToken, QStringLiteral("refused"), 3'600'000 } }, 5)
                             .size(),
                    1);
            }
        }
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(status, ',' ORDER BY id) FROM outbox_messages "
                                            "WHERE id IN (?, ?) AND (status = 'published' "
                                            "  OR next_attempt_at > now() + interval '59 minutes')"),
                         { quiet, failed })
                     .toString(),
            QStringLiteral("published,failed"));
        QCOMPARE(notificationsUpToAMarker(listener), nothing);

        db().exec(
            QStringLiteral("UPDATE outbox SET status = 'pending', next_attempt_at = now() WHERE id = ?"), { failed });
        QCOMPARE(notificationsUpToAMarker(listener), oneWakeUp);
    }

private:
    // What `listener` receives on outbox_due up to and including a marker notified now, in order.
    QStringList notificationsUpToAMarker(DbSession& listener)
    {
        db().exec(QStringLiteral("SELECT pg_notify('outbox_due', 'marker')"));
        QStringList received = listener.takeNotifications();
        QDeadlineTimer deadline(10'000);
        while (!received.contains(QStringLiteral("marker")) && !deadline.hasExpired()) {
            listener.waitForNotification(deadline.remainingTime(), -1);
            received += listener.takeNotifications();
        }
        return received;
    }
};

QTEST_GUILESS_MAIN(TestRelayWakeup)
#include "tst_relaywakeup.moc"
