// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/connectionsettings.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "db/sqlvalues.h"
#include "support/databasetestcase.h"

#include <QSqlQuery>
#include <QTest>

class TestSchema final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestSchema()
        : DatabaseTestCase(QStringLiteral("schema"))
    { }

private slots:
    void migrateRecordsEveryEmbeddedVersion()
    {
        QVERIFY(SchemaMigrator::latestVersion() >= 1);
        QCOMPARE(db().scalar(QStringLiteral("SELECT max(version) FROM schema_migrations")).toInt(),
            SchemaMigrator::latestVersion());
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM schema_migrations")).toLongLong(),
            qint64(SchemaMigrator::latestVersion()));
    }

    void migratingTwiceIsANoOp()
    {
        auto session = db().openSession();
        const qint64 before = db().scalar(QStringLiteral("SELECT count(*) FROM schema_migrations")).toLongLong();
        QCOMPARE(SchemaMigrator(*session).migrate(), SchemaMigrator::latestVersion());
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM schema_migrations")).toLongLong(), before);
        SchemaMigrator(*session).requireCurrent();
    }

    void newerSchemaIsRefused()
    {
        const int future = SchemaMigrator::latestVersion() + 1;
        db().exec(QStringLiteral("INSERT INTO schema_migrations (version, name) VALUES (?::int, 'from_the_future')"),
            { future });
        auto session = db().openSession();
        SchemaMigrator migrator(*session);
        for (int attempt = 0; attempt < 2; ++attempt) {
            try {
                if (attempt == 0)
                    migrator.migrate();
                else
                    migrator.requireCurrent();
                QFAIL("a newer schema was accepted");
            } catch (const OutboxError& error) {
                QCOMPARE(error.kind(), OutboxError::Kind::Schema);
                QVERIFY2(
                    error.message().contains(QStringLiteral("newer than this binary")), qPrintable(error.message()));
            }
        }
        db().exec(QStringLiteral("DELETE FROM schema_migrations WHERE version = ?::int"), { future });
    }

    void missingSchemaSaysWhatToDo()
    {
        TestDatabase empty(QStringLiteral("schema_empty"));
        auto session = empty.openSession();
        session->execScript(
            QStringLiteral("DROP SCHEMA public CASCADE; CREATE SCHEMA public"), QStringLiteral("wiping"));
        SchemaMigrator migrator(*session);
        QCOMPARE(migrator.currentVersion(), 0);
        try {
            migrator.requireCurrent();
            QFAIL("a database without schema was accepted");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::Schema);
            QVERIFY(error.message().contains(QStringLiteral("outboxctl migrate")));
        }
    }

    // Pins how instants cross the driver: written as UTC text, read back as epoch milliseconds, equal as
    // instants whatever the session or process time zone says.
    void timestamptzRoundTripsAsUtcInstant()
    {
        auto session = db().openSession();
        session->execScript(QStringLiteral("SET TIME ZONE 'Asia/Kathmandu'"), QStringLiteral("odd zone"));
        const QDateTime instant = QDateTime(QDate(2026, 3, 29), QTime(1, 30, 15, 123), Qt::UTC);
        QSqlQuery& q = session->exec(QStringLiteral("SELECT epoch_ms(?::timestamptz), ?::timestamptz::text"),
            { SqlValues::timestamp(instant), SqlValues::timestamp(instant) }, QStringLiteral("round trip"));
        QVERIFY(q.next());
        const QDateTime back = SqlValues::instant(q.value(0));
        QCOMPARE(back, instant);
        QCOMPARE(back.timeSpec(), Qt::UTC);
        QCOMPARE(q.value(1).toString(), QStringLiteral("2026-03-29 07:15:15.123+05:45"));
    }

    void dsnIsParsedByLibpq_data()
    {
        QTest::addColumn<QString>("dsn");
        QTest::addColumn<bool>("valid");
        QTest::newRow("uri") << QStringLiteral("postgresql://u:p@localhost:5432/db?sslmode=disable") << true;
        QTest::newRow("key=value") << QStringLiteral("host=localhost port=5432 dbname='my db'") << true;
        QTest::newRow("service") << QStringLiteral("service=mine") << true;
        QTest::newRow("unknown keyword") << QStringLiteral("hots=localhost") << false;
        QTest::newRow("unterminated quote") << QStringLiteral("dbname='oops") << false;
        QTest::newRow("bad uri") << QStringLiteral("postgresql://[::1") << false;
    }

    // A migration is a script of many statements: when a later one fails, the error names that statement's
    // problem, and nothing of the script stays.
    void aScriptFailingAfterItsFirstStatementSaysWhy()
    {
        try {
            session().execScript(QStringLiteral("CREATE TABLE script_probe (x int); "
                                                "INSERT INTO script_probe VALUES ('not a number')"),
                QStringLiteral("probing"));
            QFAIL("the failing statement was not reported");
        } catch (const OutboxError& error) {
            QVERIFY2(error.message().contains(QStringLiteral("invalid input syntax")), error.what());
        }
        QVERIFY(db().scalar(QStringLiteral("SELECT to_regclass('script_probe') IS NULL")).toBool());
    }

    void dsnIsParsedByLibpq()
    {
        QFETCH(QString, dsn);
        QFETCH(bool, valid);
        try {
            ConnectionSettings::fromDsn(dsn);
            QVERIFY2(valid, "an invalid DSN was accepted");
        } catch (const OutboxError& error) {
            QVERIFY2(!valid, qPrintable(error.message()));
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
            QVERIFY(error.message().startsWith(QStringLiteral("invalid DSN: ")));
        }
    }

    void unreachableServerIsAConnectionError()
    {
        try {
            DbSession session(ConnectionSettings::fromDsn(QStringLiteral("host=127.0.0.1 port=1 connect_timeout=2")),
                QStringLiteral("unreachable"));
            QFAIL("connected to a closed port");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::Connection);
            QVERIFY2(error.message().startsWith(QStringLiteral("cannot connect to PostgreSQL: ")),
                qPrintable(error.message()));
        }
    }

    void wrongPasswordIsAConnectionError()
    {
        try {
            DbSession session(ConnectionSettings::fromDsn(QStringLiteral("dbname=%1 user=%2 password=wrong-password")
                                                              .arg(db().name(), QStringLiteral("no_such_user_xyz"))),
                QStringLiteral("badpassword"));
            QFAIL("authenticated with a wrong password");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::Connection);
        }
    }
};

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
