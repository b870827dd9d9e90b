// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/connectionsettings.h"
#include "db/dbsession.h"
#include "db/unitofwork.h"
#include "support/databasetestcase.h"

#include <QSqlQuery>
#include <QTest>
#include <libpq-fe.h>

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

    // What libpq connected with: PQconninfo lists every option in use, ours included.
    static QString clientOption(DbSession& session, const char* keyword)
    {
        PQconninfoOption* options = PQconninfo(DbSession::connectionOf(session.database()));
        QString value;
        for (const PQconninfoOption* option = options; option && option->keyword; ++option) {
            if (qstrcmp(option->keyword, keyword) == 0 && option->val)
                value = QString::fromUtf8(option->val);
        }
        PQconninfoFree(options);
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
        QCOMPARE(clientOption(*session, "keepalives"), QStringLiteral("1"));
        QCOMPARE(clientOption(*session, "keepalives_idle"), QStringLiteral("5"));
        QCOMPARE(clientOption(*session, "tcp_user_timeout"), QStringLiteral("10000"));
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_idle")), QStringLiteral("5"));
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_interval")), QStringLiteral("2"));
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_count")), QStringLiteral("3"));
        QCOMPARE(show(*session, QStringLiteral("tcp_user_timeout")), QStringLiteral("10000"));
        QCOMPARE(show(*session, QStringLiteral("idle_in_transaction_session_timeout")), QStringLiteral("0"));
    }

    void theDsnsOwnChoicesWin()
    {
        auto session
            = open(QStringLiteral("keepalives_idle=30 tcp_user_timeout=0 "
                                  "options='-c tcp_keepalives_idle=60 -c idle_in_transaction_session_timeout=7s'"),
                1'000);
        QCOMPARE(clientOption(*session, "keepalives_idle"), QStringLiteral("30"));
        QCOMPARE(clientOption(*session, "tcp_user_timeout"), QStringLiteral("0"));
        QCOMPARE(clientOption(*session, "keepalives_interval"), QStringLiteral("2"));
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_idle")), QStringLiteral("60"));
        QCOMPARE(show(*session, QStringLiteral("tcp_keepalives_count")), QStringLiteral("3"));
        QCOMPARE(show(*session, QStringLiteral("idle_in_transaction_session_timeout")), QStringLiteral("7s"));
    }

    void aRoleSettingWinsOverTheDefaults()
    {
        // Not preparable, and the database's name is ours: a script.
        session().execScript(
            QStringLiteral("ALTER ROLE CURRENT_USER IN DATABASE %1 SET tcp_keepalives_count = 9").arg(db().name()),
            QStringLiteral("setting a role default"));
        auto session = open({});
        this->session().execScript(
            QStringLiteral("ALTER ROLE CURRENT_USER IN DATABASE %1 RESET tcp_keepalives_count").arg(db().name()),
            QStringLiteral("resetting a role default"));
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
        QVERIFY_THROWS_EXCEPTION(OutboxError, uow.commit());
    }
};

QTEST_GUILESS_MAIN(TestConnectionSettings)
#include "tst_connectionsettings.moc"
