// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "db/unitofwork.h"
#include "support/databasetestcase.h"
#include "support/httptesting.h"
#include "support/manpagetesting.h"
#include "support/processtesting.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTcpSocket>
#include <QTest>
#include <QUrl>
#include <memory>

namespace {

using HttpTesting::collect;
using HttpTesting::HttpReply;
using HttpTesting::WaitMs;

QByteArray orderBody(const QString& amount = QStringLiteral("12.5"))
{
    return QStringLiteral(R"({"customer": "c-17", "amount": %1, "currency": "EUR"})").arg(amount).toUtf8();
}

// One orders-service process on a free port of 127.0.0.1.
class Service final {
    Q_DISABLE_COPY_MOVE(Service)
public:
    explicit Service(const QStringList& arguments)
    {
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(QStringLiteral(ORDERS_SERVICE_PATH), arguments);
    }

    ~Service()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    // Waits for the "listening on" line; false (with the process's stderr in `error`) if it never comes.
    bool waitUntilListening(QString& error)
    {
        while (!m_process.canReadLine()) {
            if (!m_process.waitForReadyRead(WaitMs)) {
                m_process.waitForFinished(WaitMs);
                error = QString::fromUtf8(m_process.readAllStandardError());
                return false;
            }
        }
        const QByteArray line = m_process.readLine().trimmed();
        m_baseUrl = QUrl(QString::fromUtf8(line.mid(line.indexOf("http://"))));
        return line.startsWith("listening on http://127.0.0.1:") && m_baseUrl.port() > 0;
    }

    QProcess& process() { return m_process; }
    const QUrl& baseUrl() const { return m_baseUrl; }

    QNetworkRequest request(const QString& path, const QByteArray& key = {},
        const QByteArray& contentType = QByteArrayLiteral("application/json")) const
    {
        QNetworkRequest request(m_baseUrl.resolved(QUrl(path)));
        if (!key.isNull())
            request.setRawHeader("Idempotency-Key", key);
        if (!contentType.isNull())
            request.setRawHeader("Content-Type", contentType);
        return request;
    }

private:
    QProcess m_process;
    QUrl m_baseUrl;
};

} // namespace

class TestOrdersService final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestOrdersService()
        : DatabaseTestCase(QStringLiteral("ordersservice"))
    { }

private slots:
    void initTestCase()
    {
        setUpDatabase();
        m_network.setProxy(QNetworkProxy::NoProxy);
    }

    void cleanupTestCase()
    {
        m_service.reset();
        tearDownDatabase();
    }

    void init()
    {
        db().reset();
        if (!m_service)
            m_service = startService();
        QVERIFY(m_service);
    }

    void createThenReplayTheIdenticalResponse()
    {
        const HttpReply created = post("create-1", orderBody());
        QCOMPARE(created.status, 201);
        QCOMPARE(created.contentType, QByteArrayLiteral("application/json"));
        QVERIFY(created.replayed.isEmpty());
        const QJsonObject order = created.json();
        QCOMPARE(order.value(QStringLiteral("customer")).toString(), QStringLiteral("c-17"));
        QCOMPARE(order.value(QStringLiteral("amount")).toString(), QStringLiteral("12.50"));
        QCOMPARE(order.value(QStringLiteral("currency")).toString(), QStringLiteral("EUR"));
        QVERIFY(order.value(QStringLiteral("id")).toInteger() > 0);

        const HttpReply replay = post("create-1", orderBody());
        QCOMPARE(replay.status, 201);
        QCOMPARE(replay.body, created.body);
        QCOMPARE(replay.replayed, QByteArrayLiteral("true"));
        QCOMPARE(count(QStringLiteral("orders")), 1LL);
        QCOMPARE(count(QStringLiteral("outbox")), 1LL);
    }

    void amountForms_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("amount");
        QTest::newRow("number with one fraction digit")
            << QByteArray(R"({"customer":"c","amount":12.5})") << QStringLiteral("12.50");
        QTest::newRow("number 0.1") << QByteArray(R"({"customer":"c","amount":0.1})") << QStringLiteral("0.10");
        QTest::newRow("integer at the limit")
            << QByteArray(R"({"customer":"c","amount":1000000})") << QStringLiteral("1000000.00");
        QTest::newRow("decimal string") << QByteArray(R"({"customer":"c","amount":"7"})") << QStringLiteral("7.00");
        QTest::newRow("two fraction digits")
            << QByteArray(R"({"customer":"c","amount":19.99})") << QStringLiteral("19.99");
    }

    void amountForms()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, amount);
        const HttpReply created = post("amount", body);
        QCOMPARE(created.status, 201);
        QCOMPARE(created.json().value(QStringLiteral("amount")).toString(), amount);
        QCOMPARE(created.json().value(QStringLiteral("currency")).toString(), QStringLiteral("EUR"));
    }

    void refusedRequests_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("field");

        const QByteArray json = QByteArrayLiteral("application/json");
        const QString bad = QStringLiteral("bad_request");
        const QString key = QStringLiteral("idempotency_key");
        QTest::newRow("missing key") << QByteArray() << json << orderBody() << 400 << bad << key;
        QTest::newRow("empty key") << QByteArray("") << json << orderBody() << 400 << bad << key;
        QTest::newRow("key over 255") << QByteArray(256, 'k') << json << orderBody() << 400 << bad << key;
        // Decoded anyway, "k\xff" and "k\xfe" would both become "k\uFFFD": one key for two clients.
        QTest::newRow("key not UTF-8") << QByteArray("k\xff") << json << orderBody() << 400 << bad << key;
        QTest::newRow("key an overlong UTF-8 form")
            << QByteArray("k\xc0\xaf") << json << orderBody() << 400 << bad << key;
        QTest::newRow("invalid JSON") << QByteArray("k") << json << QByteArray("{\"customer\": ") << 400 << bad
                                      << QString();
        // JSON allows control characters in strings only escaped; Qt's parser takes them raw, and then may not find
        // the body's keys.
        QTest::newRow("raw control character in a string") << QByteArray("k") << json
                                                           << QByteArray("{\"customer\": \"a\x01"
                                                                         "b\", \"amount\": 1}")
                                                           << 400 << bad << QString();
        QTest::newRow("not an object") << QByteArray("k") << json << QByteArray("[1]") << 400 << bad << QString();
        QTest::newRow("missing customer")
            << QByteArray("k") << json << QByteArray(R"({"amount": 1})") << 400 << bad << QStringLiteral("customer");
        QTest::newRow("customer a number") << QByteArray("k") << json << QByteArray(R"({"customer": 17, "amount": 1})")
                                           << 400 << bad << QStringLiteral("customer");
        QTest::newRow("missing amount") << QByteArray("k") << json << QByteArray(R"({"customer": "c"})") << 400 << bad
                                        << QStringLiteral("amount");
        QTest::newRow("amount a boolean")
            << QByteArray("k") << json << QByteArray(R"({"customer": "c", "amount": true})") << 400 << bad
            << QStringLiteral("amount");
        QTest::newRow("currency a number")
            << QByteArray("k") << json << QByteArray(R"({"customer": "c", "amount": 1, "currency": 978})") << 400 << bad
            << QStringLiteral("currency");
        QTest::newRow("three fraction digits")
            << QByteArray("k") << json << orderBody(QStringLiteral("12.345")) << 400 << bad << QStringLiteral("amount");
        QTest::newRow("negative amount") << QByteArray("k") << json << orderBody(QStringLiteral("-5")) << 400 << bad
                                         << QStringLiteral("amount");
        QTest::newRow("huge amount") << QByteArray("k") << json << orderBody(QStringLiteral("1e300")) << 400 << bad
                                     << QStringLiteral("amount");
        QTest::newRow("empty customer") << QByteArray("k") << json << QByteArray(R"({"customer": " ", "amount": 1})")
                                        << 400 << bad << QStringLiteral("customer");
        QTest::newRow("text/plain") << QByteArray("k") << QByteArray("text/plain") << orderBody() << 415
                                    << QStringLiteral("unsupported_media_type") << QString();
        QTest::newRow("form") << QByteArray("k") << QByteArray("application/x-www-form-urlencoded") << orderBody()
                              << 415 << QStringLiteral("unsupported_media_type") << QString();
        QTest::newRow("over 64 KiB") << QByteArray("k") << json
                                     << QByteArray(R"({"customer": ")") + QByteArray(64LL * 1024, 'c')
                + QByteArray(R"(", "amount": 1})")
                                     << 413 << QStringLiteral("payload_too_large") << QString();
    }

    void refusedRequests()
    {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, error);
        QFETCH(QString, field);
        const HttpReply reply
            = collect(m_network.post(m_service->request(QStringLiteral("/orders"), key, contentType), body));
        QCOMPARE(reply.status, status);
        QCOMPARE(reply.json().value(QStringLiteral("error")).toString(), error);
        QVERIFY(!reply.json().value(QStringLiteral("message")).toString().isEmpty());
        QCOMPARE(reply.json().value(QStringLiteral("field")).toString(), field);
        QCOMPARE(count(QStringLiteral("orders")), 0LL);
    }

    void inProgressKeyGets409WithRetryAfter()
    {
        {
            // The test's own transaction holds the key's lock, as a first request still executing would, through
            // the schema's one definition of that lock (so a change of it cannot leave this test holding another).
            auto holder = db().openSession(QStringLiteral("holder"));
            UnitOfWork uow(*holder);
            QSqlQuery& locked = holder->exec(QStringLiteral("SELECT idempotency_try_lock(?::text, ?::text)"),
                { QStringLiteral("orders"), QStringLiteral("busy") }, QStringLiteral("holding the key"));
            QVERIFY(locked.next() && locked.value(0).toBool());
            const HttpReply busy = post("busy", orderBody());
            QCOMPARE(busy.status, 409);
            QCOMPARE(busy.retryAfter, QByteArrayLiteral("1"));
            QCOMPARE(busy.json().value(QStringLiteral("error")).toString(), QStringLiteral("request_in_progress"));
        }
        QCOMPARE(post("busy", orderBody()).status, 201);
    }

    void keyReuseWithADifferentBodyIs422()
    {
        QCOMPARE(post("reused", orderBody()).status, 201);
        const HttpReply mismatch = post("reused", orderBody(QStringLiteral("13")));
        QCOMPARE(mismatch.status, 422);
        QCOMPARE(mismatch.json().value(QStringLiteral("error")).toString(), QStringLiteral("idempotency_key_reuse"));
        QVERIFY(mismatch.replayed.isEmpty());
        QCOMPARE(count(QStringLiteral("orders")), 1LL);
    }

    void amountOverTheLimitIsRejectedAndReplayed()
    {
        const HttpReply rejected = post("large", orderBody(QStringLiteral("\"1000000.01\"")));
        QCOMPARE(rejected.status, 422);
        QCOMPARE(rejected.json().value(QStringLiteral("error")).toString(), QStringLiteral("amount_over_limit"));
        const HttpReply replay = post("large", orderBody(QStringLiteral("\"1000000.01\"")));
        QCOMPARE(replay.status, 422);
        QCOMPARE(replay.body, rejected.body);
        QCOMPARE(replay.replayed, QByteArrayLiteral("true"));
        QCOMPARE(count(QStringLiteral("orders")), 0LL);
    }

    void getReturnsTheCreatedOrder()
    {
        const HttpReply created = post("get-1", orderBody());
        QCOMPARE(created.status, 201);
        const qint64 id = created.json().value(QStringLiteral("id")).toInteger();
        const HttpReply found = get(QStringLiteral("/orders/%1").arg(id));
        QCOMPARE(found.status, 200);
        QCOMPARE(found.contentType, QByteArrayLiteral("application/json"));
        QCOMPARE(QJsonDocument::fromJson(found.body).object(), created.json());
    }

    // A known path with another method names the allowed one; an unknown path stays 404.
    void wrongMethodIs405WithAllow_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("allow");
        QTest::newRow("PUT /orders") << QByteArray("PUT") << QStringLiteral("/orders") << 405 << QByteArray("POST");
        QTest::newRow("GET /orders") << QByteArray("GET") << QStringLiteral("/orders") << 405 << QByteArray("POST");
        QTest::newRow("DELETE /orders/1")
            << QByteArray("DELETE") << QStringLiteral("/orders/1") << 405 << QByteArray("GET");
        QTest::newRow("POST /healthz") << QByteArray("POST") << QStringLiteral("/healthz") << 405 << QByteArray("GET");
        QTest::newRow("PATCH /metrics") << QByteArray("PATCH") << QStringLiteral("/metrics") << 405
                                        << QByteArray("GET");
        QTest::newRow("unknown path") << QByteArray("GET") << QStringLiteral("/nothing") << 404 << QByteArray();
    }

    void wrongMethodIs405WithAllow()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(int, status);
        QFETCH(QByteArray, allow);
        QNetworkReply* reply
            = m_network.sendCustomRequest(m_service->request(path, QByteArrayLiteral("k-405")), method, orderBody());
        QSignalSpy(reply, &QNetworkReply::finished).wait(WaitMs);
        QCOMPARE(reply->rawHeader("Allow"), allow);
        const HttpReply answer = collect(reply);
        QCOMPARE(answer.status, status);
        if (status == 405)
            QCOMPARE(answer.json().value(QStringLiteral("error")).toString(), QStringLiteral("method_not_allowed"));
        QCOMPARE(count(QStringLiteral("orders")), 0LL);
    }

    void getRefusals_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown order") << QStringLiteral("/orders/424242") << 404 << QStringLiteral("not_found");
        QTest::newRow("not a number") << QStringLiteral("/orders/abc") << 400 << QStringLiteral("bad_request");
        QTest::newRow("zero") << QStringLiteral("/orders/0") << 400 << QStringLiteral("bad_request");
    }

    void getRefusals()
    {
        QFETCH(QString, path);
        QFETCH(int, status);
        QFETCH(QString, error);
        const HttpReply reply = get(path);
        QCOMPARE(reply.status, status);
        QCOMPARE(reply.json().value(QStringLiteral("error")).toString(), error);
    }

    // A client that connects and sends nothing (or half a request) is cut off after the connection lifetime,
    // and connections beyond the limit are refused at once, while the service keeps answering others.
    void slowClientsCannotHoldTheService()
    {
        // The refusal must come within RefusalMs, a third of the lifetime: a service without a connection limit,
        // which only closes connections when their lifetime ends, cannot pass.
        constexpr int LifetimeMs = 15'000;
        constexpr int RefusalMs = 5'000;
        const auto service = startService(db().dsn(),
            { QStringLiteral("--max-connections"), QStringLiteral("2"), QStringLiteral("--connection-lifetime-ms"),
                QString::number(LifetimeMs) });
        QVERIFY(service);
        const QUrl url = service->baseUrl();
        QTcpSocket slow;
        slow.connectToHost(url.host(), quint16(url.port()));
        QVERIFY(slow.waitForConnected(WaitMs));
        slow.write("POST /orders HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"cus");
        QVERIFY(slow.waitForBytesWritten(WaitMs));
        QTcpSocket idle;
        idle.connectToHost(url.host(), quint16(url.port()));
        QVERIFY(idle.waitForConnected(WaitMs));
        // Two connections are open: a third is closed at once, long before any lifetime ends.
        QTcpSocket third;
        third.connectToHost(url.host(), quint16(url.port()));
        QVERIFY(third.waitForConnected(WaitMs));
        QVERIFY2(third.waitForDisconnected(RefusalMs), "the connection over the limit was not refused at once");
        // Refused for the limit, not for its age: the idle connection is still served.
        idle.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        QByteArray answer;
        QList<int> statuses;
        while ((statuses = completeResponses(answer)).isEmpty() && idle.waitForReadyRead(WaitMs))
            answer += idle.readAll();
        QCOMPARE(statuses, QList<int> { 200 });
        // The lifetime ends both held connections.
        QVERIFY(slow.state() == QAbstractSocket::UnconnectedState || slow.waitForDisconnected(LifetimeMs + WaitMs));
        QVERIFY(idle.state() == QAbstractSocket::UnconnectedState || idle.waitForDisconnected(LifetimeMs + WaitMs));
        QNetworkAccessManager network;
        network.setProxy(QNetworkProxy::NoProxy);
        QCOMPARE(collect(network.get(service->request(QStringLiteral("/healthz")))).status, 200);
    }

    // Work that waits for the database (here: a table lock) holds one pool connection; the others, and the HTTP
    // thread, go on serving.
    void aRequestWaitingForTheDatabaseBlocksNoOther()
    {
        const auto service = startService(dsnNamed("orders-service-pool"), { QStringLiteral("--db-connections=2") });
        QVERIFY(service);
        auto lock = lockOrders();
        QNetworkReply* blocked = m_network.post(service->request(QStringLiteral("/orders"), "held"), orderBody());
        QTRY_COMPARE_WITH_TIMEOUT(waitingOnLocks("orders-service-pool"), 1LL, WaitMs);
        QCOMPARE(get(*service, QStringLiteral("/healthz")).status, 200);
        QCOMPARE(get(*service, QStringLiteral("/metrics")).status, 200);
        QVERIFY(!blocked->isFinished());
        lock.reset(); // the transaction rolls back, the lock goes
        QCOMPARE(collect(blocked).status, 201);
    }

    // One connection, one waiting place: the third request is answered 503 with Retry-After at once, while the
    // first two still wait; they complete once the database moves again, and the refused one succeeds on retry.
    void aFullQueueIs503WithRetryAfter()
    {
        const auto service = startService(dsnNamed("orders-service-queue"),
            { QStringLiteral("--db-connections=1"), QStringLiteral("--max-queued=1") });
        QVERIFY(service);
        auto lock = lockOrders();
        QNetworkReply* running = m_network.post(service->request(QStringLiteral("/orders"), "q-1"), orderBody());
        QTRY_COMPARE_WITH_TIMEOUT(waitingOnLocks("orders-service-queue"), 1LL, WaitMs);
        QNetworkReply* queued = m_network.post(service->request(QStringLiteral("/orders"), "q-2"), orderBody());
        QTRY_COMPARE_WITH_TIMEOUT(
            HttpTesting::sample(get(*service, QStringLiteral("/metrics")).body, "orders_service_requests_waiting"), 1.0,
            WaitMs);
        const HttpReply refused = post(*service, "q-3", orderBody());
        QCOMPARE(refused.status, 503);
        QCOMPARE(refused.retryAfter, QByteArrayLiteral("1"));
        QCOMPARE(refused.json().value(QStringLiteral("error")).toString(), QStringLiteral("overloaded"));
        QVERIFY(!running->isFinished() && !queued->isFinished());
        QCOMPARE(HttpTesting::sample(get(*service, QStringLiteral("/metrics")).body, "orders_service_overloaded_total"),
            1.0);
        lock.reset();
        QCOMPARE(collect(running).status, 201);
        QCOMPARE(collect(queued).status, 201);
        const HttpReply retried = post(*service, "q-3", orderBody());
        QCOMPARE(retried.status, 201);
        QVERIFY(retried.replayed.isEmpty());
        QCOMPARE(count(QStringLiteral("orders")), 3LL);
    }

    // A client that goes away while its create waits loses only the answer: the work commits, the service lives
    // on, and the client's retry with the same key is a replay of what it missed.
    void aClientGoneBeforeItsAnswerLosesNothing()
    {
        const auto service = startService(dsnNamed("orders-service-gone"));
        QVERIFY(service);
        auto lock = lockOrders();
        QTcpSocket client;
        client.connectToHost(service->baseUrl().host(), quint16(service->baseUrl().port()));
        QVERIFY(client.waitForConnected(WaitMs));
        client.write(rawPost("gone", orderBody()));
        QTRY_COMPARE_WITH_TIMEOUT(waitingOnLocks("orders-service-gone"), 1LL, WaitMs);
        client.abort();
        lock.reset();
        QTRY_COMPARE_WITH_TIMEOUT(
            db().scalar(QStringLiteral("SELECT count(*) FROM idempotency_keys WHERE idem_key = 'gone' "
                                       "AND status = 'completed'"))
                .toLongLong(),
            1LL, WaitMs);
        QCOMPARE(get(*service, QStringLiteral("/healthz")).status, 200);
        const HttpReply retry = post(*service, "gone", orderBody());
        QCOMPARE(retry.status, 201);
        QCOMPARE(retry.replayed, QByteArrayLiteral("true"));
        QCOMPARE(count(QStringLiteral("orders")), 1LL);
    }

    // HTTP/1.1 pipelining: a client may send its next request before the first is answered. The health check
    // behind a waiting create finishes first on another connection of the pool, but is answered second.
    void pipelinedAnswersKeepTheirOrder()
    {
        const auto service = startService(dsnNamed("orders-service-pipe"), { QStringLiteral("--db-connections=2") });
        QVERIFY(service);
        auto lock = lockOrders();
        QTcpSocket client;
        client.connectToHost(service->baseUrl().host(), quint16(service->baseUrl().port()));
        QVERIFY(client.waitForConnected(WaitMs));
        client.write(rawPost("piped", orderBody()) + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        QTRY_COMPARE_WITH_TIMEOUT(waitingOnLocks("orders-service-pipe"), 1LL, WaitMs);
        // The health check has its answer by now (its connection is idle again); it must not overtake the create's.
        QTRY_VERIFY_WITH_TIMEOUT(
            db().scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                       "'orders-service-pipe' AND state = 'idle'"))
                    .toLongLong()
                == 1,
            WaitMs);
        lock.reset();
        QByteArray received;
        QList<int> statuses;
        while ((statuses = completeResponses(received)).size() < 2 && client.waitForReadyRead(WaitMs))
            received += client.readAll();
        QCOMPARE(statuses, (QList<int> { 201, 200 }));
    }

    void healthz()
    {
        const HttpReply health = get(QStringLiteral("/healthz"));
        QCOMPARE(health.status, 200);
        QCOMPARE(health.json(), (QJsonObject { { QStringLiteral("status"), QStringLiteral("ok") } }));
    }

    // A fresh process, so its counters hold exactly this sequence; its handler metrics reach metric_rollups.
    // The shared service is stopped first (it flushes on the way out), so the rollups hold this process's only.
    void metricsCountOutcomes()
    {
        QVERIFY(stopGracefully(*m_service));
        m_service.reset();
        db().reset();
        const auto service = startService();
        QVERIFY(service);
        QCOMPARE(post(*service, "m-1", orderBody()).status, 201);
        QCOMPARE(post(*service, "m-1", orderBody()).status, 201);
        QCOMPARE(post(*service, "m-1", orderBody()).status, 201);
        QCOMPARE(post(*service, "m-2", orderBody()).status, 201);
        QCOMPARE(post(*service, "m-2", orderBody(QStringLiteral("1"))).status, 422);
        QCOMPARE(post(*service, "m-3", orderBody(QStringLiteral("2000000"))).status, 422);
        QCOMPARE(post(*service, "", orderBody()).status, 400);
        QCOMPARE(collect(m_network.post(service->request(QStringLiteral("/orders"), "m-4", "text/plain"), orderBody()))
                     .status,
            415);

        // The backlog is sampled with each once-a-second flush.
        HttpReply metrics;
        QTRY_VERIFY_WITH_TIMEOUT(
            (metrics = get(*service, QStringLiteral("/metrics"))).body.contains("\noutbox_backlog_messages 2\n"),
            WaitMs);
        QCOMPARE(metrics.status, 200);
        QVERIFY2(metrics.contentType.startsWith("text/plain; version=0.0.4"), metrics.contentType.constData());
        const QList<QByteArray> lines = metrics.body.split('\n');
        for (const char* expected : {
                 "# TYPE orders_service_requests_total counter",
                 "orders_service_requests_total{outcome=\"created\"} 2",
                 "orders_service_requests_total{outcome=\"replayed\"} 2",
                 "orders_service_requests_total{outcome=\"in_progress\"} 0",
                 "orders_service_requests_total{outcome=\"mismatch\"} 1",
                 "orders_service_requests_total{outcome=\"bad_request\"} 2",
                 "orders_service_requests_total{outcome=\"rejected\"} 1",
                 "orders_service_requests_total{outcome=\"failed\"} 0",
                 "orders_service_overloaded_total 0",
                 "orders_service_requests_waiting 0",
                 "# TYPE outbox_backlog_messages gauge",
                 "outbox_backlog_messages 2",
             })
            QVERIFY2(lines.contains(expected),
                qPrintable(QStringLiteral("%1 missing in\n%2")
                               .arg(QLatin1String(expected))
                               .arg(QString::fromUtf8(metrics.body))));
        QVERIFY(metrics.body.contains("\noutbox_oldest_unpublished_age_seconds "));

        // The once-a-second flush writes the handler's counters (bad requests are not counted there).
        QTRY_COMPARE_WITH_TIMEOUT(
            db().scalar(QStringLiteral("SELECT coalesce(sum(requests), 0) FROM metric_rollups")).toLongLong(), 6LL,
            WaitMs);
        QCOMPARE(db().scalar(QStringLiteral("SELECT sum(replays) FROM metric_rollups")).toLongLong(), 2LL);
    }

    // 64 identical requests at once execute once. QNetworkAccessManager opens at most 6 connections per host,
    // so 11 managers carry them on 64 parallel connections. The service serves them one at a time, so the
    // others are normally replays; a 409 is also correct and must turn into a replay when retried.
    void concurrentDuplicatesExecuteOnce()
    {
        constexpr int Requests = 64;
        std::vector<std::unique_ptr<QNetworkAccessManager>> managers;
        for (int i = 0; i < (Requests + 5) / 6; ++i) {
            managers.push_back(std::make_unique<QNetworkAccessManager>());
            managers.back()->setProxy(QNetworkProxy::NoProxy);
        }
        QList<QNetworkReply*> pending;
        for (int i = 0; i < Requests; ++i)
            pending.append(managers[size_t(i) % managers.size()]->post(
                m_service->request(QStringLiteral("/orders"), "same"), orderBody()));
        QList<HttpReply> replies;
        for (QNetworkReply* reply : pending)
            replies.append(collect(reply));

        int created = 0;
        QByteArray createdBody;
        int conflicts = 0;
        for (int i = 0; i < Requests; ++i) {
            const HttpReply& reply = replies[i];
            if (reply.status == 201 && reply.replayed.isEmpty()) {
                ++created;
                createdBody = reply.body;
            } else if (reply.status == 409) {
                QVERIFY(!reply.retryAfter.isEmpty());
                ++conflicts;
            } else {
                QCOMPARE(reply.status, 201);
                QCOMPARE(reply.replayed, QByteArrayLiteral("true"));
            }
        }
        QCOMPARE(created, 1);
        for (const HttpReply& reply : replies) {
            if (reply.status == 201)
                QCOMPARE(reply.body, createdBody);
        }
        for (int i = 0; i < conflicts; ++i) {
            const HttpReply retry = post("same", orderBody());
            QCOMPARE(retry.status, 201);
            QCOMPARE(retry.replayed, QByteArrayLiteral("true"));
            QCOMPARE(retry.body, createdBody);
        }
        QCOMPARE(count(QStringLiteral("orders")), 1LL);
        QCOMPARE(count(QStringLiteral("outbox")), 1LL);
    }

    // With --relay the service publishes its own outbox; SIGTERM stops the relay and the server, flushes and
    // exits 0 without leaving a connection behind.
    void relayAndGracefulShutdown()
    {
        // Its own application name tells its connections apart from the shared service's.
        auto service = startService(db().dsn() + QStringLiteral(" application_name=orders-service-stopping"),
            { QStringLiteral("--relay"), QStringLiteral("2"), QStringLiteral("--sink"), QStringLiteral("null") });
        QVERIFY(service);
        QCOMPARE(post(*service, "relayed", orderBody()).status, 201);
        // The service's row is in the log, published by its lane's cursor (migration 0028): outbox_messages says.
        QTRY_COMPARE_WITH_TIMEOUT(count(QStringLiteral("outbox_messages WHERE status = 'published'")), 1LL, WaitMs);

        QVERIFY(stopGracefully(*service));
        QTRY_COMPARE_WITH_TIMEOUT(db().scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = ? "
                                                             "AND application_name = 'orders-service-stopping'"),
                                          { db().name() })
                                      .toLongLong(),
            0LL, WaitMs);
    }

    void versionNamesTheSchema()
    {
        QProcess process;
        process.start(QStringLiteral(ORDERS_SERVICE_PATH), { QStringLiteral("--version") });
        QVERIFY(process.waitForFinished(WaitMs));
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(process.readAllStandardOutput()),
            QStringLiteral("orders-service %1 (schema version %2)\n")
                .arg(QStringLiteral(OUTBOX_PROJECT_VERSION))
                .arg(SchemaMigrator::latestVersion()));
    }

    // The manual page describes every option --help lists: both come from ServiceOptions::table().
    void manPageListsWhatHelpLists()
    {
        const auto output = [](const QString& option) {
            QProcess process;
            process.start(QStringLiteral(ORDERS_SERVICE_PATH), { option });
            if (!process.waitForFinished(WaitMs) || process.exitCode() != 0)
                return QString();
            return QString::fromUtf8(process.readAllStandardOutput());
        };
        const QString man = output(QStringLiteral("--man-page"));
        QVERIFY(man.startsWith(QStringLiteral(".TH \"ORDERS-SERVICE\" \"1\"")));
        const QStringList options = ManPageTesting::optionsOf(output(QStringLiteral("--help")));
        QVERIFY2(options.size() >= 12, qPrintable(options.join(QLatin1Char(' '))));
        for (const QString& option : options)
            QVERIFY2(man.contains(ManPageTesting::entryOf(option)), qPrintable(option));
    }

    void badStartIsOneLineAndAnExitCode_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown option") << QStringList { QStringLiteral("--frob") } << 2 << QStringLiteral("frob");
        QTest::newRow("listen without port")
            << QStringList { QStringLiteral("--listen=127.0.0.1") } << 2 << QStringLiteral("--listen");
        QTest::newRow("listen host name")
            << QStringList { QStringLiteral("--listen=example.org:80") } << 2 << QStringLiteral("--listen");
        QTest::newRow("listen port too large")
            << QStringList { QStringLiteral("--listen=127.0.0.1:65536") } << 2 << QStringLiteral("--listen");
        QTest::newRow("relay zero") << QStringList { QStringLiteral("--relay=0") } << 2 << QStringLiteral("--relay");
        QTest::newRow("relay text") << QStringList { QStringLiteral("--relay=many") } << 2 << QStringLiteral("--relay");
        QTest::newRow("unknown sink") << QStringList { QStringLiteral("--relay=1"), QStringLiteral("--sink=kafka:x") }
                                      << 2 << QStringLiteral("--sink");
        QTest::newRow("sink without relay")
            << QStringList { QStringLiteral("--sink=null") } << 2 << QStringLiteral("--sink");
        QTest::newRow("no database connection")
            << QStringList { QStringLiteral("--db-connections=0") } << 2 << QStringLiteral("--db-connections");
        QTest::newRow("too many database connections")
            << QStringList { QStringLiteral("--db-connections=257") } << 2 << QStringLiteral("--db-connections");
        QTest::newRow("queue text") << QStringList { QStringLiteral("--max-queued=lots") } << 2
                                    << QStringLiteral("--max-queued");
        QTest::newRow("log format") << QStringList { QStringLiteral("--log-format=xml") } << 2
                                    << QStringLiteral("--log-format");
        QTest::newRow("bad dsn") << QStringList { QStringLiteral("--dsn=nonsense") } << 2 << QString();
        QTest::newRow("cannot connect") << QStringList { QStringLiteral("--dsn=host=127.0.0.1 port=1") } << 5
                                        << QString();
    }

    void badStartIsOneLineAndAnExitCode()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QProcess process;
        // A row that gets as far as listening must not take the default port 8080 from someone else.
        if (!arguments.join(QLatin1Char(' ')).contains(QStringLiteral("--listen")))
            arguments << QStringLiteral("--listen=127.0.0.1:0");
        process.start(QStringLiteral(ORDERS_SERVICE_PATH), arguments);
        QVERIFY(process.waitForFinished(WaitMs));
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitCode(), exitCode);
        QVERIFY(process.readAllStandardOutput().isEmpty());
        QVERIFY2(err.startsWith("orders-service: ") && err.count('\n') == 1, err.constData());
        QVERIFY2(err.contains(message.toUtf8()), err.constData());
    }

    // An option whose bytes are not UTF-8 is refused, not rewritten with U+FFFD (QProcess passes only text, so a
    // shell writes the raw byte).
    void anOptionWhoseBytesAreNotUtf8IsRefused()
    {
        const ProcessTesting::Run run = ProcessTesting::runWithBytes(QStringLiteral(ORDERS_SERVICE_PATH),
            { "--listen=127.0.0.1:0", "--dsn", "host=\xff" }, QProcessEnvironment::systemEnvironment(), WaitMs);
        const QByteArray& err = run.err;
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(err.startsWith("orders-service: ") && err.count('\n') == 1, err.constData());
        QVERIFY2(err.contains("--dsn: the value is not valid UTF-8 (byte 0xff at character 6)"), err.constData());
    }

    // With --log-format json a start that fails is one JSON object too, for the log collector.
    void badStartInJsonIsOneObject()
    {
        QProcess process;
        process.start(QStringLiteral(ORDERS_SERVICE_PATH),
            { QStringLiteral("--log-format=json"), QStringLiteral("--dsn=host=127.0.0.1 port=1"),
                QStringLiteral("--listen=127.0.0.1:0") });
        QVERIFY(process.waitForFinished(WaitMs));
        QCOMPARE(process.exitCode(), 5);
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(err.count('\n'), 1);
        const QJsonObject entry = QJsonDocument::fromJson(err).object();
        QCOMPARE(entry.value(QStringLiteral("level")).toString(), QStringLiteral("error"));
        QCOMPARE(entry.value(QStringLiteral("program")).toString(), QStringLiteral("orders-service"));
        QVERIFY2(
            entry.value(QStringLiteral("message")).toString().contains(QStringLiteral("127.0.0.1")), err.constData());
        QVERIFY(!entry.value(QStringLiteral("time")).toString().isEmpty());
    }

    void databaseWithoutSchemaExits6()
    {
        const QString name = db().name() + QStringLiteral("_empty");
        auto admin = db().openSession(QStringLiteral("admin"));
        admin->execScript(QStringLiteral("DROP DATABASE IF EXISTS %1").arg(name), QStringLiteral("dropping"));
        admin->execScript(QStringLiteral("CREATE DATABASE %1").arg(name), QStringLiteral("creating"));
        QProcess process;
        process.start(QStringLiteral(ORDERS_SERVICE_PATH),
            { QStringLiteral("--dsn"), QStringLiteral("dbname=%1").arg(name), QStringLiteral("--listen=127.0.0.1:0") });
        QVERIFY(process.waitForFinished(WaitMs));
        admin->execScript(QStringLiteral("DROP DATABASE %1").arg(name), QStringLiteral("dropping"));
        QCOMPARE(process.exitCode(), 6);
        QCOMPARE(process.readAllStandardError().count('\n'), 1);
    }

private:
    std::unique_ptr<Service> startService() { return startService(db().dsn()); }
    std::unique_ptr<Service> startService(const QString& dsn, const QStringList& extra = {})
    {
        auto service = std::make_unique<Service>(
            QStringList { QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--dsn"), dsn }
            + extra);
        QString error;
        if (!service->waitUntilListening(error)) {
            qWarning("orders-service did not start: %s", qPrintable(error));
            return nullptr;
        }
        return service;
    }

    static bool stopGracefully(Service& service)
    {
        QProcess& process = service.process();
        QSignalSpy finished(&process, &QProcess::finished);
        process.terminate(); // SIGTERM
        return finished.wait(WaitMs) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    }

    HttpReply post(Service& service, const QByteArray& key, const QByteArray& body)
    {
        return collect(m_network.post(service.request(QStringLiteral("/orders"), key), body));
    }
    HttpReply post(const QByteArray& key, const QByteArray& body) { return post(*m_service, key, body); }
    HttpReply get(Service& service, const QString& path)
    {
        return collect(m_network.get(service.request(path, {}, {})));
    }
    HttpReply get(const QString& path) { return get(*m_service, path); }

    QString dsnNamed(const char* applicationName)
    {
        return db().dsn() + QStringLiteral(" application_name=") + QLatin1String(applicationName);
    }

    // A transaction of the test's own holding an exclusive lock on orders until it is reset: every create waits.
    std::unique_ptr<UnitOfWork> lockOrders()
    {
        m_locker = db().openSession(QStringLiteral("locker"));
        auto transaction = std::make_unique<UnitOfWork>(*m_locker);
        m_locker->execScript(QStringLiteral("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE"), QStringLiteral("locking"));
        return transaction;
    }

    // Connections of the service named `applicationName` waiting for a lock.
    qint64 waitingOnLocks(const char* applicationName)
    {
        return db()
            .scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE application_name = ?::text "
                                   "AND wait_event_type = 'Lock'"),
                { QLatin1String(applicationName) })
            .toLongLong();
    }

    static QByteArray rawPost(const QByteArray& key, const QByteArray& body)
    {
        return "POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: " + key
            + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }

    // The statuses of the complete responses at the start of `stream`, in order.
    static QList<int> completeResponses(const QByteArray& stream)
    {
        QList<int> statuses;
        qsizetype at = 0;
        for (;;) {
            const qsizetype headersEnd = stream.indexOf("\r\n\r\n", at);
            if (headersEnd < 0)
                return statuses;
            const QByteArray head = stream.mid(at, headersEnd - at).toLower();
            const qsizetype length = head.indexOf("content-length: ");
            const qsizetype bodySize
                = length < 0 ? 0 : head.mid(length + 16, head.indexOf("\r\n", length) - length - 16).toLongLong();
            if (stream.size() < headersEnd + 4 + bodySize)
                return statuses;
            statuses.append(head.mid(9, 3).toInt()); // "http/1.1 201 ..."
            at = headersEnd + 4 + bodySize;
        }
    }

    qint64 count(const QString& from)
    {
        return db().scalar(QStringLiteral("SELECT count(*) FROM ") + from).toLongLong();
    }

    QNetworkAccessManager m_network;
    std::unique_ptr<Service> m_service;
    std::unique_ptr<DbSession> m_locker;
};

QTEST_GUILESS_MAIN(TestOrdersService)
#include "tst_ordersservice.moc"
