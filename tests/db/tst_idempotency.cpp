// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/outboxerror.h"
#include "db/unitofwork.h"
#include "idempotency/idempotencyrepository.h"
#include "idempotency/requestfingerprint.h"
#include "metrics/metricsrecorder.h"
#include "orders/createorderhandler.h"
#include "support/databasetestcase.h"

#include <QJsonDocument>
#include <QSqlQuery>
#include <QTest>

Q_DECLARE_METATYPE(CreateOrderResult::Outcome)
Q_DECLARE_METATYPE(IdempotentRequest::Form)

namespace {

CreateOrderRequest orderRequest(const QString& key, const QString& customer = QStringLiteral("alice"),
    const QString& amount = QStringLiteral("10.00"))
{
    CreateOrderRequest request;
    request.key = key;
    request.customer = customer;
    request.amount = amount;
    request.currency = QStringLiteral("EUR");
    return request;
}

QString fingerprintOf(const CreateOrderRequest& r)
{
    return RequestFingerprint::compute(CreateOrderHandler::Operation,
        QJsonObject { { QStringLiteral("customer"), r.customer }, { QStringLiteral("amount"), r.amount },
            { QStringLiteral("currency"), r.currency } });
}

// What exists for the key before the request under test arrives.
enum class Prior {
    Nothing,
    CompletedSame,
    CompletedOther,
    CompletedSameExpired,
    InProgressLive,
    InProgressLeaseExpired,
    FailedRetryable,
    FailedFinalSame,
    FailedFinalOther,
};

} // namespace

Q_DECLARE_METATYPE(Prior)
Q_DECLARE_METATYPE(CreateOrderRequest)

class TestIdempotency final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestIdempotency()
        : DatabaseTestCase(QStringLiteral("idempotency"))
    { }

private:
    // Writes the prior record directly, as another process (or a crashed one) would have left it.
    void seed(Prior prior, const CreateOrderRequest& request)
    {
        const CreateOrderRequest other = orderRequest(request.key, QStringLiteral("mallory"), QStringLiteral("99.00"));
        const auto insert = [&](const CreateOrderRequest& r, const QString& status, const QString& lockedUntil,
                                const QString& expiresAt, const QVariant& retryable, int responseStatus,
                                const QString& body) {
            db().exec(QStringLiteral("INSERT INTO idempotency_keys (scope, idem_key, fingerprint, status, "
                                     "failure_retryable, response_status, response_body, locked_until, expires_at) "
                                     "VALUES ('orders', ?::text, ?::text, ?::text, ?::boolean, ?::int, ?::jsonb, "
                                     "now() + ?::interval, now() + ?::interval)"),
                { r.key, fingerprintOf(r), status, retryable, responseStatus ? QVariant(responseStatus) : QVariant(),
                    body.isEmpty() ? QVariant() : QVariant(body),
                    lockedUntil.isEmpty() ? QVariant() : QVariant(lockedUntil), expiresAt });
        };
        const QString stored = QStringLiteral("{\"id\": 4242, \"note\": \"stored\"}");
        const QString rejected = QStringLiteral("{\"error\": \"amount_over_limit\"}");
        switch (prior) {
        case Prior::Nothing:
            return;
        case Prior::CompletedSame:
            return insert(request, QStringLiteral("completed"), {}, QStringLiteral("1 day"), QVariant(), 201, stored);
        case Prior::CompletedOther:
            return insert(other, QStringLiteral("completed"), {}, QStringLiteral("1 day"), QVariant(), 201, stored);
        case Prior::CompletedSameExpired:
            return insert(
                request, QStringLiteral("completed"), {}, QStringLiteral("-1 second"), QVariant(), 201, stored);
        case Prior::InProgressLive:
            return insert(request, QStringLiteral("in_progress"), QStringLiteral("20 seconds"), QStringLiteral("1 day"),
                QVariant(), 0, {});
        case Prior::InProgressLeaseExpired:
            return insert(request, QStringLiteral("in_progress"), QStringLiteral("-1 second"), QStringLiteral("1 day"),
                QVariant(), 0, {});
        case Prior::FailedRetryable:
            return insert(other, QStringLiteral("failed"), {}, QStringLiteral("1 day"), true, 503, rejected);
        case Prior::FailedFinalSame:
            return insert(request, QStringLiteral("failed"), {}, QStringLiteral("1 day"), false, 422, rejected);
        case Prior::FailedFinalOther:
            return insert(other, QStringLiteral("failed"), {}, QStringLiteral("1 day"), false, 422, rejected);
        }
    }

    qint64 count(const QString& table)
    {
        return db().scalar(QStringLiteral("SELECT count(*) FROM %1").arg(table)).toLongLong();
    }

    CreateOrderResult handle(
        const CreateOrderRequest& request, IdempotentRequest::Form form = IdempotentRequest::Form::OneStatement)
    {
        return CreateOrderHandler(session(), m_metrics, inForm(form)).handle(request);
    }

    static CreateOrderHandler::Options inForm(IdempotentRequest::Form form)
    {
        CreateOrderHandler::Options options;
        options.form = form;
        return options;
    }

    // The contract: what a request gets for each state its key can be in. One table for every way in: the C++
    // handler in both its forms, one statement and a transaction (contract), and the SQL functions called as a service
    // in another language calls them (contractThroughSql), which gets the rows that reach the key store (bad requests
    // never do) with the outcome idempotency_begin() names.
    struct ContractRow {
        const char* name;
        Prior prior;
        CreateOrderRequest request;
        CreateOrderResult::Outcome outcome;
        int httpStatus;
        qint64 ordersCreated;
        QString sqlOutcome; // empty: refused before the key store
    };
    static QList<ContractRow> contractRows()
    {
        using O = CreateOrderResult::Outcome;
        const CreateOrderRequest plain = orderRequest(QStringLiteral("key-1"));
        const QString execute = QStringLiteral("execute");
        const QString replay = QStringLiteral("replay");
        const QString mismatch = QStringLiteral("mismatch");
        return {
            { "new key executes", Prior::Nothing, plain, O::Created, 201, 1, execute },
            { "same request completed: replay", Prior::CompletedSame, plain, O::Replayed, 201, 0, replay },
            { "different request: 422", Prior::CompletedOther, plain, O::Mismatch, 422, 0, mismatch },
            { "expired key is new", Prior::CompletedSameExpired, plain, O::Created, 201, 1, execute },
            { "in progress: 409", Prior::InProgressLive, plain, O::InProgress, 409, 0, QStringLiteral("in_progress") },
            { "abandoned lease: take over", Prior::InProgressLeaseExpired, plain, O::Created, 201, 1, execute },
            { "retryable failure released", Prior::FailedRetryable, plain, O::Created, 201, 1, execute },
            { "final failure replayed", Prior::FailedFinalSame, plain, O::Replayed, 422, 0, replay },
            { "final failure, other request", Prior::FailedFinalOther, plain, O::Mismatch, 422, 0, mismatch },
            { "missing key", Prior::Nothing, orderRequest(QString()), O::BadRequest, 400, 0, {} },
            { "key of 255 characters", Prior::Nothing, orderRequest(QString(255, QLatin1Char('k'))), O::Created, 201, 1,
                execute },
            { "key of 256 characters", Prior::Nothing, orderRequest(QString(256, QLatin1Char('k'))), O::BadRequest, 400,
                0, {} },
            { "non-numeric amount", Prior::Nothing,
                orderRequest(QStringLiteral("k"), QStringLiteral("a"), QStringLiteral("ten")), O::BadRequest, 400, 0,
                {} },
            { "three fraction digits", Prior::Nothing,
                orderRequest(QStringLiteral("k"), QStringLiteral("a"), QStringLiteral("1.005")), O::BadRequest, 400, 0,
                {} },
            { "zero amount", Prior::Nothing,
                orderRequest(QStringLiteral("k"), QStringLiteral("a"), QStringLiteral("0")), O::BadRequest, 400, 0,
                {} },
            { "over the limit: final failure", Prior::Nothing,
                orderRequest(QStringLiteral("k"), QStringLiteral("a"), QStringLiteral("1000000.01")), O::Rejected, 422,
                0, execute },
        };
    }

    static void addContractColumns()
    {
        QTest::addColumn<Prior>("prior");
        QTest::addColumn<CreateOrderRequest>("request");
        QTest::addColumn<CreateOrderResult::Outcome>("outcome");
        QTest::addColumn<int>("httpStatus");
        QTest::addColumn<qint64>("ordersCreated");
        QTest::addColumn<QString>("sqlOutcome");
    }

private slots:
    void contract_data()
    {
        addContractColumns();
        QTest::addColumn<IdempotentRequest::Form>("form");
        const std::pair<const char*, IdempotentRequest::Form> forms[] = {
            { "one statement", IdempotentRequest::Form::OneStatement },
            { "transaction", IdempotentRequest::Form::Transaction },
        };
        for (const auto& [formName, form] : forms) {
            for (const ContractRow& row : contractRows()) {
                QTest::addRow("%s: %s", formName, row.name) << row.prior << row.request << row.outcome << row.httpStatus
                                                            << row.ordersCreated << row.sqlOutcome << form;
            }
        }
    }

    void contract()
    {
        QFETCH(Prior, prior);
        QFETCH(CreateOrderRequest, request);
        QFETCH(CreateOrderResult::Outcome, outcome);
        QFETCH(int, httpStatus);
        QFETCH(qint64, ordersCreated);
        QFETCH(IdempotentRequest::Form, form);

        seed(prior, request);
        const qint64 outboxBefore = count(QStringLiteral("outbox"));
        const CreateOrderResult result = handle(request, form);
        QCOMPARE(CreateOrderResult::outcomeName(result.outcome), CreateOrderResult::outcomeName(outcome));
        QCOMPARE(result.httpStatus, httpStatus);
        QCOMPARE(count(QStringLiteral("orders")), ordersCreated);
        // An order and its event exist together or not at all.
        QCOMPARE(count(QStringLiteral("outbox")) - outboxBefore, ordersCreated);

        if (outcome == CreateOrderResult::Outcome::Created) {
            QVERIFY(result.orderId);
            QCOMPARE(result.body.value(QStringLiteral("id")).toInteger(), *result.orderId);
            QCOMPARE(db().scalar(QStringLiteral("SELECT status FROM idempotency_keys WHERE idem_key = ?::text"),
                             { request.key })
                         .toString(),
                QStringLiteral("completed"));
        }
        if (prior == Prior::CompletedSame || prior == Prior::FailedFinalSame) {
            // A replay is counted when the replays are folded (relays and orders-service do it every few seconds).
            QCOMPARE(db().scalar(QStringLiteral("SELECT replay_count FROM idempotency_keys")).toInt(), 0);
            QCOMPARE(IdempotencyRepository(session()).foldReplays(), 1LL);
            QCOMPARE(db().scalar(QStringLiteral("SELECT replay_count FROM idempotency_keys")).toInt(), 1);
            QVERIFY(!db().scalar(QStringLiteral("SELECT last_replayed_at FROM idempotency_keys")).isNull());
        }
        if (outcome == CreateOrderResult::Outcome::InProgress) {
            QVERIFY(result.retryAfterSeconds >= 1 && result.retryAfterSeconds <= 20);
            QCOMPARE(result.body.value(QStringLiteral("retry_after_seconds")).toInteger(), result.retryAfterSeconds);
        }
        if (outcome == CreateOrderResult::Outcome::BadRequest) {
            // The answer names the field at fault, so an HTTP client can point at it.
            const QString field = result.body.value(QStringLiteral("field")).toString();
            const QString expected = QString::fromLatin1(QTest::currentDataTag()).contains(QStringLiteral("key"))
                ? QStringLiteral("idempotency_key")
                : QStringLiteral("amount");
            QCOMPARE(field, expected);
        }
        if (outcome == CreateOrderResult::Outcome::Mismatch)
            QCOMPARE(result.body.value(QStringLiteral("message")).toString(),
                QStringLiteral("key already used with a different request"));
    }

    void contractThroughSql_data()
    {
        addContractColumns();
        for (const ContractRow& row : contractRows()) {
            if (!row.sqlOutcome.isEmpty()) {
                QTest::newRow(row.name) << row.prior << row.request << row.outcome << row.httpStatus
                                        << row.ordersCreated << row.sqlOutcome;
            }
        }
    }

    // What a service in another language does with the SQL API, in its own transaction: begin; on 'execute' its
    // own order row, outbox_enqueue() and idempotency_complete() (or idempotency_fail() for a business refusal);
    // commit. The same prior states give the same answers and the same rows as the C++ handler.
    void contractThroughSql()
    {
        QFETCH(Prior, prior);
        QFETCH(CreateOrderRequest, request);
        QFETCH(int, httpStatus);
        QFETCH(qint64, ordersCreated);
        QFETCH(QString, sqlOutcome);
        seed(prior, request);
        const qint64 outboxBefore = count(QStringLiteral("outbox"));
        const auto service = db().openSession(QStringLiteral("foreign-service"));
        service->execScript(QStringLiteral("BEGIN"), QStringLiteral("begin"));
        QSqlQuery& begun = service->exec(QStringLiteral("SELECT outcome, response_status, retry_after_ms "
                                                        "FROM idempotency_begin('orders', ?::text, ?::text)"),
            { request.key, fingerprintOf(request) }, QStringLiteral("begin"));
        QVERIFY(begun.next());
        QCOMPARE(begun.value(0).toString(), sqlOutcome);
        const int storedStatus = begun.value(1).toInt();
        const qint64 retryAfterMs = begun.value(2).toLongLong();
        // The answer as such a service gives it, from what the functions returned: an executed request answers
        // with the status its settlement stored (read back from the key's record), a replay with the stored
        // status idempotency_begin returned; a mismatch is 422 and a request in progress 409, by the contract.
        const auto valueOf = [&service](const QString& sql, const QVariantList& binds) {
            QSqlQuery& query = service->exec(sql, binds, QStringLiteral("reading"));
            return query.next() ? query.value(0) : QVariant();
        };
        int answered = 0;
        if (sqlOutcome == QLatin1String("execute")) {
            // The service's own business rule, the same limit as the C++ handler's: a larger order is a final
            // failure, answered 422 and replayed; anything else creates the order and its message.
            const bool overLimit = valueOf(QStringLiteral("SELECT ?::numeric * 100 > ?::bigint"),
                { request.amount, CreateOrderHandler::Options().perOrderLimitCents })
                                       .toBool();
            QSqlQuery& settled = overLimit
                ? service->exec(QStringLiteral("SELECT idempotency_fail('orders', ?::text, ?::text, false, 422, "
                                               "'{\"error\": \"amount_over_limit\"}')"),
                    { request.key, fingerprintOf(request) }, QStringLiteral("fail"))
                : service->exec(QStringLiteral("WITH o AS (INSERT INTO orders (customer, amount, currency) "
                                               "  VALUES (?::text, ?::numeric, 'EUR') RETURNING id), "
                                               "e AS (SELECT outbox_enqueue('order', o.id::text, 'order.created', "
                                               "  jsonb_build_object('id', o.id), '{}', 'order.created:' || o.id) "
                                               "  FROM o) "
                                               "SELECT idempotency_complete('orders', ?::text, ?::text, 201, "
                                               "  jsonb_build_object('id', o.id), o.id), (SELECT count(*) FROM e) "
                                               "FROM o"),
                    { request.customer, request.amount, request.key, fingerprintOf(request) },
                    QStringLiteral("execute"));
            QVERIFY(settled.next());
            const qint64 recordId = settled.value(0).toLongLong();
            answered = valueOf(
                QStringLiteral("SELECT response_status FROM idempotency_keys WHERE id = ?::bigint"), { recordId })
                           .toInt();
        } else if (sqlOutcome == QLatin1String("replay")) {
            answered = storedStatus;
        } else if (sqlOutcome == QLatin1String("mismatch")) {
            answered = 422;
        } else {
            QCOMPARE(sqlOutcome, QStringLiteral("in_progress"));
            QVERIFY2(retryAfterMs >= 1 && retryAfterMs <= 20'000, qPrintable(QString::number(retryAfterMs)));
            answered = 409;
        }
        service->execScript(QStringLiteral("COMMIT"), QStringLiteral("commit"));
        QCOMPARE(answered, httpStatus);
        QCOMPARE(count(QStringLiteral("orders")), ordersCreated);
        QCOMPARE(count(QStringLiteral("outbox")) - outboxBefore, ordersCreated);
        if (sqlOutcome == QLatin1String("execute")) {
            QCOMPARE(db().scalar(QStringLiteral("SELECT status || '/' || response_status FROM idempotency_keys "
                                                "WHERE idem_key = ?::text"),
                             { request.key })
                         .toString(),
                httpStatus == 422 ? QStringLiteral("failed/422") : QStringLiteral("completed/201"));
        }
        if (sqlOutcome == QLatin1String("replay")) {
            QCOMPARE(db().scalar(QStringLiteral("SELECT idempotency_fold_replays()")).toLongLong(), 1LL);
            QCOMPARE(db().scalar(QStringLiteral("SELECT replay_count FROM idempotency_keys")).toInt(), 1);
        }
    }

    // A completion or failure whose claim is gone (completed already, or never made) is refused with SQLSTATE
    // 55000, which rolls the caller's transaction back.
    void aLostClaimIsRefused()
    {
        const QString fingerprint(64, QLatin1Char('b'));
        for (const QString& call :
            { QStringLiteral("SELECT idempotency_complete('orders', 'nobody', ?::text, 201, '{}')"),
                QStringLiteral("SELECT idempotency_fail('orders', 'nobody', ?::text, true, 503, '{}')") }) {
            try {
                db().exec(call, { fingerprint });
                QFAIL("a completion without a claim was accepted");
            } catch (const OutboxError& error) {
                QCOMPARE(error.sqlState(), QStringLiteral("55000"));
                QVERIFY2(error.message().contains(QStringLiteral("no longer in progress")), error.what());
            }
        }
    }

    // A replay whose transaction began before the key's creator did, and read the key after that committed, is
    // counted like any other (the fold matches the record's use, not the two transactions' start times).
    void aReplayThatBeganBeforeTheKeyIsCounted()
    {
        const CreateOrderRequest request = orderRequest(QStringLiteral("early"));
        const auto replayer = db().openSession(QStringLiteral("replayer"));
        replayer->execScript(QStringLiteral("BEGIN; SELECT now()"), QStringLiteral("beginning"));
        QCOMPARE(handle(request).outcome, CreateOrderResult::Outcome::Created);
        QSqlQuery& replay
            = replayer->exec(QStringLiteral("SELECT outcome FROM idempotency_begin('orders', ?::text, ?::text)"),
                { request.key, fingerprintOf(request) }, QStringLiteral("replaying"));
        QVERIFY(replay.next());
        QCOMPARE(replay.value(0).toString(), QStringLiteral("replay"));
        replayer->execScript(QStringLiteral("COMMIT"), QStringLiteral("committing"));
        QCOMPARE(IdempotencyRepository(session()).foldReplays(), 1LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT replay_count FROM idempotency_keys")).toInt(), 1);
    }

    // Replays of a key's earlier use are not counted into the use that took the key over after it expired.
    void replaysOfAnEarlierUseAreNotCounted()
    {
        const CreateOrderRequest request = orderRequest(QStringLiteral("reused"));
        QCOMPARE(handle(request).outcome, CreateOrderResult::Outcome::Created);
        QCOMPARE(handle(request).outcome, CreateOrderResult::Outcome::Replayed);
        db().exec(QStringLiteral("UPDATE idempotency_keys SET expires_at = now() - interval '1 second'"));
        QCOMPARE(handle(request).outcome, CreateOrderResult::Outcome::Created); // taken over: a new use
        QCOMPARE(IdempotencyRepository(session()).foldReplays(), 0LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT replay_count FROM idempotency_keys")).toInt(), 0);
    }

    // A claim for this transaction only (a NULL lease, what the library uses when the work completes in the same
    // transaction) writes nothing until it is settled, then the record in one row version; a concurrent duplicate
    // is told in_progress meanwhile; committing without settling leaves the key free. A second such claim in the
    // same transaction is written in progress as before.
    void aClaimForThisTransactionIsWrittenOnceSettled()
    {
        const QString fingerprint(64, QLatin1Char('c'));
        const auto service = db().openSession(QStringLiteral("service"));
        const auto begin = [&](DbSession& session, const QString& key) {
            QSqlQuery& q = session.exec(QStringLiteral("SELECT outcome FROM idempotency_begin('orders', ?::text, "
                                                       "?::text, NULL, interval '1 hour')"),
                { key, fingerprint }, QStringLiteral("begin"));
            q.next();
            return q.value(0).toString();
        };
        const auto inTransaction = [&](const QString& sql) {
            QSqlQuery& q = service->exec(sql, {}, QStringLiteral("reading"));
            q.next();
            return q.value(0).toLongLong();
        };
        service->execScript(QStringLiteral("BEGIN"), QStringLiteral("begin"));
        QCOMPARE(begin(*service, QStringLiteral("once")), QStringLiteral("execute"));
        QCOMPARE(inTransaction(QStringLiteral("SELECT count(*) FROM idempotency_keys")), 0LL);
        QCOMPARE(begin(session(), QStringLiteral("once")), QStringLiteral("in_progress"));
        QCOMPARE(begin(*service, QStringLiteral("second")), QStringLiteral("execute"));
        QCOMPARE(
            inTransaction(QStringLiteral("SELECT count(*) FROM idempotency_keys WHERE status = 'in_progress'")), 1LL);
        service->exec(QStringLiteral("SELECT idempotency_complete('orders', 'once', ?::text, 201, '{\"a\": 1}')"),
            { fingerprint }, QStringLiteral("complete"));
        service->exec(QStringLiteral("SELECT idempotency_complete('orders', 'second', ?::text, 201, '{}')"),
            { fingerprint }, QStringLiteral("complete"));
        // One insert each; only the second key's record was updated from in progress to completed.
        QCOMPARE(inTransaction(QStringLiteral("SELECT n_tup_ins * 10 + n_tup_upd FROM pg_stat_xact_user_tables "
                                              "WHERE relname = 'idempotency_keys'")),
            21LL);
        service->execScript(QStringLiteral("COMMIT"), QStringLiteral("commit"));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT string_agg(idem_key || ':' || status || ':' || "
                                       "(expires_at > now() + interval '59 minutes')::text, ',' ORDER BY idem_key) "
                                       "FROM idempotency_keys"))
                .toString(),
            QStringLiteral("once:completed:true,second:completed:true"));

        service->execScript(QStringLiteral("BEGIN"), QStringLiteral("begin"));
        QCOMPARE(begin(*service, QStringLiteral("abandoned")), QStringLiteral("execute"));
        service->execScript(QStringLiteral("COMMIT"), QStringLiteral("commit"));
        QCOMPARE(begin(session(), QStringLiteral("abandoned")), QStringLiteral("execute")); // nothing was left
    }

    // outbox_enqueue() with a dedupe key that exists adds nothing and returns the existing row's id.
    void enqueueingADedupeKeyTwiceAddsOneRow()
    {
        const QString enqueue = QStringLiteral("SELECT outbox_enqueue('order', '7', 'order.created', '{\"id\": 7}', "
                                               "'{}', 'order.created:7')");
        const qint64 first = db().scalar(enqueue).toLongLong();
        QCOMPARE(db().scalar(enqueue).toLongLong(), first);
        QCOMPARE(count(QStringLiteral("outbox")), 1LL);
        const qint64 keyless = db().scalar(QStringLiteral("SELECT outbox_enqueue('order', '8', 'order.created', "
                                                          "'{}')"))
                                   .toLongLong();
        QVERIFY(keyless != first);
        QVERIFY(!db().scalar(QStringLiteral("SELECT dedupe_key FROM outbox WHERE id = ?::bigint"), { keyless })
                     .toString()
                     .isEmpty());
    }

    void replayReturnsTheFirstResponseUnchanged()
    {
        const CreateOrderResult first = handle(orderRequest(QStringLiteral("replay-me")));
        QCOMPARE(first.outcome, CreateOrderResult::Outcome::Created);
        QString keyVersion = db().scalar(QStringLiteral("SELECT xmin::text FROM idempotency_keys")).toString();
        for (int i = 1; i <= 3; ++i) {
            const CreateOrderResult again = handle(orderRequest(QStringLiteral("replay-me")));
            QCOMPARE(again.outcome, CreateOrderResult::Outcome::Replayed);
            QCOMPARE(again.httpStatus, 201);
            QCOMPARE(again.body, first.body);
            QCOMPARE(again.orderId, first.orderId);
            // Nothing of the key changes with a replay; the count arrives with the fold.
            QCOMPARE(db().scalar(QStringLiteral("SELECT xmin::text FROM idempotency_keys")).toString(), keyVersion);
            QCOMPARE(IdempotencyRepository(session()).foldReplays(), 1LL);
            QCOMPARE(db().scalar(QStringLiteral("SELECT replay_count FROM idempotency_keys")).toInt(), i);
            keyVersion = db().scalar(QStringLiteral("SELECT xmin::text FROM idempotency_keys")).toString();
        }
        QCOMPARE(count(QStringLiteral("orders")), 1LL);
    }

    void rejectionIsStoredAndReplayed()
    {
        const CreateOrderRequest big
            = orderRequest(QStringLiteral("big"), QStringLiteral("a"), QStringLiteral("2000000"));
        const CreateOrderResult first = handle(big);
        QCOMPARE(first.outcome, CreateOrderResult::Outcome::Rejected);
        const CreateOrderResult again = handle(big);
        QCOMPARE(again.outcome, CreateOrderResult::Outcome::Replayed);
        QCOMPARE(again.httpStatus, 422);
        QCOMPARE(again.body, first.body);
        QCOMPARE(db().scalar(QStringLiteral("SELECT failure_retryable FROM idempotency_keys")).toBool(), false);
        QCOMPARE(count(QStringLiteral("orders")), 0LL);
    }

    void normalisedAmountsAreTheSameRequest()
    {
        QCOMPARE(handle(orderRequest(QStringLiteral("n"), QStringLiteral("bob"), QStringLiteral("10.5"))).outcome,
            CreateOrderResult::Outcome::Created);
        QCOMPARE(handle(orderRequest(QStringLiteral("n"), QStringLiteral(" bob "), QStringLiteral("10.50"))).outcome,
            CreateOrderResult::Outcome::Replayed);
        QCOMPARE(handle(orderRequest(QStringLiteral("n"), QStringLiteral("bob"), QStringLiteral("10.51"))).outcome,
            CreateOrderResult::Outcome::Mismatch);
    }

    void createdOrderHasItsEventInTheOutbox()
    {
        CreateOrderRequest request
            = orderRequest(QStringLiteral("evt"), QStringLiteral("carol"), QStringLiteral("12.3"));
        request.currency = QStringLiteral("usd");
        const CreateOrderResult result = handle(request);
        QCOMPARE(result.outcome, CreateOrderResult::Outcome::Created);
        QCOMPARE(result.body.value(QStringLiteral("amount")).toString(), QStringLiteral("12.30"));
        QCOMPARE(result.body.value(QStringLiteral("currency")).toString(), QStringLiteral("USD"));
        QSqlQuery& q = session().exec(
            QStringLiteral("SELECT event_type, aggregate_type, aggregate_id, dedupe_key, status, payload::text, "
                           "headers->>'idempotency_key' FROM outbox_messages"),
            {}, QStringLiteral("outbox row"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("order.created"));
        QCOMPARE(q.value(1).toString(), QStringLiteral("order"));
        QCOMPARE(q.value(2).toString(), QString::number(*result.orderId));
        QCOMPARE(q.value(3).toString(), QStringLiteral("order.created:%1").arg(*result.orderId));
        QCOMPARE(q.value(4).toString(), QStringLiteral("pending"));
        QCOMPARE(QJsonDocument::fromJson(q.value(5).toString().toUtf8()).object(), result.body);
        QCOMPARE(q.value(6).toString(), QStringLiteral("evt"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT order_id FROM idempotency_keys")).toLongLong(), *result.orderId);
    }

    void failureAfterTheOrderInsertLeavesNothing()
    {
        CreateOrderHandler handler(session(), m_metrics, inForm(IdempotentRequest::Form::Transaction));
        handler.setBeforeCommitHook([] { throw std::runtime_error("injected failure after the order insert"); });
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, handler.handle(orderRequest(QStringLiteral("atomic"))));
        QCOMPARE(count(QStringLiteral("orders")), 0LL);
        QCOMPARE(count(QStringLiteral("outbox")), 0LL);
        QCOMPARE(count(QStringLiteral("idempotency_keys")), 0LL);
        // The key was never committed, so the client's retry executes normally.
        QCOMPARE(handle(orderRequest(QStringLiteral("atomic"))).outcome, CreateOrderResult::Outcome::Created);
    }

    void transientFailureReleasesTheKey()
    {
        CreateOrderHandler handler(session(), m_metrics, inForm(IdempotentRequest::Form::Transaction));
        handler.setBeforeCommitHook(
            [] { throw OutboxError(OutboxError::Kind::Transient, QStringLiteral("could not serialize access")); });
        const CreateOrderResult failed = handler.handle(orderRequest(QStringLiteral("flaky")));
        QCOMPARE(failed.outcome, CreateOrderResult::Outcome::Failed);
        QCOMPARE(failed.httpStatus, 503);
        QCOMPARE(count(QStringLiteral("orders")), 0LL);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT status || '/' || failure_retryable FROM idempotency_keys")).toString(),
            QStringLiteral("failed/true"));
        const CreateOrderResult retried = handle(orderRequest(QStringLiteral("flaky")));
        QCOMPARE(retried.outcome, CreateOrderResult::Outcome::Created);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT status FROM idempotency_keys")).toString(), QStringLiteral("completed"));
    }

    // A duplicate arriving while the first request's transaction is still open is told 409 at once
    // instead of queueing behind it, and the first request still completes.
    void duplicateDuringExecutionGets409WithoutWaiting()
    {
        auto other = db().openSession(QStringLiteral("duplicate"));
        CreateOrderResult duplicate;
        CreateOrderHandler first(session(), m_metrics, inForm(IdempotentRequest::Form::Transaction));
        first.setBeforeCommitHook([&] {
            CreateOrderHandler second(*other, m_metrics);
            duplicate = second.handle(orderRequest(QStringLiteral("busy")));
        });
        QCOMPARE(first.handle(orderRequest(QStringLiteral("busy"))).outcome, CreateOrderResult::Outcome::Created);
        QCOMPARE(duplicate.outcome, CreateOrderResult::Outcome::InProgress);
        QCOMPARE(duplicate.httpStatus, 409);
        QVERIFY(duplicate.retryAfterSeconds >= 1);
        QCOMPARE(count(QStringLiteral("orders")), 1LL);
    }

    // For operations that call out to other systems, the claim is committed on its own (a lease, not a
    // transaction, keeps duplicates out) and completed later under the in_progress state guard.
    void twoPhaseClaimForLongOperations()
    {
        const IdempotencyClaim claim { QStringLiteral("payments"), QStringLiteral("pay-1"),
            QString(64, QLatin1Char('a')), 60'000, 3'600'000 };
        IdempotencyRepository keys(session());
        {
            UnitOfWork uow(session());
            const ClaimResult claimed = keys.claim(claim);
            QCOMPARE(claimed.kind, ClaimResult::Kind::Claimed);
            uow.commit();
        }
        auto other = db().openSession(QStringLiteral("other"));
        IdempotencyRepository otherKeys(*other);
        {
            UnitOfWork uow(*other);
            const ClaimResult duplicate = otherKeys.claim(claim);
            QCOMPARE(duplicate.kind, ClaimResult::Kind::InProgress);
            QVERIFY2(duplicate.retryAfterMs > 50'000 && duplicate.retryAfterMs <= 60'000,
                qPrintable(QString::number(duplicate.retryAfterMs)));
        }
        {
            UnitOfWork uow(session());
            keys.complete(claim, 200, QByteArrayLiteral("{\"charged\": true}"), std::nullopt);
            uow.commit();
        }
        {
            UnitOfWork uow(session());
            QVERIFY_THROWS_EXCEPTION(OutboxError, keys.complete(claim, 500, QByteArrayLiteral("{}"), std::nullopt));
        }
        UnitOfWork uow(*other);
        const ClaimResult replay = otherKeys.claim(claim);
        QCOMPARE(replay.kind, ClaimResult::Kind::Replay);
        QCOMPARE(replay.responseStatus, 200);
        QCOMPARE(QJsonDocument::fromJson(replay.responseBody).object().value(QStringLiteral("charged")).toBool(), true);
        uow.commit();
        QCOMPARE(keys.foldReplays(), 1LL);
        const auto record = keys.find(claim.scope, claim.key);
        QVERIFY(record);
        QCOMPARE(record->status, KeyStatus::Completed);
        QCOMPARE(record->replayCount, 1);
        QVERIFY(!record->lockedUntil.isValid());
    }

    void releasedFailureLetsTheRetryRun()
    {
        const IdempotencyClaim claim { QStringLiteral("payments"), QStringLiteral("pay-2"),
            QString(64, QLatin1Char('b')), 60'000, 3'600'000 };
        IdempotencyRepository keys(session());
        {
            UnitOfWork uow(session());
            const ClaimResult claimed = keys.claim(claim);
            QCOMPARE(claimed.kind, ClaimResult::Kind::Claimed);
            keys.fail(claim, true, 503, QByteArrayLiteral("{\"error\": \"upstream timeout\"}"));
            uow.commit();
        }
        UnitOfWork uow(session());
        const ClaimResult retry = keys.claim(claim);
        QCOMPARE(retry.kind, ClaimResult::Kind::Claimed);
        QVERIFY(retry.takenOver);
    }

    void scopesSeparateKeys()
    {
        CreateOrderRequest a = orderRequest(QStringLiteral("shared"));
        CreateOrderRequest b = orderRequest(QStringLiteral("shared"), QStringLiteral("zed"), QStringLiteral("5"));
        a.scope = QStringLiteral("tenant-a");
        b.scope = QStringLiteral("tenant-b");
        QCOMPARE(handle(a).outcome, CreateOrderResult::Outcome::Created);
        QCOMPARE(handle(b).outcome, CreateOrderResult::Outcome::Created);
        QCOMPARE(count(QStringLiteral("orders")), 2LL);
    }

private:
    MetricsRecorder m_metrics;
};

QTEST_GUILESS_MAIN(TestIdempotency)
#include "tst_idempotency.moc"
