// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/databasetestcase.h"

DatabaseTestCase::DatabaseTestCase(QString testName)
    : m_testName(std::move(testName))
{ }

DatabaseTestCase::~DatabaseTestCase() = default;

void DatabaseTestCase::setUpDatabase()
{
    m_db = std::make_unique<TestDatabase>(m_testName);
    m_session = m_db->openSession();
}

void DatabaseTestCase::tearDownDatabase()
{
    // The session first: dropping the database waits for nobody, but a session left open would be cut off.
    m_session.reset();
    m_db.reset();
}
