// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"
#include "db/dbsession.h"

#include <QString>
#include <QVariantList>
#include <memory>

// A fresh, migrated database (to the latest version unless told otherwise) on the PostgreSQL server named by the libpq
// environment (the test command starts a throwaway one with pg_virtualenv). Created per test executable and dropped at
// the end, so test executables can run in parallel without seeing each other's rows.
class TestDatabase final {
    Q_DISABLE_COPY_MOVE(TestDatabase)
public:
    explicit TestDatabase(const QString& testName);
    // At an older schema version, for a migration's test: `testName` must differ from the test's own.
    TestDatabase(const QString& testName, int schemaVersion);
    ~TestDatabase();

    const QString& name() const { return m_name; }
    const ConnectionSettings& settings() const { return m_settings; }
    // A key=value DSN for this database, as outboxctl --dsn takes it.
    QString dsn() const;

    std::unique_ptr<DbSession> openSession(const QString& purpose = QStringLiteral("test"));

    // Empties every table (identities restart) between test functions.
    void reset();

    // Runs one statement on the test's own session and returns the first column of the first row.
    QVariant scalar(const QString& sql, const QVariantList& binds = {});
    void exec(const QString& sql, const QVariantList& binds = {});
    // The second of the database's current minute: what decides which minute a row written with now() lands in (this
    // machine's clock may be seconds apart from the server's). A test that writes and reads within one minute waits
    // for it to be low enough.
    int secondOfMinute();

    // Creates a LOGIN role that is a member of `groupRole` and returns its connection settings.
    ConnectionSettings createLoginRole(const QString& roleName, const QString& groupRole);

private:
    QString m_name;
    ConnectionSettings m_settings;
    std::unique_ptr<DbSession> m_session;
};
