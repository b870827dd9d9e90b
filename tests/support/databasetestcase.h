// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "support/testdatabase.h"

#include <QObject>
#include <memory>

// The fixture every database test shares: a fresh, migrated database for the whole executable, emptied before
// each test function, and one session on it. Qt Test finds initTestCase/cleanupTestCase/init by name, so a
// test class that needs more declares its own slot and calls the protected set-up below from it.
class DatabaseTestCase : public QObject {
    Q_OBJECT
protected:
    explicit DatabaseTestCase(QString testName);
    ~DatabaseTestCase() override;

    TestDatabase& db() { return *m_db; }
    const TestDatabase& db() const { return *m_db; }
    DbSession& session() { return *m_session; }

    void setUpDatabase();
    void tearDownDatabase();

private slots:
    void initTestCase() { setUpDatabase(); }
    void cleanupTestCase() { tearDownDatabase(); }
    void init() { m_db->reset(); }

private:
    QString m_testName;
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<DbSession> m_session;
};
