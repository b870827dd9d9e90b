// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/schemamigrator.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/unitofwork.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlQuery>
#include <algorithm>

// Arbitrary constant shared by every migrator of this schema.
static constexpr qint64 MigrationLockId = 0x6f7574626f78; // "outbox"

static QString readResource(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw OutboxError(OutboxError::Kind::Other, QStringLiteral("embedded resource %1 is missing").arg(path));
    return QString::fromUtf8(file.readAll());
}

// An online step that starts with this line is a query returning the statements to run (migration 0028's indexes,
// built on each partition concurrently).
static constexpr char GeneratedStatementsMark[] = "-- statements\n";

SchemaMigrator::SchemaMigrator(DbSession& session)
    : m_session(session)
{ }

QList<SchemaMigrator::Migration> SchemaMigrator::embeddedMigrations()
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{4})_(\\w+)\\.sql$"));
    QList<Migration> migrations;
    const QDir dir(QStringLiteral(":/sql/migrations"));
    for (const QString& fileName : dir.entryList(QDir::Files, QDir::Name)) {
        const auto match = pattern.match(fileName);
        if (!match.hasMatch())
            continue;
        const QString online = dir.filePath(fileName.chopped(4) + QStringLiteral(".online.sql"));
        QStringList onlineSteps;
        if (QFile::exists(online)) {
            // The part before the first "-- step" is the file's header.
            onlineSteps = readResource(online).split(QStringLiteral("\n-- step\n"));
            onlineSteps.removeFirst();
        }
        migrations.append(
            { match.captured(1).toInt(), match.captured(2), readResource(dir.filePath(fileName)), onlineSteps });
    }
    std::sort(migrations.begin(), migrations.end(), [](const auto& a, const auto& b) { return a.version < b.version; });
    return migrations;
}

QStringList SchemaMigrator::schemaFiles()
{
    const QDir dir(QStringLiteral(":/sql/schema"));
    QStringList files;
    for (const QString& fileName : dir.entryList({ QStringLiteral("*.sql") }, QDir::Files, QDir::Name))
        files.append(dir.filePath(fileName));
    return files;
}

int SchemaMigrator::latestVersion()
{
    const auto migrations = embeddedMigrations();
    return migrations.isEmpty() ? 0 : migrations.last().version;
}

int SchemaMigrator::currentVersion()
{
    QSqlQuery& exists = m_session.exec(QStringLiteral("SELECT to_regclass('schema_migrations') IS NOT NULL"), {},
        QStringLiteral("reading the schema version"));
    if (!exists.next() || !exists.value(0).toBool())
        return 0;
    QSqlQuery& q = m_session.exec(QStringLiteral("SELECT coalesce(max(version), 0) FROM schema_migrations"), {},
        QStringLiteral("reading the schema version"));
    return q.next() ? q.value(0).toInt() : 0;
}

static OutboxError newerSchemaError(int database, int binary)
{
    return OutboxError(OutboxError::Kind::Schema,
        QStringLiteral("the database schema is at version %1, newer than this binary supports (%2); "
                       "upgrade this program instead of migrating")
            .arg(database)
            .arg(binary));
}

int SchemaMigrator::migrate(int upTo)
{
    const auto migrations = embeddedMigrations();
    const int latest = migrations.isEmpty() ? 0 : migrations.last().version;

    const int before = currentVersion();
    if (before > 0) {
        for (const Migration& migration : migrations) {
            if (migration.version <= before || migration.version > upTo)
                continue;
            for (qsizetype step = 0; step < migration.onlineSteps.size(); ++step) {
                const QString& sql = migration.onlineSteps[step];
                const QString context = QStringLiteral("preparing migration %1_%2 (step %3 of %4)")
                                            .arg(migration.version, 4, 10, QLatin1Char('0'))
                                            .arg(migration.name)
                                            .arg(step + 1)
                                            .arg(migration.onlineSteps.size());
                if (!sql.startsWith(QLatin1String(GeneratedStatementsMark))) {
                    m_session.execScript(sql, context);
                    continue;
                }
                // A query whose rows are the statements to run, each on its own outside a transaction (CREATE INDEX
                // CONCURRENTLY cannot run in one), for objects the step finds only at run time (the partitions).
                QStringList statements;
                QSqlQuery& generated = m_session.exec(sql, {}, context);
                while (generated.next())
                    statements.append(generated.value(0).toString());
                for (const QString& statement : std::as_const(statements))
                    m_session.execScript(statement, context);
            }
        }
    }

    UnitOfWork uow(m_session);
    m_session.exec(QStringLiteral("SELECT pg_advisory_xact_lock(?)"), { MigrationLockId },
        QStringLiteral("waiting for other migrators"));
    m_session.execScript(QStringLiteral("CREATE TABLE IF NOT EXISTS schema_migrations ("
                                        " version integer PRIMARY KEY,"
                                        " name text NOT NULL,"
                                        " applied_at timestamptz NOT NULL DEFAULT now())"),
        QStringLiteral("creating schema_migrations"));
    int current = currentVersion();
    if (current > latest)
        throw newerSchemaError(current, latest);
    const auto record = [this](const Migration& migration) {
        m_session.exec(QStringLiteral("INSERT INTO schema_migrations (version, name) VALUES (?, ?)"),
            { migration.version, migration.name }, QStringLiteral("recording migration %1").arg(migration.version));
    };
    if (current == 0 && upTo >= latest) {
        // An empty database: the current schema in one go, and every migration recorded as an upgrade would have.
        for (const QString& file : schemaFiles())
            m_session.execScript(
                readResource(file), QStringLiteral("installing the schema (%1)").arg(QFileInfo(file).fileName()));
        for (const Migration& migration : migrations)
            record(migration);
        uow.commit();
        return latest;
    }
    // All pending migrations commit together: a failure leaves the schema at the version it had.
    for (const Migration& migration : migrations) {
        if (migration.version <= current || migration.version > upTo)
            continue;
        m_session.execScript(migration.sql,
            QStringLiteral("applying migration %1_%2")
                .arg(migration.version, 4, 10, QLatin1Char('0'))
                .arg(migration.name));
        record(migration);
        current = migration.version;
    }
    uow.commit();
    return current;
}

void SchemaMigrator::requireCurrent()
{
    const int latest = latestVersion();
    const int current = currentVersion();
    if (current == latest)
        return;
    if (current == 0)
        throw OutboxError(OutboxError::Kind::Schema,
            QStringLiteral("the database has no outbox schema; run 'outboxctl migrate' first"));
    if (current > latest)
        throw newerSchemaError(current, latest);
    throw OutboxError(OutboxError::Kind::Schema,
        QStringLiteral("the database schema is at version %1 but this binary needs %2; run 'outboxctl migrate'")
            .arg(current)
            .arg(latest));
}

void SchemaMigrator::grantRoles()
{
    requireCurrent();
    UnitOfWork uow(m_session);
    m_session.execScript(readResource(QStringLiteral(":/sql/roles.sql")), QStringLiteral("creating the outbox roles"));
    uow.commit();
}
