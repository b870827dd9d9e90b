// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class DbSession;

// Applies the SQL migrations embedded under :/sql/migrations in version order and records each in
// schema_migrations. Concurrent migrators serialise on an advisory lock, so applying twice is a no-op.
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

    // Version recorded in the database; 0 when the schema has never been migrated.
    int currentVersion();

    // Applies what is missing up to version `upTo` (tests of a migration start below it) in one transaction (all
    // or nothing), after the online steps of those migrations; returns the resulting version. Throws
    // OutboxError(Schema) if the database is newer than this binary.
    int migrate(int upTo = latestVersion());

    // Throws OutboxError(Schema) with a message saying what to do unless the schema is exactly current.
    void requireCurrent();

    // Applies resources/sql/roles.sql (the optional outbox_viewer / outbox_operator roles and grants).
    void grantRoles();

private:
    static QList<Migration> embeddedMigrations();
    DbSession& m_session;
};
