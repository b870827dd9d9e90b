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
        group.statuses = requeueableStatuses();
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
        QCOMPARE(report.skipped, QList<qint64> { changed });
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
