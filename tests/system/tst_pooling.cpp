// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/connectionsettings.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "db/sqlvalues.h"
#include "db/unitofwork.h"
#include "outbox/outboxrepository.h"
#include "relay/outboxrelay.h"
#include "support/consoletesting.h"
#include "support/databasetestcase.h"
#include "support/guitesting.h"
#include "support/pgbouncerprocess.h"
#include "support/processtesting.h"
#include "support/recordingsink.h"
#include "support/runningrelay.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMutex>
#include <QProcess>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTest>
#include <atomic>
#include <thread>

namespace {

// OUTBOX_POOLING set for as long as the object lives.
class PoolingVariable final {
    Q_DISABLE_COPY_MOVE(PoolingVariable)
public:
    explicit PoolingVariable(const QByteArray& value)
        : m_before(qgetenv(ConnectionSettings::PoolingVariable))
        , m_wasSet(qEnvironmentVariableIsSet(ConnectionSettings::PoolingVariable))
    {
        if (value.isNull())
            qunsetenv(ConnectionSettings::PoolingVariable);
        else
            qputenv(ConnectionSettings::PoolingVariable, value);
    }
    ~PoolingVariable()
    {
        if (m_wasSet)
            qputenv(ConnectionSettings::PoolingVariable, m_before);
        else
            qunsetenv(ConnectionSettings::PoolingVariable);
    }

private:
    QByteArray m_before;
    bool m_wasSet;
};

// Another client of the pooler, on a thread of its own, that keeps taking one of its server sessions for a
// moment and giving it back: the sessions a client's statements run on change under it, as under any traffic.
class OtherClient final {
    Q_DISABLE_COPY_MOVE(OtherClient)
public:
    explicit OtherClient(const ConnectionSettings& settings)
        : m_thread([this, settings] {
            DbSession session(settings, QStringLiteral("other-client"));
            while (!m_stop.load()) {
                UnitOfWork transaction(session);
                session.exec(QStringLiteral("SELECT pg_sleep(0.002)"), {}, QStringLiteral("holding a session"));
                transaction.commit();
                m_transactions.fetch_add(1);
            }
        })
    { }
    ~OtherClient()
    {
        m_stop.store(true);
        m_thread.join();
    }
    int transactions() const { return m_transactions.load(); }

private:
    std::atomic<bool> m_stop { false };
    std::atomic<int> m_transactions { 0 };
    std::thread m_thread;
};

} // namespace

// The library, outboxctl, orders-service, the Python reference service, the relay and the console through a real
// PgBouncer in transaction mode with two server connections, where each transaction of a client may run on a server
// session that other clients use in between (docs/pooling-and-ha.md).
class TestPooling final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestPooling()
        : DatabaseTestCase(QStringLiteral("pooling"))
    { }

private:
    ConnectionSettings throughThePooler() const { return ConnectionSettings::fromDsn(m_pooler.dsn(db().name())); }

    PgBouncerProcess m_pooler { 2 };

private slots:
    void initTestCase()
    {
        GuiTesting::useOwnSettings(QStringLiteral("tst_pooling"));
        setUpDatabase();
        const QString problem = m_pooler.start();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
    void cleanupTestCase()
    {
        m_pooler.stop();
        tearDownDatabase();
    }

    // A proxy in between is told by the server process serving the session, which is not the one libpq was told of
    // at connect; OUTBOX_POOLING overrides what is detected, either way.
    void aSessionThroughAPoolerIsToldApart_data()
    {
        QTest::addColumn<bool>("pooler");
        QTest::addColumn<QByteArray>("pooling");
        QTest::addColumn<bool>("transactionPooled");
        QTest::newRow("direct") << false << QByteArray() << false;
        QTest::newRow("through PgBouncer") << true << QByteArray() << true;
        QTest::newRow("through PgBouncer, detect") << true << QByteArray("detect") << true;
        QTest::newRow("through PgBouncer, none (a session pool)") << true << QByteArray("none") << false;
        QTest::newRow("direct, transaction") << false << QByteArray("Transaction") << true;
    }
    void aSessionThroughAPoolerIsToldApart()
    {
        QFETCH(bool, pooler);
        QFETCH(QByteArray, pooling);
        QFETCH(bool, transactionPooled);
        const PoolingVariable variable(pooling);
        DbSession session(pooler ? throughThePooler() : db().settings(), QStringLiteral("pooling"));
        QCOMPARE(session.isTransactionPooled(), transactionPooled);
        QSqlQuery& q = session.exec(QStringLiteral("SELECT pg_backend_pid()"), {}, QStringLiteral("server pid"));
        QVERIFY(q.next());
        // No server process is the session's behind a transaction pooler; directly, libpq's is the server's.
        QCOMPARE(session.backendPid(), transactionPooled ? 0 : q.value(0).toInt());
    }

    void anUnknownPoolingIsRefusedByName()
    {
        const PoolingVariable variable("sometimes");
        try {
            DbSession session(db().settings(), QStringLiteral("pooling"));
            QFAIL("connected with OUTBOX_POOLING=sometimes");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
            QCOMPARE(error.message(),
                QStringLiteral("invalid OUTBOX_POOLING 'sometimes': expected detect, transaction or none"));
        }
    }

    // Why statements are not prepared behind the pooler: a statement prepared on one server session is executed on
    // another once a client's transactions move (PgBouncer hands a session released last to the next transaction).
    // Unprepared, the same steps give the right answers.
    void aStatementPreparedOnOneServerSessionIsMissingOnTheNext_data()
    {
        QTest::addColumn<QByteArray>("pooling");
        QTest::addColumn<bool>("fails");
        QTest::newRow("prepared (none)") << QByteArray("none") << true;
        QTest::newRow("unprepared (detected)") << QByteArray() << false;
    }
    void aStatementPreparedOnOneServerSessionIsMissingOnTheNext()
    {
        QFETCH(QByteArray, pooling);
        QFETCH(bool, fails);
        const PoolingVariable variable(pooling);
        DbSession client(throughThePooler(), QStringLiteral("client"));
        DbSession other(throughThePooler(), QStringLiteral("other"));
        const QString sql = QStringLiteral("SELECT ?::int + 1");
        const auto run = [&](int value) {
            QSqlQuery& q = client.exec(sql, { value }, QStringLiteral("adding"));
            return q.next() ? q.value(0).toInt() : -1;
        };
        {
            UnitOfWork holding(other); // holds one server session: the client's statement runs on the other
            other.exec(QStringLiteral("SELECT 1"), {}, QStringLiteral("holding"));
            QCOMPARE(run(1), 2);
            holding.commit(); // released last: the client's next transaction gets it
        }
        try {
            QCOMPARE(run(41), 42);
            QVERIFY2(!fails, "the prepared statement was found on another server session");
        } catch (const OutboxError& error) {
            QVERIFY2(fails, qPrintable(error.message()));
            QVERIFY2(error.message().contains(QLatin1String("does not exist")), qPrintable(error.message()));
        }
    }

    // Unprepared, each value is written into the statement as Qt's driver writes it into a prepared statement's
    // EXECUTE: every kind the library binds comes back as it does from a prepared statement on a direct connection.
    void valuesComeBackAsFromAPreparedStatement_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QVariant>("value");
        const auto row = [](const char* name, const char* sql, const QVariant& value) {
            QTest::newRow(name) << QString::fromLatin1(sql) << value;
        };
        row("text", "SELECT ?::text", QStringLiteral("plain"));
        row("quotes, a backslash and a placeholder", "SELECT ?::text",
            QStringLiteral("it's \"?\" \\ ' -- not a comment"));
        row("unicode", "SELECT ?::text", QStringLiteral("주문 ✓ €"));
        row("empty text", "SELECT ?::text", QString(QLatin1String("")));
        row("null text", "SELECT ?::text", QVariant(QMetaType::fromType<QString>()));
        row("null of no type", "SELECT ?::bigint", QVariant());
        row("int", "SELECT ?::integer", 42);
        row("negative after a minus", "SELECT 1 -?", -5);
        row("bigint", "SELECT ?::bigint", qlonglong(9'000'000'000'000LL));
        row("double", "SELECT ?::double precision", 0.1);
        row("numeric", "SELECT ?::numeric", QStringLiteral("12.50"));
        row("true", "SELECT ?::boolean", true);
        row("false", "SELECT ?::boolean", false);
        row("instant", "SELECT ?::timestamptz", QDateTime(QDate(2026, 12, 7), QTime(3, 4, 5, 678), Qt::UTC));
        row("interval", "SELECT ?::interval", QStringLiteral("1500 milliseconds"));
        row("bytes", "SELECT ?::bytea", QByteArray::fromHex("0001275cff"));
        row("jsonb", "SELECT ?::jsonb ->> 'a'", QStringLiteral("{\"a\": \"b'c\"}"));
        row("text array", "SELECT array_length(?::text[], 1)",
            SqlValues::textArray({ QStringLiteral("a,b"), QStringLiteral("c\"d"), QStringLiteral("{e}") }));
        row("bigint array", "SELECT ?::bigint[]", SqlValues::bigintArray({ 1, -2, 3 }));
    }
    void valuesComeBackAsFromAPreparedStatement()
    {
        QFETCH(QString, sql);
        QFETCH(QVariant, value);
        DbSession pooled(throughThePooler(), QStringLiteral("pooled"));
        QVERIFY(pooled.isTransactionPooled());
        QSqlQuery& expected = session().exec(sql, { value }, QStringLiteral("prepared"));
        QVERIFY(expected.next());
        QSqlQuery& actual = pooled.exec(sql, { value }, QStringLiteral("unprepared"));
        QVERIFY(actual.next());
        QCOMPARE(actual.value(0).metaType(), expected.value(0).metaType());
        QCOMPARE(actual.value(0).isNull(), expected.value(0).isNull());
        QCOMPARE(actual.value(0), expected.value(0));
    }

    void aPlaceholderCountThatDiffersIsRefused()
    {
        DbSession pooled(throughThePooler(), QStringLiteral("pooled"));
        QVERIFY_THROWS_EXCEPTION(
            OutboxError, pooled.exec(QStringLiteral("SELECT ?, ?"), { 1 }, QStringLiteral("too few values")));
        QVERIFY_THROWS_EXCEPTION(
            OutboxError, pooled.exec(QStringLiteral("SELECT ?"), { 1, 2 }, QStringLiteral("too many values")));
    }

    // The settings a session makes for its statements (the console's searches, the relay's claims) hold for each
    // of them behind the pooler, and reach no other client of the server sessions they ran on.
    void settingsGoWithEachStatementAndNowhereElse()
    {
        DbSession ours(throughThePooler(), QStringLiteral("ours"));
        ours.planEachSearch();
        DbSession other(throughThePooler(), QStringLiteral("other"));
        const QString settings = QStringLiteral(
            "SELECT current_setting('jit') || ' ' || current_setting('max_parallel_workers_per_gather')");
        const QString expected = db().scalar(settings).toString();
        QCOMPARE(expected, QStringLiteral("on 2")); // the server's defaults
        for (int round = 0; round < 4; ++round) {
            QSqlQuery& q = ours.exec(settings, {}, QStringLiteral("our settings"));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("off 0"));
            QSqlQuery& o = other.exec(settings, {}, QStringLiteral("another client's settings"));
            QVERIFY(o.next());
            QCOMPARE(o.value(0).toString(), expected);
        }
        // Inside a transaction too.
        UnitOfWork transaction(ours);
        QSqlQuery& q = ours.exec(settings, {}, QStringLiteral("our settings in a transaction"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("off 0"));
    }

    // Every session works in UTC (time buckets follow the session's zone): PgBouncer sets a client's TimeZone again
    // on each server session it gets, also where another client set its own zone.
    void theTimeZoneHoldsWhateverOtherClientsSet()
    {
        DbSession ours(throughThePooler(), QStringLiteral("ours"));
        DbSession other(throughThePooler(), QStringLiteral("other"));
        const QString zone = QStringLiteral("SELECT current_setting('TimeZone')");
        for (int round = 0; round < 4; ++round) {
            other.execScript(QStringLiteral("SET TimeZone = 'Asia/Seoul'"), QStringLiteral("another client's zone"));
            QSqlQuery& q = ours.exec(zone, {}, QStringLiteral("our zone"));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("UTC"));
            QSqlQuery& o = other.exec(zone, {}, QStringLiteral("their zone"));
            QVERIFY(o.next());
            QCOMPARE(o.value(0).toString(), QStringLiteral("Asia/Seoul"));
        }
    }

    // A new database migrated through the pooler, online steps (CREATE INDEX CONCURRENTLY, outside a transaction)
    // included.
    void aNewDatabaseIsMigratedThroughThePooler()
    {
        const QString fresh = db().name() + QStringLiteral("_fresh");
        session().execScript(QStringLiteral("DROP DATABASE IF EXISTS %1").arg(fresh), QStringLiteral("dropping"));
        session().execScript(QStringLiteral("CREATE DATABASE %1").arg(fresh), QStringLiteral("creating"));
        const ProcessTesting::Run migrated = ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("--dsn"), m_pooler.dsn(fresh), QStringLiteral("migrate") });
        QVERIFY2(migrated.exitCode == 0, migrated.err.constData());
        {
            DbSession check(ConnectionSettings::fromDsn(QStringLiteral("dbname=") + fresh), QStringLiteral("check"));
            QCOMPARE(SchemaMigrator(check).currentVersion(), SchemaMigrator::latestVersion());
        }
        // PgBouncer keeps server sessions to it open: FORCE ends them.
        session().execScript(QStringLiteral("DROP DATABASE %1 WITH (FORCE)").arg(fresh), QStringLiteral("dropping"));
    }

    // Every command of outboxctl that uses the database, through the pooler while another client's transactions
    // move its statements from one server session to the other.
    void outboxctlThroughThePooler()
    {
        const OtherClient other(throughThePooler());
        const QString dsn = m_pooler.dsn(db().name());
        QTemporaryDir dir;
        QFile payload(dir.filePath(QStringLiteral("payload.json")));
        QVERIFY(payload.open(QIODevice::WriteOnly));
        payload.write("{\"fixed\": true}");
        payload.close();
        const auto outboxctl = [&](const QStringList& arguments, int expectedExit = 0) {
            const ProcessTesting::Run run = ProcessTesting::run(
                QStringLiteral(OUTBOXCTL_PATH), QStringList { QStringLiteral("--dsn"), dsn } + arguments);
            const QString what = arguments.join(QLatin1Char(' ')) + QStringLiteral(": ") + QString::fromUtf8(run.err);
            if (run.exitCode != expectedExit)
                qWarning("%s", qPrintable(what));
            return run.exitCode == expectedExit && !run.err.contains("prepared statement");
        };
        QVERIFY(outboxctl({ QStringLiteral("migrate") }));
        const QStringList order { QStringLiteral("create-order"), QStringLiteral("--key"), QStringLiteral("k-1"),
            QStringLiteral("--customer"), QStringLiteral("alice"), QStringLiteral("--amount"), QStringLiteral("12.5") };
        QVERIFY(outboxctl(order));
        QVERIFY(outboxctl(order)); // replayed
        QVERIFY(outboxctl(
            { QStringLiteral("create-order"), QStringLiteral("--key"), QStringLiteral("k-1"),
                QStringLiteral("--customer"), QStringLiteral("bob"), QStringLiteral("--amount"), QStringLiteral("1") },
            4)); // mismatch
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, last_error) "
            "SELECT 'order', g::text, 'order.paid', '{}', 'pooled:' || g, 'dead', 'connection refused' "
            "FROM generate_series(1, 3) g"));
        const QString dead = db().scalar(QStringLiteral("SELECT min(id) FROM outbox WHERE status = 'dead'")).toString();
        const QString reason = QStringLiteral("--reason");
        for (const QStringList& command :
            QList<QStringList> {
                { QStringLiteral("list"), QStringLiteral("outbox") },
                { QStringLiteral("list"), QStringLiteral("keys"), QStringLiteral("--format"), QStringLiteral("json") },
                { QStringLiteral("failures") },
                { QStringLiteral("edit"), QStringLiteral("--id"), dead, QStringLiteral("--payload-file"),
                    payload.fileName(), reason, QStringLiteral("fixed") },
                { QStringLiteral("discard"), QStringLiteral("--status"), QStringLiteral("dead"), reason,
                    QStringLiteral("gone") },
                { QStringLiteral("requeue"), QStringLiteral("--status"), QStringLiteral("discarded"), reason,
                    QStringLiteral("back") },
                { QStringLiteral("pause"), QStringLiteral("--event-type"), QStringLiteral("order.paid"), reason,
                    QStringLiteral("hold") },
                { QStringLiteral("pauses") },
                { QStringLiteral("resume"), QStringLiteral("--event-type"), QStringLiteral("order.paid"), reason,
                    QStringLiteral("go") },
                { QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--name"), QStringLiteral("pooled"),
                    QStringLiteral("--sink"), QStringLiteral("file:") + dir.filePath(QStringLiteral("events.jsonl")) },
                { QStringLiteral("relays") },
                { QStringLiteral("event-types") },
                { QStringLiteral("audit") },
                { QStringLiteral("metrics"), QStringLiteral("--from"), QStringLiteral("now-1h"), QStringLiteral("--to"),
                    QStringLiteral("now") },
                { QStringLiteral("forget-relays"), QStringLiteral("--state"), QStringLiteral("stopped"), reason,
                    QStringLiteral("done") },
                { QStringLiteral("purge"), QStringLiteral("--keys") },
                { QStringLiteral("purge"), QStringLiteral("--relays"), QStringLiteral("--older-than"),
                    QStringLiteral("1h") },
            }) {
            QVERIFY2(outboxctl(command), qPrintable(command.join(QLatin1Char(' '))));
        }
        // Everything the commands did is in the database: the order once, every row published.
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), 1LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status <> 'published'"))
                     .toLongLong(),
            0LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 6LL);
        QVERIFY(other.transactions() > 0);
    }

    // The load of the issue that found it: orders with duplicates through four server connections, 503s with
    // "prepared statement ... does not exist" before; every order created once now, none refused.
    void ordersServiceUnderLoadThroughThePooler()
    {
        QProcess service;
        service.start(QStringLiteral(ORDERS_SERVICE_PATH),
            { QStringLiteral("--dsn"), m_pooler.dsn(db().name()), QStringLiteral("--listen"),
                QStringLiteral("127.0.0.1:0") });
        QVERIFY(service.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(service.canReadLine(), 10'000);
        const QString listening = QString::fromLocal8Bit(service.readLine()).trimmed();
        QVERIFY2(listening.startsWith(QStringLiteral("listening on http://")), qPrintable(listening));
        const ProcessTesting::Run load = ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("loadgen"), QStringLiteral("--url"), listening.mid(13), QStringLiteral("--orders"),
                QStringLiteral("400"), QStringLiteral("--rate"), QStringLiteral("200"), QStringLiteral("--duplicates"),
                QStringLiteral("0.25"), QStringLiteral("--seed"), QStringLiteral("11"), QStringLiteral("--timeout-ms"),
                QStringLiteral("10000") });
        service.terminate();
        QVERIFY(service.waitForFinished(10'000));
        QVERIFY2(load.exitCode == 0, load.err.constData());
        const QJsonObject summary = load.json();
        QCOMPARE(summary.value(QStringLiteral("errors")).toInteger(), 0);
        QCOMPARE(summary.value(QStringLiteral("rejected")).toInteger(), 0);
        QCOMPARE(summary.value(QStringLiteral("timeouts")).toInteger(), 0);
        QCOMPARE(summary.value(QStringLiteral("created")).toInteger(), 400);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), 400LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox")).toLongLong(), 400LL);
        const QByteArray errors = service.readAllStandardError();
        QVERIFY2(!errors.contains("prepared statement"), errors.constData());
    }

    // The Python reference service (psycopg2 sends no prepared statements) creates and replays through it.
    void thePythonReferenceServiceThroughThePooler()
    {
        const auto create = [this](const QString& customer) {
            return ProcessTesting::run(QStringLiteral("/usr/bin/python3"),
                { QStringLiteral(OUTBOX_SOURCE_DIR "/app/orders-service-python/orders_service.py"),
                    QStringLiteral("--dsn"), m_pooler.dsn(db().name()), QStringLiteral("create-order"),
                    QStringLiteral("--key"), QStringLiteral("py-1"), QStringLiteral("--customer"), customer,
                    QStringLiteral("--amount"), QStringLiteral("7.5") });
        };
        const ProcessTesting::Run created = create(QStringLiteral("carol"));
        QVERIFY2(created.exitCode == 0, created.err.constData());
        QCOMPARE(created.json().value(QStringLiteral("outcome")).toString(), QStringLiteral("created"));
        const ProcessTesting::Run replayed = create(QStringLiteral("carol"));
        QCOMPARE(replayed.json().value(QStringLiteral("outcome")).toString(), QStringLiteral("replayed"));
        QCOMPARE(create(QStringLiteral("dave")).exitCode, 4);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), 1LL);
    }

    // The Python reference relay (on the SQL API) tells the pooler as the library does: it polls, says so once, and
    // takes no session lock that would stay behind on a server session of the pool.
    void thePythonReferenceRelayThroughThePoolerPolls()
    {
        QTemporaryDir dir;
        const QString events = dir.filePath(QStringLiteral("events.jsonl"));
        QProcess relay;
        relay.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral(OUTBOX_SOURCE_DIR "/app/orders-service-python/outbox_relay.py"), QStringLiteral("--dsn"),
                m_pooler.dsn(db().name()), QStringLiteral("--name"), QStringLiteral("py-pooled"),
                QStringLiteral("--to"), events, QStringLiteral("--poll-ms"), QStringLiteral("100") });
        QVERIFY(relay.waitForStarted());
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', g::text, 'order.created', '{}') "
                                 "FROM generate_series(1, 50) g"));
        QTRY_COMPARE_WITH_TIMEOUT(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")).toInt(), 50,
            15'000);
        // The due-watch lock, which a relay with a session of its own holds while it sleeps (as this one does now).
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                                            "AND classid = 1869968482 AND objid = 1 AND objsubid = 2"))
                     .toInt(),
            0);
        relay.terminate();
        QVERIFY(relay.waitForFinished(10'000));
        QCOMPARE(relay.exitCode(), 0);
        const QString said = QString::fromUtf8(relay.readAllStandardError());
        QCOMPARE(said.count(QStringLiteral("connected through a transaction pooler")), 1);
        QFile published(events);
        QVERIFY(published.open(QIODevice::ReadOnly));
        QCOMPARE(published.readAll().count('\n'), 50);
    }

    // The relay through the pooler polls instead of listening and says so once; it names no server session, so
    // that it is judged by its heartbeat (never "gone" because a pooled session it once used was closed).
    void aRelayThroughThePoolerPollsAndIsJudgedByItsHeartbeat()
    {
        QMutex mutex;
        QStringList lines;
        RelayOptions options;
        options.workerName = QStringLiteral("pooled");
        options.workers = 2;
        options.idlePollMs = 50;
        options.registryHeartbeatMs = 200;
        options.sinkDescription = QStringLiteral("recording");
        options.log = [&](QtMsgType, const QString& line) {
            const QMutexLocker locker(&mutex);
            lines.append(line);
        };
        const auto deliveries = std::make_shared<RecordingSink::Deliveries>();
        OutboxRelay relay(
            throughThePooler(), [deliveries] { return std::make_unique<RecordingSink>(deliveries); }, options);
        RunningRelay running(relay);
        const QString state = QStringLiteral("SELECT relay_node_state(n) || ' ' || cardinality(backend_pids) "
                                             "FROM relay_nodes n WHERE name = 'pooled'");
        QTRY_COMPARE_WITH_TIMEOUT(db().scalar(state).toString(), QStringLiteral("alive 0"), 10'000);
        // Woken by its poll: rows committed after it went idle are published.
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', g::text, 'order.created', '{}') "
                                 "FROM generate_series(1, 300) g"));
        QTRY_COMPARE_WITH_TIMEOUT(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")).toInt(), 300,
            20'000);
        // Through a heartbeat or two more: still alive, with no session named.
        const qint64 seen = db().scalar(QStringLiteral("SELECT extract(epoch FROM last_seen) FROM relay_nodes "
                                                       "WHERE name = 'pooled'"))
                                .toDouble()
            * 1000;
        QTRY_VERIFY_WITH_TIMEOUT(db().scalar(QStringLiteral("SELECT extract(epoch FROM last_seen) FROM relay_nodes "
                                                            "WHERE name = 'pooled'"))
                                     .toDouble()
                    * 1000
                > seen,
            5'000);
        QCOMPARE(db().scalar(state).toString(), QStringLiteral("alive 0"));
        running.stop();
        QCOMPARE(db().scalar(state).toString(), QStringLiteral("stopped 0"));
        const QMutexLocker locker(&mutex);
        const QStringList polling = lines.filter(QStringLiteral("connected through a transaction pooler"));
        QCOMPARE(polling.size(), 1);
        QVERIFY2(
            polling.first().contains(QStringLiteral("polls for due rows every 50 ms")), qPrintable(polling.first()));
    }

    // The console through the pooler: no LISTEN, so it re-reads on the auto-refresh timer, at the default interval
    // even when the auto-refresh is off, and says so in its status bar; a row written meanwhile shows up.
    void theConsoleThroughThePoolerPollsAndSaysSo()
    {
        const auto autoRefreshOff = ConsoleTesting::withoutAutoRefresh();
        const std::unique_ptr<MainWindow> window = ConsoleTesting::openWindow(throughThePooler());
        QVERIFY(window);
        QVERIFY(window->session().transactionPooled);
        const auto* note = window->findChild<QLabel*>(QStringLiteral("polledUpdates"));
        QVERIFY(note);
        QVERIFY(note->isVisible());
        QVERIFY2(note->text().contains(QLatin1String("every 10 second")), qPrintable(note->text()));
        OutboxView* outbox = window->outboxView();
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', 'first', 'order.created', '{}')"));
        auto* tabs = window->findChild<QTabWidget*>();
        QVERIFY(tabs);
        for (int tab = 0; tab < tabs->count(); ++tab) {
            if (tabs->widget(tab)->isAncestorOf(outbox) || tabs->widget(tab) == outbox)
                tabs->setCurrentIndex(tab);
        }
        // Read when the tab opens, or else at the next poll: up to its 10 s after the window's first read.
        QTRY_COMPARE_WITH_TIMEOUT(outbox->model()->rowCount(), 1, 15'000);
        // Only the timer can bring this one.
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', 'second', 'order.created', '{}')"));
        QTRY_COMPARE_WITH_TIMEOUT(outbox->model()->rowCount(), 2, 15'000);
        GuiTesting::saveScreenshot(*window, QStringLiteral("console-pooled.png"));
    }
};

QTEST_MAIN(TestPooling)
#include "tst_pooling.moc"
