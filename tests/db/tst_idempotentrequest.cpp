// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/chainedstatement.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "idempotency/idempotentrequest.h"
#include "idempotency/requestfingerprint.h"
#include "metrics/metricsrecorder.h"
#include "outbox/outboxrepository.h"
#include "support/databasetestcase.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTest>

Q_DECLARE_METATYPE(IdempotentRequest::Form)

// IdempotentRequest as an embedder uses it: an operation of its own (here: an outbox message standing in for
// the domain write), completed by the runner with IdempotencyRepository::complete rather than in one statement.
class TestIdempotentRequest final : public DatabaseTestCase {
    Q_OBJECT
public:
    TestIdempotentRequest()
        : DatabaseTestCase(QStringLiteral("idempotentrequest"))
    { }

private:
    static constexpr int RetryableStatus = 503;
    static inline const QByteArray RetryableBody = QByteArrayLiteral(R"({"error":"retry"})");

    static IdempotencyClaim claimFor(const QString& key, const QString& amount)
    {
        return { QStringLiteral("payments"), key,
            RequestFingerprint::compute(QStringLiteral("payments.create"), { { QStringLiteral("amount"), amount } }) };
    }

    // An operation as an embedder writes one: its own domain row (an order) and an outbox message about it, on
    // the runner's session. Counts its runs.
    IdempotentRequest::Operation writeMessage(const QString& key, int& runs)
    {
        return [this, key, &runs](const IdempotencyClaim&) {
            ++runs;
            QSqlQuery& order = session().exec(QStringLiteral("INSERT INTO orders (customer, amount, currency) "
                                                             "VALUES (?::text, 10, 'EUR') RETURNING id"),
                { key }, QStringLiteral("inserting the order"));
            order.next();
            const qint64 id = order.value(0).toLongLong();
            OutboxRepository(session()).enqueue({ QStringLiteral("order"), QString::number(id),
                QStringLiteral("order.placed"), QByteArrayLiteral(R"({"ok":true})"), QByteArrayLiteral("{}"),
                QStringLiteral("order.placed:%1").arg(id) });
            return IdempotentRequest::Execution::completed(201, QStringLiteral(R"({"order":%1})").arg(id).toUtf8(), id);
        };
    }

    IdempotentRequest::Outcome run(const IdempotencyClaim& claim, const IdempotentRequest::Operation& operation,
        MetricsRecorder* metrics = nullptr)
    {
        return IdempotentRequest(session(), metrics ? *metrics : m_metrics)
            .run(claim, operation, RetryableStatus, RetryableBody);
    }

    qint64 messages() { return db().scalar(QStringLiteral("SELECT count(*) FROM outbox")).toLongLong(); }
    QString keyStatus(const QString& key)
    {
        return db()
            .scalar(QStringLiteral("SELECT status || coalesce('/' || failure_retryable::text, '') "
                                   "FROM idempotency_keys WHERE idem_key = ?"),
                { key })
            .toString();
    }

    // The same write as a SingleWrite, as docs/embedding.md shows it: an order and its outbox message, the key
    // completed in the same statement.
    static IdempotentRequest::SingleWrite singleWrite(const IdempotencyClaim& claim)
    {
        IdempotentRequest::SingleWrite write;
        write.addParts = [claim](ChainedStatement& statement, const QString& gate) {
            statement.add(QStringLiteral("p"),
                { QStringLiteral("INSERT INTO orders (customer, amount, currency) SELECT ?::text, 10, 'EUR'") + gate
                        + QStringLiteral(" RETURNING id"),
                    { claim.key } });
            statement.add(QStringLiteral("event"),
                OutboxRepository::enqueuePart(
                    { SqlFragment(QStringLiteral("p")), QStringLiteral("order"), QStringLiteral("p.id::text"),
                        QStringLiteral("order.placed"), QStringLiteral("jsonb_build_object('id', p.id)"),
                        QByteArrayLiteral("{}"), QStringLiteral("'order.placed:' || p.id") }));
            statement.add(QStringLiteral("done"),
                IdempotencyRepository::completionPart(claim,
                    { SqlFragment(QStringLiteral("p")), QStringLiteral("201"),
                        QStringLiteral("jsonb_build_object('order', p.id)"), QStringLiteral("p.id") }));
            statement.add(QStringLiteral("response"),
                { QStringLiteral("SELECT 201 AS status, jsonb_build_object('order', p.id) AS body, p.id AS resource_id "
                                 "FROM p, event, done") });
        };
        return write;
    }

    MetricsRecorder m_metrics;

private slots:
    void aSingleWriteExecutesOnceInEitherForm_data()
    {
        QTest::addColumn<IdempotentRequest::Form>("form");
        QTest::newRow("one statement") << IdempotentRequest::Form::OneStatement;
        QTest::newRow("transaction") << IdempotentRequest::Form::Transaction;
    }

    void aSingleWriteExecutesOnceInEitherForm()
    {
        QFETCH(IdempotentRequest::Form, form);
        const IdempotencyClaim claim = claimFor(QStringLiteral("s1"), QStringLiteral("10.00"));
        IdempotentRequest request(session(), m_metrics);
        const auto first = request.run(claim, singleWrite(claim), form, RetryableStatus, RetryableBody);
        QCOMPARE(first.kind, IdempotentRequest::Outcome::Kind::Executed);
        QCOMPARE(first.response.status, 201);
        QVERIFY(first.response.orderId);
        QCOMPARE(QJsonDocument::fromJson(first.response.body).object().value(QStringLiteral("order")).toInteger(),
            *first.response.orderId);
        const auto again = request.run(claim, singleWrite(claim), form, RetryableStatus, RetryableBody);
        QCOMPARE(again.kind, IdempotentRequest::Outcome::Kind::Replayed);
        QCOMPARE(QJsonDocument::fromJson(again.response.body), QJsonDocument::fromJson(first.response.body));
        QCOMPARE(again.response.orderId, first.response.orderId);
        const IdempotencyClaim other = claimFor(QStringLiteral("s1"), QStringLiteral("99.00"));
        QCOMPARE(request.run(other, singleWrite(other), form, RetryableStatus, RetryableBody).kind,
            IdempotentRequest::Outcome::Kind::Mismatch);
        QCOMPARE(messages(), 1);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), 1LL);
        QCOMPARE(keyStatus(QStringLiteral("s1")), QStringLiteral("completed"));
    }

    void executesOnceThenReplaysTheStoredResponse()
    {
        int runs = 0;
        const IdempotencyClaim claim = claimFor(QStringLiteral("k1"), QStringLiteral("10.00"));
        const auto first = run(claim, writeMessage(QStringLiteral("k1"), runs));
        QCOMPARE(first.kind, IdempotentRequest::Outcome::Kind::Executed);
        QCOMPARE(first.response.status, 201);
        QVERIFY(first.response.orderId);

        const auto again = run(claim, writeMessage(QStringLiteral("k1"), runs));
        QCOMPARE(again.kind, IdempotentRequest::Outcome::Kind::Replayed);
        QCOMPARE(again.response.status, 201);
        // The same JSON document (jsonb stores it normalised, so not necessarily the same bytes).
        QCOMPARE(QJsonDocument::fromJson(again.response.body), QJsonDocument::fromJson(first.response.body));
        QCOMPARE(again.response.orderId, first.response.orderId);
        QCOMPARE(runs, 1);
        QCOMPARE(messages(), 1);
        QCOMPARE(keyStatus(QStringLiteral("k1")), QStringLiteral("completed"));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT order_id FROM idempotency_keys")).toLongLong(), *first.response.orderId);
    }

    void anotherRequestWithTheKeyIsRefused()
    {
        int runs = 0;
        QCOMPARE(
            run(claimFor(QStringLiteral("k2"), QStringLiteral("10.00")), writeMessage(QStringLiteral("k2"), runs)).kind,
            IdempotentRequest::Outcome::Kind::Executed);
        QCOMPARE(
            run(claimFor(QStringLiteral("k2"), QStringLiteral("99.00")), writeMessage(QStringLiteral("k2"), runs)).kind,
            IdempotentRequest::Outcome::Kind::Mismatch);
        QCOMPARE(runs, 1);
        QCOMPARE(messages(), 1);
    }

    void aFinalFailureIsStoredAndReplayedWithoutItsWrites()
    {
        int runs = 0;
        const auto reject = [this, &runs](const IdempotencyClaim& claim) {
            writeMessage(QStringLiteral("k3"), runs)(claim);
            return IdempotentRequest::Execution::failedFinally(422, QByteArrayLiteral(R"({"error":"limit"})"));
        };
        const IdempotencyClaim claim = claimFor(QStringLiteral("k3"), QStringLiteral("10.00"));
        const auto first = run(claim, reject);
        QCOMPARE(first.kind, IdempotentRequest::Outcome::Kind::Executed);
        QVERIFY(first.response.finalFailure);
        QCOMPARE(keyStatus(QStringLiteral("k3")), QStringLiteral("failed/false"));
        const auto again = run(claim, reject);
        QCOMPARE(again.kind, IdempotentRequest::Outcome::Kind::Replayed);
        QCOMPARE(again.response.status, 422);
        QCOMPARE(runs, 1);
    }

    void aTransientErrorRollsBackAndReleasesTheKey()
    {
        int runs = 0;
        const IdempotencyClaim claim = claimFor(QStringLiteral("k4"), QStringLiteral("10.00"));
        const auto failing = [this, &runs](const IdempotencyClaim& claim) -> IdempotentRequest::Execution {
            writeMessage(QStringLiteral("k4"), runs)(claim);
            throw OutboxError(OutboxError::Kind::Transient, QStringLiteral("serialization failure"));
        };
        const auto failed = run(claim, failing);
        QCOMPARE(failed.kind, IdempotentRequest::Outcome::Kind::RetryableFailure);
        QCOMPARE(failed.response.status, RetryableStatus);
        QCOMPARE(messages(), 0); // the operation's writes rolled back with the claim
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), 0);
        QCOMPARE(keyStatus(QStringLiteral("k4")), QStringLiteral("failed/true"));

        const auto retried = run(claim, writeMessage(QStringLiteral("k4"), runs));
        QCOMPARE(retried.kind, IdempotentRequest::Outcome::Kind::Executed);
        QCOMPARE(runs, 2);
        QCOMPARE(messages(), 1);
    }

    void anyOtherErrorPropagatesAndLeavesNothing()
    {
        int runs = 0;
        const auto broken = [this, &runs](const IdempotencyClaim& claim) -> IdempotentRequest::Execution {
            writeMessage(QStringLiteral("k5"), runs)(claim);
            throw OutboxError(OutboxError::Kind::Permission, QStringLiteral("permission denied"));
        };
        QVERIFY_THROWS_EXCEPTION(OutboxError, run(claimFor(QStringLiteral("k5"), QStringLiteral("1.00")), broken));
        QCOMPARE(messages(), 0);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM idempotency_keys")).toLongLong(), 0);
    }

    void aDuplicateWhileTheFirstRunsIsInProgress()
    {
        // The first request's claim, committed but not completed: the key is leased to it.
        const IdempotencyClaim claim = claimFor(QStringLiteral("k6"), QStringLiteral("10.00"));
        {
            UnitOfWork uow(session());
            QCOMPARE(IdempotencyRepository(session()).claim(claim).kind, ClaimResult::Kind::Claimed);
            uow.commit();
        }
        int runs = 0;
        const auto duplicate = run(claim, writeMessage(QStringLiteral("k6"), runs));
        QCOMPARE(duplicate.kind, IdempotentRequest::Outcome::Kind::InProgress);
        QVERIFY(duplicate.retryAfterMs > 0);
        QCOMPARE(runs, 0);
    }

    void everyAnswerIsCounted()
    {
        MetricsRecorder metrics; // this test's answers only
        int runs = 0;
        const IdempotencyClaim claim = claimFor(QStringLiteral("k7"), QStringLiteral("10.00"));
        run(claim, writeMessage(QStringLiteral("k7"), runs), &metrics);
        run(claim, writeMessage(QStringLiteral("k7"), runs), &metrics);
        run(claimFor(QStringLiteral("k7"), QStringLiteral("11.00")), writeMessage(QStringLiteral("k7"), runs),
            &metrics);
        metrics.flush(session());
        const QString sums = db().scalar(QStringLiteral("SELECT concat_ws(',', sum(requests), sum(executions), "
                                                        "sum(replays), sum(mismatches)) FROM metric_rollups"))
                                 .toString();
        QCOMPARE(sums, QStringLiteral("3,1,1,1"));
    }
};

QTEST_GUILESS_MAIN(TestIdempotentRequest)
#include "tst_idempotentrequest.moc"
