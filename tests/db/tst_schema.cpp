// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/connectionsettings.h"
#include "db/outboxerror.h"
#include "db/schemamigrator.h"
#include "db/sqlvalues.h"
#include "support/databasetestcase.h"
#include "support/testdatabase.h"

#include <QFile>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QTest>

class TestSchema final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestSchema()
        : DatabaseTestCase(QStringLiteral("schema"))
    { }

private:
    // Everything a schema is made of, one sorted line per object: tables with their columns in order (the dropped
    // ones an upgrade leaves behind are invisible, so left out), indexes, constraints, functions with their bodies,
    // triggers, sequences, extensions, comments and grants; then every row of every table (a migration's seed rows).
    static QStringList catalogOf(DbSession& session)
    {
        // Objects of the schema, not of an extension installed into it (pg_trgm's functions).
        static const QString Ours = QStringLiteral(
            "n.nspname = 'public' AND NOT EXISTS (SELECT FROM pg_depend e WHERE e.objid = %1 AND e.deptype = 'e')");
        const QString sql = QStringLiteral(
            "SELECT line FROM ("
            "  SELECT format('relation %s kind %s persistence %s options %s partition key %s bound %s acl %s "
            "      comment %s', c.relname, c.relkind, c.relpersistence, c.reloptions, pg_get_partkeydef(c.oid), "
            "      pg_get_expr(c.relpartbound, c.oid), c.relacl, obj_description(c.oid, 'pg_class')) AS line "
            "  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE %1 "
            "  UNION ALL "
            "  SELECT format('column %s.%s #%s %s not null %s default %s identity %s generated %s collation %s "
            "      comment %s', c.relname, a.attname, "
            "      row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum), format_type(a.atttypid, "
            "      a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid), a.attidentity, a.attgenerated, "
            "      a.attcollation, col_description(a.attrelid, a.attnum)) "
            "  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "    JOIN pg_attribute a ON a.attrelid = c.oid "
            "    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
            "  WHERE %1 AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'v', 'm', 'f') "
            "  UNION ALL "
            "  SELECT format('index %s', pg_get_indexdef(c.oid)) "
            "  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE %1 AND c.relkind IN ('i', 'I') "
            "  UNION ALL "
            "  SELECT format('constraint %s on %s: %s deferrable %s deferred %s', co.conname, co.conrelid::regclass, "
            "      pg_get_constraintdef(co.oid), co.condeferrable, co.condeferred) "
            "  FROM pg_constraint co JOIN pg_namespace n ON n.oid = co.connamespace WHERE %2 "
            "  UNION ALL "
            "  SELECT format('function %s acl %s comment %s', pg_get_functiondef(p.oid), p.proacl, "
            "      obj_description(p.oid, 'pg_proc')) "
            "  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE %3 AND p.prokind IN ('f', 'p') "
            "  UNION ALL "
            "  SELECT format('trigger %s enabled %s', pg_get_triggerdef(t.oid), t.tgenabled) "
            "  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
            "  WHERE %1 AND NOT t.tgisinternal "
            "  UNION ALL "
            "  SELECT format('sequence %s %s start %s by %s %s..%s cache %s cycle %s owned by %s', c.relname, "
            "      s.seqtypid::regtype, s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle, "
            "      (SELECT format('%s.%s', o.refobjid::regclass, o.refobjsubid) FROM pg_depend o "
            "       WHERE o.objid = c.oid AND o.classid = 'pg_class'::regclass AND o.deptype IN ('a', 'i'))) "
            "  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_sequence s ON s.seqrelid = c.oid "
            "  WHERE %1 "
            "  UNION ALL "
            "  SELECT format('type %s kind %s', t.typname, t.typtype) "
            "  FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace "
            "  WHERE %4 AND t.typtype IN ('e', 'd') "
            "  UNION ALL "
            "  SELECT format('extension %s', x.extname) FROM pg_extension x WHERE x.extname <> 'plpgsql' "
            "  UNION ALL "
            "  SELECT format('schema public acl %s comment %s', nspacl, obj_description(oid, 'pg_namespace')) "
            "  FROM pg_namespace WHERE nspname = 'public' "
            ") lines ORDER BY line")
                                .arg(Ours.arg(QStringLiteral("c.oid")), Ours.arg(QStringLiteral("co.oid")),
                                    Ours.arg(QStringLiteral("p.oid")), Ours.arg(QStringLiteral("t.oid")));
        QStringList lines;
        QSqlQuery& q = session.exec(sql, {}, QStringLiteral("reading the catalog"));
        while (q.next())
            lines.append(q.value(0).toString());
        // The rows: the table names come from the catalog, quoted by the server.
        QStringList tables;
        QSqlQuery& names = session.exec(QStringLiteral("SELECT quote_ident(c.relname) FROM pg_class c "
                                                       "JOIN pg_namespace n ON n.oid = c.relnamespace "
                                                       "WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1"),
            {}, QStringLiteral("listing the tables"));
        while (names.next())
            tables.append(names.value(0).toString());
        for (const QString& table : tables) {
            // Without the moments a row was written at install or upgrade (a version applied, a partition opened, the
            // log's first tick taken, with the snapshot of that moment).
            QSqlQuery& r = session.exec(
                QStringLiteral(
                    "SELECT string_agg(row, ', ' ORDER BY row) FROM ("
                    "  SELECT (to_jsonb(t) - 'applied_at' - 'opened_at' - 'taken_at' - 'snapshot')::text AS row "
                    "  FROM %1 t) rows")
                    .arg(table),
                {}, QStringLiteral("reading the rows of %1").arg(table));
            lines.append(QStringLiteral("rows of %1: %2").arg(table, r.next() ? r.value(0).toString() : QString()));
        }
        // Migration 0021's online path, which runs on every database that already had a schema, opens the first
        // partition above every id the old table could still hand out (its sequence's last value plus 10^9): that
        // bound is the upgrade's own. It is written as an install writes it, 1, so that the rest compares.
        QSqlQuery& open = session.exec(QStringLiteral("SELECT lower_id FROM outbox_partitions WHERE upper_id IS NULL"),
            {}, QStringLiteral("reading the open partition"));
        const qint64 openLower = open.next() ? open.value(0).toLongLong() : 1;
        if (openLower != 1) {
            const QRegularExpression bound(QStringLiteral("(?<!\\d)%1(?!\\d)").arg(openLower));
            for (QString& line : lines)
                line.replace(bound, QStringLiteral("1"));
        }
        lines.sort();
        return lines;
    }

    // Whether two catalogs are the same; if not, each line that differs is logged: those of the upgrade that the
    // install lacks, and those the install has that the upgrade lacks.
    static bool sameCatalog(const QStringList& upgraded, const QStringList& installed)
    {
        for (const QString& line : upgraded) {
            if (!installed.contains(line))
                qInfo("the install lacks: %s", qPrintable(line));
        }
        for (const QString& line : installed) {
            if (!upgraded.contains(line))
                qInfo("only the install has: %s", qPrintable(line));
        }
        return installed == upgraded;
    }

private slots:
    void migrateRecordsEveryEmbeddedVersion()
    {
        QVERIFY(SchemaMigrator::latestVersion() >= 1);
        QCOMPARE(db().scalar(QStringLiteral("SELECT max(version) FROM schema_migrations")).toInt(),
            SchemaMigrator::latestVersion());
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM schema_migrations")).toLongLong(),
            qint64(SchemaMigrator::latestVersion()));
    }

    // The current schema's files (resources/sql/schema) install what the migrations build: an empty database installed
    // from them and one upgraded from schema 1 through every migration have the same catalog and the same rows.
    void aFreshInstallIsTheUpgradedSchema()
    {
        TestDatabase upgraded(QStringLiteral("schema_upgraded"), 1);
        const std::unique_ptr<DbSession> upgrading = upgraded.openSession();
        QCOMPARE(SchemaMigrator(*upgrading).migrate(), SchemaMigrator::latestVersion());
        const QStringList fromMigrations = catalogOf(*upgrading);
        TestDatabase fresh(QStringLiteral("schema_installed"));
        const std::unique_ptr<DbSession> reading = fresh.openSession();
        QCOMPARE(SchemaMigrator(*reading).currentVersion(), SchemaMigrator::latestVersion());
        const QStringList installed = catalogOf(*reading);
        // The files themselves, whatever the migrator does with them: in their order, in a database at version 0
        // (nothing but the empty schema_migrations).
        TestDatabase bare(QStringLiteral("schema_files"), 0);
        const std::unique_ptr<DbSession> filling = bare.openSession();
        QVERIFY(SchemaMigrator::schemaFiles().size() >= 3);
        for (const QString& path : SchemaMigrator::schemaFiles()) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            filling->execScript(QString::fromUtf8(file.readAll()), path);
        }
        const auto withoutVersions = [](QStringList lines) {
            lines.removeIf([](const QString& line) { return line.contains(QLatin1String("schema_migrations")); });
            return lines;
        };
        const QStringList fromFiles = withoutVersions(catalogOf(*filling));
        QVERIFY(installed.size() > 100);
        QVERIFY(sameCatalog(fromMigrations, installed));
        QVERIFY(sameCatalog(withoutVersions(fromMigrations), fromFiles));
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
