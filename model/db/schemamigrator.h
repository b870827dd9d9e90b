// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class DbSession;

// Installs or upgrades the schema, and records each version in schema_migrations. An empty database gets the current
// schema from the files embedded under :/sql/schema (one per subsystem, applied in name order: the schema readable in
// one place); a database that has a schema gets the migrations embedded under :/sql/migrations that it lacks, in
// version order. Both ways end in the same catalog (tst_schema compares them). Concurrent migrators serialise on an
// advisory lock, so applying twice is a no-op.
//
// A migration NNNN_name.sql may come with NNNN_name.online.sql: steps (separated by lines "-- step") that prepare a
// populated database without blocking its writers, each in a transaction of its own and each harmless to repeat.
// They run before the migrations' transaction, and only on a database that already has a schema.
class SchemaMigrator final {
public:
    struct Migration {
        int version;
        QString name;
        QString sql;
        QStringList onlineSteps;
    };

    explicit SchemaMigrator(DbSession& session);

    // Highest version this binary knows.
    static int latestVersion();
    // The current schema's files (resource paths), in the order an empty database gets them.
    static QStringList schemaFiles();

    // Version recorded in the database; 0 when the schema has never been migrated.
    int currentVersion();

    // Applies what is missing up to version `upTo` in one transaction (all or nothing), after the online steps of
    // those migrations; returns the resulting version. An empty database brought to the latest version is installed
    // from the current schema; one brought to an earlier version (a migration's test starts below it) goes through
    // the migrations. Throws OutboxError(Schema) if the database is newer than this binary.
    int migrate(int upTo = latestVersion());

    // Throws OutboxError(Schema) with a message saying what to do unless the schema is exactly current.
    void requireCurrent();

    // Applies resources/sql/roles.sql (the optional outbox_viewer / outbox_operator roles and grants).
    void grantRoles();

private:
    static QList<Migration> embeddedMigrations();
    DbSession& m_session;
};
