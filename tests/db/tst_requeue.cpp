// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "operations/auditrepository.h"
#include "operations/outboxoperator.h"
#include "outbox/outboxreadrepository.h"
#include "support/databasetestcase.h"
#include "support/querytesting.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

class TestRequeue final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestRequeue()
        : DatabaseTestCase(QStringLiteral("requeue"))
    { }

private:
    // One row per status, ids 1..5 in this order.
    void seedOnePerStatus()
    {
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, ordering_key, status, "
            "  attempts, last_error, lease_owner, lease_expires_at) "
            "SELECT 'order', s.n::text, 'order.created', '{}', 'k' || s.n, 'order:' || s.n, s.status, 3, s.error, "
            "  CASE WHEN s.status = 'in_flight' THEN 'w' END, CASE WHEN s.status = 'in_flight' THEN now() END "
            "FROM (VALUES (1, 'pending', NULL), (2, 'in_flight', NULL), (3, 'published', NULL), "
            "  (4, 'failed', 'broker unavailable'), (5, 'dead', 'rate 100% exceeded')) AS s(n, status, error)"));
    }

    void seedDead(int rows)
    {
        db().exec(QStringLiteral(
                      "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                      "  status, attempts, last_error) "
                      "SELECT 'order', g::text, 'order.created', '{}', gen_random_uuid()::text, 'dead', 10, 'boom' "
                      "FROM generate_series(1, ?::int) g"),
            { rows });
    }

    static OutboxFilter deadRows()
    {
        OutboxFilter filter;
        filter.statuses = { OutboxStatus::Dead };
        return filter;
    }

    QString statusOf(qint64 id)
    {
        return db().scalar(QStringLiteral("SELECT status FROM outbox WHERE id = ?::bigint"), { id }).toString();
    }

    // The two actions on failed and dead rows, as the data of a test: requeue and discard share their rules.
    static void addActions()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("after");
        QTest::newRow("requeue") << QStringLiteral("requeue") << QStringLiteral("pending");
        QTest::newRow("discard") << QStringLiteral("discard") << QStringLiteral("discarded");
    }

    static OperatorActionReport act(
        OutboxOperator& op, const QString& action, const QList<qint64>& ids, const QString& reason)
    {
        return action == QLatin1String("discard") ? op.discard(ids, reason) : op.requeue(ids, reason);
    }

private slots:
    void onlyFailedAndDeadRowsMove_data() { addActions(); }

    void onlyFailedAndDeadRowsMove()
    {
        QFETCH(QString, action);
        QFETCH(QString, after);
        seedOnePerStatus();
        OutboxOperator op(session());
        const OperatorActionReport report = act(op, action, { 1, 2, 3, 4, 5 }, QStringLiteral("broker is back"));
        QCOMPARE(report.changed, (QList<qint64> { 4, 5 }));
        QCOMPARE(report.leftAlone, (QList<qint64> { 1, 2, 3 }));
        QCOMPARE(statusOf(1), QStringLiteral("pending"));
        QCOMPARE(statusOf(2), QStringLiteral("in_flight"));
        QCOMPARE(statusOf(3), QStringLiteral("published"));
        QCOMPARE(statusOf(4), after);
        QCOMPARE(statusOf(5), after);
        // A requeue starts a fresh attempt budget; a discard keeps the count of attempts the row failed.
        QCOMPARE(db().scalar(QStringLiteral("SELECT attempts FROM outbox WHERE id = 5")).toInt(),
            action == QLatin1String("discard") ? 3 : 0);

        const QList<AuditEntry> audit = AuditRepository(session()).forEntity(QStringLiteral("outbox"), 5, 10);
        QCOMPARE(audit.size(), 1);
        QCOMPARE(audit.first().action, action);
        QCOMPARE(audit.first().reason, QStringLiteral("broker is back"));
        QCOMPARE(audit.first().actor, session().currentUser());
        QCOMPARE(audit.first().entityIds, (QList<qint64> { 4, 5 }));
        QCOMPARE(QJsonDocument::fromJson(audit.first().stateBefore).object(),
            (QJsonObject {
                { QStringLiteral("4"), QStringLiteral("failed") }, { QStringLiteral("5"), QStringLiteral("dead") } }));
        QCOMPARE(QJsonDocument::fromJson(audit.first().stateAfter).object(),
            (QJsonObject { { QStringLiteral("4"), after }, { QStringLiteral("5"), after } }));
        QVERIFY(AuditRepository(session()).forEntity(QStringLiteral("outbox"), 1, 10).isEmpty());
    }

    // Discard is reversible: a retry brings a discarded row back to pending with a fresh budget, and its audit
    // entry starts from discarded. A second discard of it finds it in no state it applies to.
    void aRetryBringsADiscardedRowBack()
    {
        seedOnePerStatus();
        const QString groupedRows
            = QStringLiteral("SELECT coalesce(sum(failed + dead), 0) FROM outbox_failure_group_sizes()");
        QCOMPARE(db().scalar(groupedRows).toLongLong(), 2LL);
        OutboxOperator op(session());
        QCOMPARE(op.discard({ 4, 5 }, QStringLiteral("obsolete")).changed, (QList<qint64> { 4, 5 }));
        const OperatorActionReport again = op.discard({ 4, 5 }, QStringLiteral("twice"));
        QVERIFY(again.changed.isEmpty());
        QCOMPARE(again.leftAlone, (QList<qint64> { 4, 5 }));

        const OperatorActionReport retried = op.requeue({ 3, 5 }, QStringLiteral("needed after all"));
        QCOMPARE(retried.changed, QList<qint64> { 5 });
        QCOMPARE(retried.leftAlone, QList<qint64> { 3 });
        QCOMPARE(statusOf(4), QStringLiteral("discarded"));
        QCOMPARE(statusOf(5), QStringLiteral("pending"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT attempts FROM outbox WHERE id = 5")).toInt(), 0);
        const QList<AuditEntry> audit = AuditRepository(session()).forEntity(QStringLiteral("outbox"), 5, 10);
        QCOMPARE(audit.size(), 2);
        QCOMPARE(audit.at(0).action, QStringLiteral("requeue"));
        QCOMPARE(QJsonDocument::fromJson(audit.at(0).stateBefore).object(),
            (QJsonObject { { QStringLiteral("5"), QStringLiteral("discarded") } }));
        QCOMPARE(audit.at(1).action, QStringLiteral("discard"));
        // Neither is in a failure group any more: a group counts failed and dead rows only.
        QCOMPARE(db().scalar(groupedRows).toLongLong(), 0LL);
    }

    // Schema 17 renamed skip to discard: rows and audit entries written under the old word read as the new one,
    // and a retry brings such a row back.
    void earlierSkipsAreDiscardsAfterTheMigration()
    {
        TestDatabase old(QStringLiteral("requeue_v16"), 16);
        old.exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, attempts, "
            "  last_error) "
            "VALUES ('order', '1', 'order.created', '{}', 'a', 'skipped', 10, 'boom'), "
            "  ('order', '2', 'order.created', '{}', 'b', 'dead', 10, 'boom')"));
        old.exec(
            QStringLiteral("INSERT INTO audit_log (action, reason, entity, entity_ids, state_before, state_after) "
                           "VALUES ('skip', 'obsolete', 'outbox', '{1}', '{\"1\": \"dead\"}', '{\"1\": \"skipped\"}'), "
                           "  ('requeue', 'retry', 'outbox', '{2}', '{\"2\": \"dead\"}', '{\"2\": \"pending\"}')"));
        const std::unique_ptr<DbSession> session = old.openSession();
        QCOMPARE(SchemaMigrator(*session).migrate(), SchemaMigrator::latestVersion());
        QCOMPARE(old.scalar(QStringLiteral("SELECT string_agg(status, ',' ORDER BY id) FROM outbox")).toString(),
            QStringLiteral("discarded,dead"));
        QCOMPARE(old.scalar(QStringLiteral("SELECT string_agg(action || ' ' || state_after::text, ';' ORDER BY id) "
                                           "FROM audit_log"))
                     .toString(),
            QStringLiteral("discard {\"1\": \"discarded\"};requeue {\"2\": \"pending\"}"));
        QVERIFY_THROWS_EXCEPTION(
            OutboxError, old.exec(QStringLiteral("UPDATE outbox SET status = 'skipped' WHERE id = 2")));
        QCOMPARE(OutboxOperator(*session).requeue({ 1 }, QStringLiteral("needed")).changed, QList<qint64> { 1 });
    }

    // The operator looked at a set; what happened afterwards must neither be acted on nor go unreported.
    void actsOnTheFrozenSetOnly()
    {
        seedDead(4);
        OutboxOperator op(session());
        const QList<qint64> frozen = op.freeze(deadRows(), 100);
        QCOMPARE(frozen, (QList<qint64> { 1, 2, 3, 4 }));
        // Meanwhile: row 2 is requeued by someone else and published, and a new row dies.
        db().exec(QStringLiteral("UPDATE outbox SET status = 'published', published_at = now() WHERE id = 2"));
        seedDead(1);
        const OperatorActionReport report = op.requeue(frozen, QStringLiteral("retry after fix"));
        QCOMPARE(report.changed, (QList<qint64> { 1, 3, 4 }));
        QCOMPARE(report.leftAlone, (QList<qint64> { 2 }));
        QCOMPARE(statusOf(2), QStringLiteral("published"));
        QCOMPARE(statusOf(5), QStringLiteral("dead"));
    }

    void selectionFilters_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<qint64>("olderThanMs");
        QTest::addColumn<QString>("errorContains");
        QTest::addColumn<QList<qint64>>("expected");
        QTest::newRow("failed") << QStringLiteral("failed") << 0LL << QString() << QList<qint64> { 4 };
        QTest::newRow("dead") << QStringLiteral("dead") << 0LL << QString() << QList<qint64> { 5 };
        QTest::newRow("error text, any case")
            << QStringLiteral("failed") << 0LL << QStringLiteral("BROKER") << QList<qint64> { 4 };
        QTest::newRow("percent sign is literal")
            << QStringLiteral("dead") << 0LL << QStringLiteral("100%") << QList<qint64> { 5 };
        QTest::newRow("percent alone matches nothing else")
            << QStringLiteral("failed") << 0LL << QStringLiteral("%") << QList<qint64> {};
        QTest::newRow("older than an hour")
            << QStringLiteral("dead") << 3'600'000LL << QString() << QList<qint64> { 5 };
        QTest::newRow("older than a day") << QStringLiteral("dead") << 86'400'000LL << QString() << QList<qint64> {};
    }

    void selectionFilters()
    {
        QFETCH(QString, status);
        QFETCH(qint64, olderThanMs);
        QFETCH(QString, errorContains);
        QFETCH(QList<qint64>, expected);
        seedOnePerStatus();
        db().exec(QStringLiteral("UPDATE outbox SET updated_at = now() - interval '2 hours'"));
        OutboxFilter filter;
        filter.statuses = QueryTesting::outboxStatuses({ status });
        filter.unchangedForMs = olderThanMs;
        filter.errorContains = errorContains;
        QCOMPARE(OutboxOperator(session()).freeze(filter, 100), expected);
    }

    // A large set goes in batches, each its own transaction, and Cancel stops before the next batch. The action is one
    // entry in the audit log's lists, counting the rows that committed: its first batch that changed rows writes it,
    // every later batch a continuation holding that batch's rows and states.
    void largeSetsGoInAuditedBatchesAndCanBeCancelled()
    {
        seedDead(2500);
        OutboxOperator op(session());
        AuditRepository audit(session());
        const QList<qint64> frozen = op.freeze(deadRows(), 10'000);
        QCOMPARE(frozen.size(), 2500);

        QList<qsizetype> progress;
        const OperatorActionReport cancelled
            = op.requeue(frozen, QStringLiteral("two batches only"), {}, 1000, [&](qsizetype done, qsizetype) {
                  progress.append(done);
                  return done < 2000; // cancel after the second batch
              });
        QVERIFY(cancelled.cancelled);
        QCOMPARE(cancelled.changed.size(), 2000);
        QCOMPARE(progress, (QList<qsizetype> { 1000, 2000 }));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'dead'")).toLongLong(), 500LL);
        QList<AuditEntry> actions = audit.page({}, 10, 0);
        QCOMPARE(actions.size(), 1);
        const AuditEntry cancelledEntry = actions.first();
        QCOMPARE(cancelledEntry.rows, 2000LL);
        // The list carries the first batch's rows; the second batch is a continuation of the entry.
        QCOMPARE(cancelledEntry.entityIds, frozen.mid(0, 1000));
        QVERIFY(cancelledEntry.partial);
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(cardinality(entity_ids) || ' ' || "
                                            "coalesce(action_id::text, 'own'), ',' ORDER BY id) FROM audit_log"))
                     .toString(),
            QStringLiteral("1000 own,1000 %1").arg(cancelledEntry.id));
        const std::optional<AuditEntry> whole = audit.whole(cancelledEntry.id);
        QVERIFY(whole);
        QCOMPARE(whole->rows, 2000LL);
        QVERIFY(!whole->partial);
        QCOMPARE(whole->entityIds, frozen.mid(0, 2000));
        const QString lastOfSecondBatch = QString::number(frozen.at(1999));
        const QJsonObject before = QJsonDocument::fromJson(whole->stateBefore).object();
        const QJsonObject after = QJsonDocument::fromJson(whole->stateAfter).object();
        QCOMPARE(before.size(), 2000);
        QCOMPARE(after.size(), 2000);
        QCOMPARE(before.value(lastOfSecondBatch).toString(), QStringLiteral("dead"));
        QCOMPARE(after.value(lastOfSecondBatch).toString(), QStringLiteral("pending"));
        // The list's read again by id (the Audit tab's refresh) is the same action.
        QCOMPARE(audit.byIds({ cancelledEntry.id }).first().rows, 2000LL);

        progress.clear();
        const OperatorActionReport rest
            = op.requeue(frozen, QStringLiteral("the rest"), {}, 1000, [&](qsizetype done, qsizetype) {
                  progress.append(done);
                  return true;
              });
        QVERIFY(!rest.cancelled);
        QCOMPARE(rest.changed.size(), 500);
        QCOMPARE(rest.leftAlone.size(), 2000);
        QCOMPARE(progress, (QList<qsizetype> { 1000, 2000, 2500 }));
        // Its first two batches changed nothing: its entry is its third batch's, and nothing continues it.
        actions = audit.page({}, 10, 0);
        QCOMPARE(actions.size(), 2);
        QCOMPARE(actions.first().reason, QStringLiteral("the rest"));
        QCOMPARE(actions.first().rows, 500LL);
        QCOMPARE(actions.first().entityIds, frozen.mid(2000));
        QVERIFY(!actions.first().partial);
        QCOMPARE(actions.at(1).id, cancelledEntry.id);
        QCOMPARE(actions.at(1).rows, 2000LL);
        // One audit row per batch that changed something, 2 + 1, holding every row once.
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 3LL);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT sum(cardinality(entity_ids)) FROM audit_log")).toLongLong(), 2500LL);
    }

    void reasonIsRequired_data() { addActions(); }

    void reasonIsRequired()
    {
        QFETCH(QString, action);
        seedOnePerStatus();
        OutboxOperator op(session());
        try {
            act(op, action, { 4 }, QStringLiteral("   "));
            QFAIL("acted without a reason");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
        }
        QCOMPARE(statusOf(4), QStringLiteral("failed"));
    }

    // A retry later: the rows are pending but not due before their time, and the audit entry says when.
    void aRetryLaterIsDueAtItsTime()
    {
        seedOnePerStatus();
        OutboxOperator op(session());
        const QDateTime now = session().serverNow();
        QVERIFY_THROWS_EXCEPTION(OutboxError, op.requeue({ 4, 5 }, QStringLiteral("too late"), now.addSecs(-60)));
        QCOMPARE(statusOf(4), QStringLiteral("failed"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0);

        const QDateTime at = now.addSecs(2 * 3600);
        const OperatorActionReport report = op.requeue({ 4, 5 }, QStringLiteral("after the 06:00 deploy"), at);
        QCOMPARE(report.changed, (QList<qint64> { 4, 5 }));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT string_agg(status || ' ' || attempts || ' ' || "
                                       "epoch_ms(next_attempt_at), ',' ORDER BY id) FROM outbox WHERE id IN (4, 5)"))
                .toString(),
            QStringLiteral("pending 0 %1,pending 0 %1").arg(at.toMSecsSinceEpoch()));
        const QList<AuditEntry> audit = AuditRepository(session()).forEntity(QStringLiteral("outbox"), 4, 10);
        QCOMPARE(audit.size(), 1);
        QCOMPARE(
            QJsonDocument::fromJson(audit.first().details).object().value(QStringLiteral("next_attempt_at")).toString(),
            at.toUTC().toString(Qt::ISODateWithMs));
    }

    // Edit and retry: the row goes back to pending with the new content and a fresh budget; the audit entry keeps
    // both versions as the database held them, every digit of a large number included.
    void anEditRequeuesTheRowWithItsNewContent()
    {
        seedOnePerStatus();
        db().exec(QStringLiteral("UPDATE outbox SET payload = '{\"amount\": \"12.50\", \"n\": 12345678901234567890}' "
                                 "WHERE id = 5"));
        OutboxOperator op(session());
        const ContentEditPreview preview = op.previewEdit(5,
            QStringLiteral("{\"n\":12345678901234567890,\"amount\":12.50}"), QStringLiteral("{\"x-fixed\": \"yes\"}"));
        QVERIFY(preview.editable());
        QVERIFY(preview.changesSomething());
        QCOMPARE(preview.status, OutboxStatus::Dead);
        QCOMPARE(preview.current.payload,
            db().scalar(QStringLiteral("SELECT jsonb_pretty(payload) FROM outbox WHERE id = 5")).toString());
        QVERIFY2(preview.proposed.payload.contains(QStringLiteral("\"amount\": 12.50")),
            qPrintable(preview.proposed.payload));
        // A preview changes nothing.
        QCOMPARE(db().scalar(QStringLiteral("SELECT payload->>'amount' FROM outbox WHERE id = 5")).toString(),
            QStringLiteral("12.50"));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT jsonb_typeof(payload->'amount') FROM outbox WHERE id = 5")).toString(),
            QStringLiteral("string"));

        const OperatorActionReport report = op.editAndRequeue(preview, QStringLiteral("amount sent as text"));
        QCOMPARE(report.changed, (QList<qint64> { 5 }));
        QVERIFY(report.leftAlone.isEmpty());
        QCOMPARE(db().scalar(QStringLiteral("SELECT status || ' ' || attempts || ' ' || (payload->'n')::text || ' ' || "
                                            "jsonb_typeof(payload->'amount') || ' ' || (headers->>'x-fixed') "
                                            "FROM outbox WHERE id = 5"))
                     .toString(),
            QStringLiteral("pending 0 12345678901234567890 number yes"));

        const QList<AuditEntry> audit = AuditRepository(session()).forEntity(QStringLiteral("outbox"), 5, 10);
        QCOMPARE(audit.size(), 1);
        QCOMPARE(audit.first().action, AuditAction::Edit);
        QCOMPARE(audit.first().reason, QStringLiteral("amount sent as text"));
        QCOMPARE(QJsonDocument::fromJson(audit.first().stateBefore).object(),
            (QJsonObject { { QStringLiteral("5"), QStringLiteral("dead") } }));
        // Lists leave the payloads out; the entry read whole has them.
        QVERIFY(audit.first().contentAfter.payload.isEmpty());
        QVERIFY(!audit.first().details.contains("12.50"));
        const std::optional<AuditEntry> whole = AuditRepository(session()).whole(audit.first().id);
        QVERIFY(whole);
        QCOMPARE(whole->contentBefore, preview.current);
        QCOMPARE(whole->contentAfter, preview.proposed);
        QCOMPARE(db().scalar(QStringLiteral("SELECT (details->'payload'->'before'->'n')::text || ' ' || "
                                            "(details->'payload'->'after'->'amount')::text FROM audit_log"))
                     .toString(),
            QStringLiteral("12345678901234567890 12.50"));
        // Only the edited row's entry has details.
        QCOMPARE(op.requeue({ 4 }, QStringLiteral("plain")).changed.size(), 1);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE details IS NULL")).toLongLong(), 1);
    }

    // The edit applies only to the row as the operator saw it: a row that left the states an edit applies to, or
    // whose content changed meanwhile, is left alone, with nothing written and no audit entry.
    void anEditIsGuardedByStateAndContent_data()
    {
        QTest::addColumn<QString>("meanwhile");
        QTest::addColumn<QString>("statusAfter");
        QTest::newRow("published") << QStringLiteral("UPDATE outbox SET status = 'published' WHERE id = 5")
                                   << QStringLiteral("published");
        QTest::newRow("claimed") << QStringLiteral("UPDATE outbox SET status = 'in_flight', lease_owner = 'w', "
                                                   "lease_expires_at = now() + interval '1 minute', "
                                                   "lease_token = 1 WHERE id = 5")
                                 << QStringLiteral("in_flight");
        QTest::newRow("payload edited by another")
            << QStringLiteral("UPDATE outbox SET payload = '{\"other\": 1}' WHERE id = 5") << QStringLiteral("dead");
        QTest::newRow("headers edited by another")
            << QStringLiteral("UPDATE outbox SET headers = '{\"h\": \"x\"}' WHERE id = 5") << QStringLiteral("dead");
    }

    void anEditIsGuardedByStateAndContent()
    {
        QFETCH(QString, meanwhile);
        QFETCH(QString, statusAfter);
        seedOnePerStatus();
        OutboxOperator op(session());
        const ContentEditPreview preview = op.previewEdit(5, QStringLiteral("{\"fixed\": true}"), std::nullopt);
        db().exec(meanwhile);
        const QString before
            = db().scalar(QStringLiteral("SELECT payload::text || headers::text FROM outbox WHERE id = 5")).toString();
        const OperatorActionReport report = op.editAndRequeue(preview, QStringLiteral("fix"));
        QVERIFY(report.changed.isEmpty());
        QCOMPARE(report.leftAlone, (QList<qint64> { 5 }));
        QCOMPARE(statusOf(5), statusAfter);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT payload::text || headers::text FROM outbox WHERE id = 5")).toString(),
            before);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0);
    }

    void anEditThatIsNotJsonIsRefusedNamingTheProblem_data()
    {
        QTest::addColumn<qint64>("id");
        QTest::addColumn<QString>("payload");
        QTest::addColumn<QString>("headers");
        QTest::addColumn<QString>("message");
        QTest::newRow("payload syntax") << 5LL << QStringLiteral("{\n\"a\": 1,\n}") << QString()
                                        << QStringLiteral("the payload is not JSON: line 3, column 1");
        QTest::newRow("two payloads") << 5LL << QStringLiteral("1, 2") << QString()
                                      << QStringLiteral("the payload is not JSON: more than one JSON value");
        // Valid JSON to Qt, refused by jsonb: the database has the last word.
        QTest::newRow("NUL in a string") << 5LL << QStringLiteral("{\"a\": \"\\u0000\"}") << QString()
                                         << QStringLiteral("PostgreSQL refuses the payload: ");
        QTest::newRow("headers an array") << 5LL << QString() << QStringLiteral("[1]")
                                          << QStringLiteral("the headers must be a JSON object, not an array");
        QTest::newRow("headers a string") << 5LL << QString() << QStringLiteral("\"h\"")
                                          << QStringLiteral("the headers must be a JSON object, not a string");
        QTest::newRow("no such row") << 99LL << QStringLiteral("{}") << QString()
                                     << QStringLiteral("there is no outbox row 99");
    }

    void anEditThatIsNotJsonIsRefusedNamingTheProblem()
    {
        QFETCH(qint64, id);
        QFETCH(QString, payload);
        QFETCH(QString, headers);
        QFETCH(QString, message);
        seedOnePerStatus();
        OutboxOperator op(session());
        try {
            op.previewEdit(id, payload.isNull() ? std::nullopt : std::optional(payload),
                headers.isNull() ? std::nullopt : std::optional(headers));
            QFAIL("the edit was accepted");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
            QVERIFY2(error.message().startsWith(message), qPrintable(error.message()));
        }
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT payload::text || headers::text FROM outbox WHERE id = 5")).toString(),
            QStringLiteral("{}{}"));
    }

    // The same JSON in another layout is no edit: the preview says so, and applying it is refused.
    void anEditThatChangesOnlyTheLayoutIsRefused()
    {
        seedOnePerStatus();
        db().exec(QStringLiteral("UPDATE outbox SET payload = '{\"b\": [1, 2], \"a\": 1}' WHERE id = 4"));
        OutboxOperator op(session());
        const ContentEditPreview preview
            = op.previewEdit(4, QStringLiteral("{ \"a\" : 1,\n \"b\" : [ 1,2 ] }"), QStringLiteral("{ }"));
        QVERIFY(!preview.changesSomething());
        QVERIFY_THROWS_EXCEPTION(OutboxError, op.editAndRequeue(preview, QStringLiteral("nothing")));
        QCOMPARE(statusOf(4), QStringLiteral("failed"));
        // A row an edit does not apply to is previewed as such.
        QVERIFY(!op.previewEdit(3, QStringLiteral("{\"x\": 1}"), std::nullopt).editable());
    }

    void anEditNeedsTheOperatorRole_data()
    {
        QTest::addColumn<QString>("groupRole");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("viewer") << QStringLiteral("outbox_viewer") << false;
        QTest::newRow("operator") << QStringLiteral("outbox_operator") << true;
    }

    void anEditNeedsTheOperatorRole()
    {
        QFETCH(QString, groupRole);
        QFETCH(bool, allowed);
        seedOnePerStatus();
        const QString login = QStringLiteral("tst_edit_%1_%2").arg(groupRole).arg(QCoreApplication::applicationPid());
        DbSession session(db().createLoginRole(login, groupRole), QStringLiteral("role"));
        OutboxOperator op(session);
        const ContentEditPreview preview = op.previewEdit(5, QStringLiteral("{\"fixed\": 1}"), std::nullopt);
        try {
            QCOMPARE(op.editAndRequeue(preview, QStringLiteral("as ") + groupRole).changed.size(), 1);
            QVERIFY2(allowed, "the viewer role could edit");
            QCOMPARE(db().scalar(QStringLiteral("SELECT payload::text FROM outbox WHERE id = 5")).toString(),
                QStringLiteral("{\"fixed\": 1}"));
        } catch (const OutboxError& error) {
            QVERIFY2(!allowed, qPrintable(error.message()));
            QCOMPARE(error.kind(), OutboxError::Kind::Permission);
            QVERIFY2(error.message().contains(QStringLiteral("may not edit"))
                    && error.message().contains(QStringLiteral("outbox_operator")),
                qPrintable(error.message()));
            QCOMPARE(db().scalar(QStringLiteral("SELECT payload::text || status FROM outbox WHERE id = 5")).toString(),
                QStringLiteral("{}dead"));
        }
    }

    void roles_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("groupRole");
        QTest::addColumn<bool>("allowed");
        for (const QString& action : { QStringLiteral("requeue"), QStringLiteral("discard") }) {
            QTest::addRow("%s as viewer", qPrintable(action)) << action << QStringLiteral("outbox_viewer") << false;
            QTest::addRow("%s as operator", qPrintable(action)) << action << QStringLiteral("outbox_operator") << true;
        }
    }

    void roles()
    {
        QFETCH(QString, action);
        QFETCH(QString, groupRole);
        QFETCH(bool, allowed);
        seedOnePerStatus();
        // A row waiting behind the failed one: a discard releases it, which the role must be allowed to do as well.
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, ordering_key, status) "
            "VALUES ('order', '4', 'order.updated', '{}', 'k6', 'order:4', 'waiting')"));
        const QString login
            = QStringLiteral("tst_%1_%2_%3").arg(action, groupRole).arg(QCoreApplication::applicationPid());
        DbSession session(db().createLoginRole(login, groupRole), QStringLiteral("role"));
        // Both roles may read.
        QCOMPARE(OutboxReadRepository(session).page(OutboxFilter(), 10, 0).rows.size(), 6);
        OutboxOperator op(session);
        try {
            const OperatorActionReport report = act(op, action, { 4, 5 }, QStringLiteral("as ") + groupRole);
            QVERIFY2(allowed, qPrintable(QStringLiteral("the viewer role could %1").arg(action)));
            QCOMPARE(report.changed.size(), 2);
            QCOMPARE(db().scalar(QStringLiteral("SELECT actor FROM audit_log")).toString(), login);
            QCOMPARE(statusOf(6),
                action == QLatin1String("discard") ? QStringLiteral("pending") : QStringLiteral("waiting"));
        } catch (const OutboxError& error) {
            QVERIFY2(!allowed, qPrintable(error.message()));
            QCOMPARE(error.kind(), OutboxError::Kind::Permission);
            QVERIFY2(error.message().contains(login) && error.message().contains(QStringLiteral("outbox_operator")),
                qPrintable(error.message()));
            QCOMPARE(statusOf(4), QStringLiteral("failed"));
            QCOMPARE(statusOf(6), QStringLiteral("waiting"));
            QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0LL);
        }
    }
};

QTEST_GUILESS_MAIN(TestRequeue)
#include "tst_requeue.moc"
