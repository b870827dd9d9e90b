// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/metricsrecorder.h"
#include "orders/createorderhandler.h"
#include "support/databasetestcase.h"

#include <QTest>
#include <latch>
#include <thread>
#include <vector>

// 32 connections fire the same key at the same instant. Whatever the interleaving, exactly one executes.
class TestConcurrency final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestConcurrency()
        : DatabaseTestCase(QStringLiteral("concurrency"))
    { }

private:
    static constexpr int Clients = 32;
    static constexpr int Rounds = 5;

    struct Answer {
        CreateOrderResult result;
        bool payloadB = false;
        QString error;
    };

    // Every client opens its own connection first, then all are released together by the latch.
    QList<Answer> fire(const QString& key, bool mixedPayloads)
    {
        QList<Answer> answers(Clients);
        std::latch connected(Clients);
        std::latch start(1);
        std::vector<std::thread> clients;
        clients.reserve(Clients);
        for (int i = 0; i < Clients; ++i) {
            clients.emplace_back([&, i] {
                Answer& answer = answers[i];
                answer.payloadB = mixedPayloads && i % 2 == 1;
                try {
                    DbSession session(db().settings(), QStringLiteral("client"));
                    MetricsRecorder metrics;
                    CreateOrderHandler handler(session, metrics);
                    CreateOrderRequest request;
                    request.key = key;
                    request.customer = answer.payloadB ? QStringLiteral("bob") : QStringLiteral("alice");
                    request.amount = answer.payloadB ? QStringLiteral("20.00") : QStringLiteral("10.00");
                    connected.count_down();
                    start.wait();
                    answer.result = handler.handle(request);
                } catch (const std::exception& e) {
                    connected.count_down();
                    answer.error = QString::fromUtf8(e.what());
                }
            });
        }
        connected.wait();
        start.count_down();
        for (std::thread& client : clients)
            client.join();
        return answers;
    }

    qint64 count(const QString& sql, const QString& key) { return db().scalar(sql, { key }).toLongLong(); }

private slots:
    void duplicatesNeverExecuteTwice_data()
    {
        QTest::addColumn<bool>("mixedPayloads");
        QTest::newRow("same payload") << false;
        QTest::newRow("mixed payloads") << true;
    }

    void duplicatesNeverExecuteTwice()
    {
        QFETCH(bool, mixedPayloads);
        for (int round = 0; round < Rounds; ++round) {
            const QString key = QStringLiteral("%1-%2").arg(mixedPayloads ? "mixed" : "same").arg(round);
            const QList<Answer> answers = fire(key, mixedPayloads);

            const Answer* winner = nullptr;
            for (const Answer& answer : answers) {
                QVERIFY2(answer.error.isEmpty(), qPrintable(answer.error));
                if (answer.result.outcome == CreateOrderResult::Outcome::Created) {
                    QVERIFY2(!winner, "two requests with the same key executed");
                    winner = &answer;
                }
            }
            QVERIFY(winner);
            for (const Answer& answer : answers) {
                if (&answer == winner)
                    continue;
                const bool sameAsWinner = answer.payloadB == winner->payloadB;
                switch (answer.result.outcome) {
                case CreateOrderResult::Outcome::Replayed:
                    QVERIFY2(sameAsWinner, "a different request was answered with the winner's response");
                    QCOMPARE(answer.result.httpStatus, 201);
                    QCOMPARE(answer.result.body, winner->result.body);
                    break;
                case CreateOrderResult::Outcome::InProgress:
                    QCOMPARE(answer.result.httpStatus, 409);
                    break;
                case CreateOrderResult::Outcome::Mismatch:
                    QVERIFY2(!sameAsWinner, "the same request was refused as a mismatch");
                    QCOMPARE(answer.result.httpStatus, 422);
                    break;
                default:
                    QFAIL(qPrintable(QStringLiteral("unexpected outcome %1")
                                         .arg(CreateOrderResult::outcomeName(answer.result.outcome))));
                }
            }
            const QString orderOfKey
                = QStringLiteral("(SELECT order_id FROM idempotency_keys WHERE idem_key = ?::text)");
            QCOMPARE(count(QStringLiteral("SELECT count(*) FROM orders WHERE id = ") + orderOfKey, key), 1LL);
            QCOMPARE(count(QStringLiteral("SELECT count(*) FROM outbox WHERE aggregate_id = ") + orderOfKey
                             + QStringLiteral("::text"),
                         key),
                1LL);
            QCOMPARE(
                count(QStringLiteral(
                          "SELECT count(*) FROM idempotency_keys WHERE idem_key = ?::text AND status = 'completed'"),
                    key),
                1LL);
        }
        // Across all rounds: one order per key, nothing else.
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(),
            db().scalar(QStringLiteral("SELECT count(*) FROM idempotency_keys")).toLongLong());
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox")).toLongLong(),
            db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong());
    }

    // 32 clients replaying one key at once, three times over: no replay writes a row version of the key, and once
    // the replays are folded its count is exactly the number of replays answered.
    void replayCountsConvergeAfterTheFold()
    {
        const QString key = QStringLiteral("replayed-often");
        {
            MetricsRecorder metrics;
            CreateOrderRequest request;
            request.key = key;
            request.customer = QStringLiteral("alice");
            request.amount = QStringLiteral("10.00");
            QCOMPARE(
                CreateOrderHandler(session(), metrics).handle(request).outcome, CreateOrderResult::Outcome::Created);
        }
        const QString version = db().scalar(QStringLiteral("SELECT xmin::text FROM idempotency_keys")).toString();
        qint64 replays = 0;
        for (int round = 0; round < 3; ++round) {
            for (const Answer& answer : fire(key, false)) {
                QVERIFY2(answer.error.isEmpty(), qPrintable(answer.error));
                QCOMPARE(answer.result.outcome, CreateOrderResult::Outcome::Replayed);
                ++replays;
            }
        }
        QCOMPARE(db().scalar(QStringLiteral("SELECT xmin::text FROM idempotency_keys")).toString(), version);
        QCOMPARE(db().scalar(QStringLiteral("SELECT idempotency_fold_replays()")).toLongLong(), replays);
        QCOMPARE(db().scalar(QStringLiteral("SELECT replay_count FROM idempotency_keys")).toLongLong(), replays);
        QCOMPARE(db().scalar(QStringLiteral("SELECT idempotency_fold_replays()")).toLongLong(), 0LL);
    }
};

QTEST_GUILESS_MAIN(TestConcurrency)
#include "tst_concurrency.moc"
