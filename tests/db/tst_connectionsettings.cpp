// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/connectionsettings.h"
#include "db/dbsession.h"
#include "db/unitofwork.h"
#include "support/databasetestcase.h"

#include <QScopeGuard>
#include <QSqlQuery>
#include <QTest>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

// What every connection gets so that a peer that vanishes without a reset is noticed in seconds on both ends,
// and that a DSN's own choice still wins. The test database is reached over TCP (pg_virtualenv sets
// PGHOST=localhost): on a Unix socket the server reports its keepalive settings as 0.
class TestConnectionSettings final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestConnectionSettings()
        : DatabaseTestCase(QStringLiteral("connectionsettings"))
    { }

private:
    static QString show(DbSession& session, const QString& setting)
    {
        QSqlQuery& q = session.exec(QStringLiteral("SELECT current_setting(?::text)"), { setting }, setting);
        return q.next() ? q.value(0).toString() : QString();
    }

    // What the kernel has for the session's socket: libpq's options, or ours where the DSN chose none.
    static int socketOption(DbSession& session, int level, int name)
    {
        int value = -1;
        socklen_t length = sizeof value;
        if (getsockopt(PQsocket(DbSession::connectionOf(session.database())), level, name, &value, &length) != 0)
            return -1;
        return value;
    }

    std::unique_ptr<DbSession> open(const QString& extraDsn, qint64 idleInTransactionMs = 0)
    {
        ConnectionSettings settings = ConnectionSettings::fromDsn(db().dsn() + QLatin1Char(' ') + extraDsn);
        settings.setIdleInTransactionTimeoutMs(idleInTransactionMs);
        return std::make_unique<DbSession>(settings, QStringLiteral("settings"));
    }

private slots:
    void initTestCase()
    {
        setUpDatabase();
        QVERIFY2(!show(session(), QStringLiteral("tcp_keepalives_idle")).startsWith(QLatin1Char('0')),
            "the test database must be reached over TCP (PGHOST=localhost), not a Unix socket");
    }

    void bothEndsProbeAVanishedPeer()
    {
        auto session = open({});
        QCOMPARE(socketOption(*session, SOL_SOCKET, SO_KEEPALIVE), 1);
        QCOMPARE(socketOption(*session, IPPROTO_TCP, TCP_KEEPIDLE), 5);
        QCOMPARE(socketOption(*session, IPPROTO_TCP, TCP_KEEPINTVL), 2);
        QCOMPARE(socketOption(*session, IPPROTO_TCP, TCP_USER_TIMEOUT), 10'000);
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_idle")), QStringLiteral("5"));
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_interval")), QStringLiteral("2"));
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_count")), QStringLiteral("3"));
        QCOMPARE(show(*session, QStringLiteral("tcp_user_timeout")), QStringLiteral("10000"));
        QCOMPARE(show(*session, QStringLiteral("idle_in_transaction_session_timeout")), QStringLiteral("0"));
    }

    // A DSN that tunes one keepalive knob keeps libpq's handling of all of them (the others the kernel's).
    void theDsnsOwnChoicesWin()
    {
        auto session
            = open(QStringLiteral("keepalives_idle=30 tcp_user_timeout=0 "
                                  "options='-c tcp_keepalives_idle=60 -c idle_in_transaction_session_timeout=7s'"),
                1'000);
        QCOMPARE(socketOption(*session, IPPROTO_TCP, TCP_KEEPIDLE), 30);
        QVERIFY(socketOption(*session, IPPROTO_TCP, TCP_KEEPINTVL) != 2);
        QCOMPARE(socketOption(*session, IPPROTO_TCP, TCP_USER_TIMEOUT), 0);
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_idle")), QStringLiteral("60"));
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_count")), QStringLiteral("3"));
        QCOMPARE(show(*session, QStringLiteral("idle_in_transaction_session_timeout")), QStringLiteral("7s"));
    }

    // Settings made with ALTER ROLE or ALTER DATABASE win over the defaults, whichever form set them.
    void alterRoleAndDatabaseWinOverTheDefaults_data()
    {
        QTest::addColumn<QString>("scope"); // what follows ALTER, before SET / RESET
        QTest::newRow("role in database") << QStringLiteral("ROLE CURRENT_USER IN DATABASE %1");
        QTest::newRow("role") << QStringLiteral("ROLE CURRENT_USER");
        QTest::newRow("database") << QStringLiteral("DATABASE %1");
        QTest::newRow("every role") << QStringLiteral("ROLE ALL");
    }

    void alterRoleAndDatabaseWinOverTheDefaults()
    {
        QFETCH(QString, scope);
        const QString target = scope.contains(QLatin1String("%1")) ? scope.arg(db().name()) : scope;
        // Not preparable, and the database's name is ours: scripts.
        session().execScript(
            QStringLiteral("ALTER %1 SET tcp_keepalives_count = 9").arg(target), QStringLiteral("setting a default"));
        auto reset = qScopeGuard([&] {
            session().execScript(QStringLiteral("ALTER %1 RESET tcp_keepalives_count").arg(target),
                QStringLiteral("resetting a default"));
        });
        auto session = open({});
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_count")), QStringLiteral("9"));
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_idle")), QStringLiteral("5"));
    }

    // The relay's setting: a session left idle inside a transaction is ended by the server, and its locks go.
    void aSessionIdleInATransactionIsEndedAndItsLocksGo()
    {
        session().execScript(QStringLiteral("CREATE TABLE held (id int PRIMARY KEY); INSERT INTO held VALUES (1)"),
            QStringLiteral("creating a table to lock"));
        auto holder = open({}, 300);
        QCOMPARE(show(*holder, QStringLiteral("idle_in_transaction_session_timeout")), QStringLiteral("300ms"));
        const int pid = holder->backendPid();
        UnitOfWork uow(*holder);
        holder->exec(QStringLiteral("SELECT id FROM held FOR UPDATE"), {}, QStringLiteral("locking"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM (SELECT id FROM held FOR UPDATE SKIP LOCKED) free"))
                     .toLongLong(),
            0);
        QTRY_COMPARE_WITH_TIMEOUT(
            db().scalar(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE pid = ?::int"), { pid })
                .toLongLong(),
            0LL, 10'000);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM (SELECT id FROM held FOR UPDATE SKIP LOCKED) free"))
                     .toLongLong(),
            1);
        // An outage, not a bad statement: a relay reconnects rather than stops.
        try {
            uow.commit();
            QFAIL("the commit of a session the server ended succeeded");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::Connection);
        }
    }

    // libpq says why in two lines (the failure, then a hint); one line of sentences, not the two run together.
    void aFailedConnectIsOneLineOfSentences()
    {
        try {
            DbSession session(ConnectionSettings::fromDsn(QStringLiteral("host=127.0.0.1 port=1 connect_timeout=5")),
                QStringLiteral("refused"));
            QFAIL("a connection to port 1 succeeded");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::Connection);
            QVERIFY2(error.message().contains(QStringLiteral("Connection refused. Is the server running on that host")),
                qPrintable(error.message()));
            QVERIFY2(!error.message().contains(QLatin1Char('\n')), qPrintable(error.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestConnectionSettings)
#include "tst_connectionsettings.moc"
