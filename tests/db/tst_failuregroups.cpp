// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/outboxoperator.h"
#include "outbox/failuregrouprepository.h"
#include "outbox/signaturebackfill.h"
#include "support/databasetestcase.h"

#include <QTest>
#include <algorithm>

// Failure groups: failed and dead rows by the signature of their last error, with exact counts, the event types
// they touch, when they were first and last seen; the backfill that signs old rows; Retry group.
class TestFailureGroups final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestFailureGroups()
        : DatabaseTestCase(QStringLiteral("failuregroups"))
    { }

private:
    static constexpr const char* Size = "message size <n> larger than max <n>";
    static constexpr const char* Refused = "connect to <host> failed: Connection refused";
    static constexpr const char* Route = "returned by the broker: <n> NO_ROUTE (exchange '<str>', routing key '<str>')";

    // `rows` rows in `status` of `eventType` whose last error is `errorSql` (an SQL expression of g, the row's
    // number), each with one attempt row carrying the same error `minutesAgo` minutes ago.
    void seed(int rows, const QString& status, const QString& eventType, const QString& errorSql, int minutesAgo = 1)
    {
        db().exec(QStringLiteral("WITH new AS ("
                                 "  INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                 "    status, attempts, last_error) "
                                 "  SELECT 'order', g::text, ?::text, '{}', md5(random()::text), ?::text, 3, %1 "
                                 "  FROM generate_series(1, ?::int) g RETURNING id, last_error) "
                                 "INSERT INTO outbox_attempts (outbox_id, attempt, worker, error, created_at) "
                                 "SELECT id, 3, 'w', last_error, now() - ?::int * interval '1 minute' FROM new")
                      .arg(errorSql),
            { eventType, status, rows, minutesAgo });
    }

    // Three causes with varying numbers, hosts and names inside each, spread over statuses and event types; plus
    // rows that must not count: published and pending rows with old errors.
    void seedCauses()
    {
        seed(7, QStringLiteral("failed"), QStringLiteral("order.created"),
            QStringLiteral("'message size ' || (g * 977) || ' larger than max ' || (g + 16384)"), 30);
        seed(3, QStringLiteral("dead"), QStringLiteral("order.paid"),
            QStringLiteral("'message size ' || g || ' larger than max 512'"), 5);
        seed(4, QStringLiteral("failed"), QStringLiteral("order.created"),
            QStringLiteral("'connect to 10.0.0.' || g || ':5672 failed: Connection refused'"), 2);
        seed(2, QStringLiteral("dead"), QStringLiteral("order.shipped"),
            QStringLiteral("'returned by the broker: 312 NO_ROUTE (exchange ''orders'', routing key ''order.x' || g "
                           "|| ''')'"),
            60);
        seed(5, QStringLiteral("published"), QStringLiteral("order.created"),
            QStringLiteral("'connect to 10.0.0.' || g || ':5672 failed: Connection refused'"));
        seed(6, QStringLiteral("pending"), QStringLiteral("order.created"),
            QStringLiteral("'message size ' || g || ' larger than max 1'"));
    }

    FailureGroup groupOf(const QList<FailureGroup>& groups, const char* signature)
    {
        const auto it = std::find_if(groups.cbegin(), groups.cend(),
            [&](const FailureGroup& group) { return group.signature == QLatin1String(signature); });
        return it == groups.cend() ? FailureGroup() : *it;
    }

    // "signature|failed|dead" per group: as the maintained sizes say, and as the rows are.
    QString sizesByCounts()
    {
        return db()
            .scalar(QStringLiteral("SELECT coalesce(string_agg(concat_ws('|', signature, failed, dead), E'\\n' "
                                   "ORDER BY signature), '') FROM outbox_failure_group_sizes(ARRAY['failed', 'dead'], "
                                   "NULL)"))
            .toString();
    }
    QString sizesByRows()
    {
        return db()
            .scalar(QStringLiteral(
                "SELECT coalesce(string_agg(concat_ws('|', signature, failed, dead), E'\\n' ORDER BY signature), '') "
                "FROM (SELECT error_signature AS signature, count(*) FILTER (WHERE status = 'failed') AS failed, "
                "  count(*) FILTER (WHERE status = 'dead') AS dead FROM outbox "
                "  WHERE status IN ('failed', 'dead') AND error_signature IS NOT NULL GROUP BY 1) g"))
            .toString();
    }
    qint64 countRows()
    {
        return db().scalar(QStringLiteral("SELECT count(*) FROM outbox_failure_counts")).toLongLong();
    }

private slots:
    void initTestCase() { setUpDatabase(); }
    void init() { db().reset(); }
    void cleanupTestCase() { tearDownDatabase(); }

    void groupsCountExactlyWhatNeedsAnOperator()
    {
        seedCauses();
        const QList<FailureGroup> groups = FailureGroupRepository(session()).groups({});
        QCOMPARE(groups.size(), 3);
        QCOMPARE(groups.at(0).signature, QLatin1String(Size)); // largest first
        QCOMPARE(groups.at(1).signature, QLatin1String(Refused));
        QCOMPARE(groups.at(2).signature, QLatin1String(Route));

        const FailureGroup& size = groups.at(0);
        QCOMPARE(size.failed, 7LL);
        QCOMPARE(size.dead, 3LL);
        QCOMPARE(size.rows(), 10LL);
        QCOMPARE(size.eventTypes, (QStringList { QStringLiteral("order.created"), QStringLiteral("order.paid") }));
        QCOMPARE(size.id,
            db().scalar(QStringLiteral("SELECT outbox_signature_id(?::text)"), { QLatin1String(Size) }).toString());
        QCOMPARE(size.id.size(), 12);
        // First and last seen come from the attempts: 30 and 5 minutes ago (the pending rows' attempts are 1 minute
        // old but carry another number in "max", which the signature drops: they count for when it was seen).
        const qint64 lastSeenMinutes = size.lastSeen.secsTo(QDateTime::currentDateTimeUtc()) / 60;
        const qint64 firstSeenMinutes = size.firstSeen.secsTo(QDateTime::currentDateTimeUtc()) / 60;
        QVERIFY2(firstSeenMinutes >= 29 && firstSeenMinutes <= 31, qPrintable(QString::number(firstSeenMinutes)));
        QVERIFY2(lastSeenMinutes <= 2, qPrintable(QString::number(lastSeenMinutes)));
        // The sample is one of the group's rows, with its full text.
        QVERIFY(db().scalar(QStringLiteral("SELECT status IN ('failed', 'dead') AND error_signature = ?::text "
                                           "FROM outbox WHERE id = ?::bigint"),
                        { QLatin1String(Size), size.sampleId })
                    .toBool());
        QVERIFY2(size.sampleError.startsWith(QStringLiteral("message size ")), qPrintable(size.sampleError));
        QVERIFY(!size.sampleError.contains(QStringLiteral("<n>")));

        const FailureGroup& refused = groups.at(1);
        QCOMPARE(refused.failed, 4LL); // the published rows with the same cause do not count
        QCOMPARE(refused.dead, 0LL);
        QCOMPARE(refused.eventTypes, QStringList { QStringLiteral("order.created") });
        QCOMPARE(groups.at(2).dead, 2LL);
    }

    void groupsFilterByStatusAndRecency()
    {
        seedCauses();
        FailureGroupFilter deadOnly;
        deadOnly.statuses = { OutboxStatus::Dead };
        const QList<FailureGroup> dead = FailureGroupRepository(session()).groups(deadOnly);
        QCOMPARE(dead.size(), 2);
        QCOMPARE(groupOf(dead, Size).dead, 3LL);
        QCOMPARE(groupOf(dead, Size).failed, 0LL);
        QCOMPARE(groupOf(dead, Size).eventTypes.size(), 2); // event types are the group's, whatever the filter

        FailureGroupFilter recent;
        recent.seenSince = QDateTime::currentDateTimeUtc().addSecs(-10LL * 60);
        const QList<FailureGroup> lastTenMinutes = FailureGroupRepository(session()).groups(recent);
        QCOMPARE(lastTenMinutes.size(), 2); // NO_ROUTE was last seen an hour ago
        QVERIFY(groupOf(lastTenMinutes, Route).signature.isEmpty());

        FailureGroupFilter one;
        one.limit = 1;
        QCOMPARE(FailureGroupRepository(session()).groups(one).size(), 1);
        QVERIFY(FailureGroupRepository(session()).signatureWithId(QStringLiteral("000000000000")) == std::nullopt);
        QCOMPARE(
            FailureGroupRepository(session()).signatureWithId(groupOf(dead, Route).id), QString::fromLatin1(Route));
    }

    // The group sizes are kept by the transactions that change rows (migration 0008's triggers), whoever writes:
    // after every kind of change they equal a count of the rows, and folding the deltas changes nothing but their
    // number.
    void maintainedSizesFollowEveryChange()
    {
        seedCauses();
        QCOMPARE(sizesByCounts(), sizesByRows());
        QVERIFY(!sizesByRows().isEmpty());
        const auto step = [&](const char* change, const QString& sql) {
            db().exec(sql);
            if (sizesByCounts() != sizesByRows())
                qWarning("after %s:\n%s\nrows:\n%s", change, qPrintable(sizesByCounts()), qPrintable(sizesByRows()));
            return sizesByCounts() == sizesByRows();
        };
        QVERIFY(step("a requeue",
            QStringLiteral("UPDATE outbox SET status = 'pending' WHERE id IN "
                           "(SELECT id FROM outbox WHERE status = 'dead' LIMIT 2)")));
        QVERIFY(step("a lease",
            QStringLiteral("UPDATE outbox SET status = 'in_flight', lease_owner = 'w', "
                           "lease_expires_at = now() WHERE status = 'failed' AND id % 2 = 0")));
        QVERIFY(step("failing again with another error",
            QStringLiteral("UPDATE outbox SET status = 'failed', lease_owner = NULL, lease_expires_at = NULL, "
                           "last_error = 'publish not confirmed within ' || id || ' ms' WHERE status = 'in_flight'")));
        QVERIFY(step("giving up",
            QStringLiteral("UPDATE outbox SET status = 'dead' WHERE status = 'failed' "
                           "AND last_error LIKE 'publish%' AND id % 3 = 0")));
        QVERIFY(step("a new error on a failed row, status unchanged",
            QStringLiteral("UPDATE outbox SET last_error = 'invalid JSON at offset 3' WHERE id = "
                           "(SELECT min(id) FROM outbox WHERE status = 'failed')")));
        QVERIFY(step("a purge", QStringLiteral("DELETE FROM outbox WHERE status = 'dead' AND id % 2 = 1")));
        QVERIFY(step("a write in another language",
            QStringLiteral(
                "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, "
                "last_error) VALUES ('o', '1', 'e', '{}', 'other', 'dead', 'message size 5 larger than max 4')")));
        QVERIFY(step("publishing", QStringLiteral("UPDATE outbox SET status = 'published' WHERE status = 'pending'")));

        const qint64 deltas = countRows();
        QVERIFY(FailureGroupRepository(session()).foldCounts() == deltas);
        QCOMPARE(sizesByCounts(), sizesByRows());
        // One row per group and status is left, and a second fold has nothing to do.
        QCOMPARE(countRows(),
            db().scalar(QStringLiteral("SELECT count(DISTINCT (error_signature, status)) FROM outbox "
                                       "WHERE status IN ('failed', 'dead') AND error_signature IS NOT NULL"))
                .toLongLong());
        QCOMPARE(FailureGroupRepository(session()).foldCounts(), int(countRows()));
        QCOMPARE(sizesByCounts(), sizesByRows());

        session().execScript(QStringLiteral("TRUNCATE outbox CASCADE"), QStringLiteral("truncating"));
        QCOMPARE(countRows(), 0LL);
    }

    // Writers only add delta rows: two transactions failing rows of the same group at once never wait for each
    // other (the second would hit its lock timeout), and a fold leaves the deltas of transactions still open alone.
    void concurrentFailuresOfOneGroupNeverWait()
    {
        seed(4, QStringLiteral("pending"), QStringLiteral("order.created"), QStringLiteral("'an old error'"));
        const auto first = db().openSession(QStringLiteral("first"));
        const auto second = db().openSession(QStringLiteral("second"));
        for (DbSession* writer : { first.get(), second.get() }) {
            writer->execScript(QStringLiteral("SET lock_timeout = '2s'; BEGIN"), QStringLiteral("opening"));
        }
        const QString fail
            = QStringLiteral("UPDATE outbox SET status = 'failed', last_error = 'connect to 10.0.0.%1:5672 "
                             "failed: Connection refused' WHERE id IN (%2)");
        first->execScript(fail.arg(1).arg(QStringLiteral("1, 2")), QStringLiteral("failing"));
        second->execScript(fail.arg(2).arg(QStringLiteral("3, 4")), QStringLiteral("failing"));
        // A fold now sees neither transaction's deltas and must keep them.
        FailureGroupRepository(session()).foldCounts();
        first->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        FailureGroupRepository(session()).foldCounts();
        second->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        QCOMPARE(sizesByCounts(), QStringLiteral("%1|4|0").arg(QLatin1String(Refused)));
        QCOMPARE(sizesByCounts(), sizesByRows());
    }

    // Only one fold runs at a time; another caller returns at once instead of waiting.
    void aSecondFoldDoesNotWait()
    {
        seedCauses();
        const auto folding = db().openSession(QStringLiteral("folding"));
        folding->execScript(QStringLiteral("BEGIN; SELECT outbox_fold_failure_counts()"), QStringLiteral("folding"));
        QCOMPARE(FailureGroupRepository(session()).foldCounts(), 0);
        folding->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        QCOMPARE(sizesByCounts(), sizesByRows());
    }

    // Rows recorded before migration 0005 have no signature; the backfill signs them in batches, and signs nothing
    // the second time.
    void backfillSignsOldFailures()
    {
        seedCauses();
        db().exec(QStringLiteral("UPDATE outbox SET error_signature = NULL"));
        db().exec(QStringLiteral("UPDATE outbox_attempts SET signature = NULL"));
        QVERIFY(FailureGroupRepository(session()).groups({}).isEmpty());
        QList<SignatureBackfill::Result> progress;
        const SignatureBackfill::Result result
            = SignatureBackfill(session(), 7).run([&](const SignatureBackfill::Result& step) {
                  progress.append(step);
              });
        QCOMPARE(result.outboxRows, 27LL); // every row has an error, whatever its status
        QCOMPARE(result.attemptRows, 27LL);
        QVERIFY(progress.size() >= qsizetype(27 / 7) * 2); // batch by batch
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE error_signature IS NULL")).toLongLong(), 0);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE error_signature <> "
                                            "outbox_error_signature(last_error)"))
                     .toLongLong(),
            0);
        QCOMPARE(FailureGroupRepository(session()).groups({}).size(), 3);
        const SignatureBackfill::Result again = SignatureBackfill(session(), 7).run();
        QCOMPARE(again.outboxRows + again.attemptRows, 0LL);
    }

    // Retry group: the group's rows as they were at confirmation; a row that changed meanwhile is skipped and
    // reported, the other groups are untouched, and the audit log says who, why and which rows.
    void retryGroupRequeuesExactlyTheFrozenGroup()
    {
        seedCauses();
        OutboxFilter group;
        group.statuses = failureStatuses();
        group.errorSignature = QLatin1String(Size);
        OutboxOperator outboxOperator(session());
        const QList<qint64> frozen = outboxOperator.freeze(group, 1000);
        QCOMPARE(frozen.size(), 10);
        const qint64 changed = frozen.at(4);
        db().exec(
            QStringLiteral("UPDATE outbox SET status = 'pending', attempts = 0 WHERE id = ?::bigint"), { changed });
        // A row joining the group after the confirmation is not part of it either.
        seed(1, QStringLiteral("failed"), QStringLiteral("order.created"),
            QStringLiteral("'message size 1 larger than max 2'"));

        const OperatorActionReport report = outboxOperator.requeue(frozen, QStringLiteral("max frame size raised"));
        QCOMPARE(report.changed.size(), 9);
        QCOMPARE(report.leftAlone, QList<qint64> { changed });
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE error_signature = ?::text "
                                            "AND status IN ('failed', 'dead')"),
                         { QLatin1String(Size) })
                     .toLongLong(),
            1LL); // only the late one
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE error_signature = ?::text "
                                            "AND status IN ('failed', 'dead')"),
                         { QLatin1String(Refused) })
                     .toLongLong(),
            4LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT reason || ' ' || cardinality(entity_ids) FROM audit_log "
                                            "WHERE action = 'requeue'"))
                     .toString(),
            QStringLiteral("max frame size raised 9"));
    }
};

QTEST_GUILESS_MAIN(TestFailureGroups)
#include "tst_failuregroups.moc"
