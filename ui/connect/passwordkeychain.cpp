// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/passwordkeychain.h"

#include "db/conninfo.h"

#include <qt6keychain/keychain.h>

// An entry no connection has: reading it tells a working keychain (not found) from none (an error).
static const QString ProbeKey = QStringLiteral("outbox-console availability probe");

// Every job deletes itself once finished; none may fall back to storing the password in plain text. Jobs have no
// parent: libsecret's callback still points at a job after its owner is gone (a dialog closed before the keychain
// answered), so a job lives until it finishes, and its answer is dropped with the connection to a PasswordKeychain
// that no longer exists.
template<typename JobType> static JobType* newJob(const QString& service, const QString& key)
{
    auto* job = new JobType(service);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    return job;
}

PasswordKeychain::PasswordKeychain(const QString& service, QObject* parent)
    : QObject(parent)
    , m_service(service)
{ }

QString PasswordKeychain::identity(const QString& conninfo)
{
    return Conninfo::compose(Conninfo::parseWithoutSecrets(conninfo));
}

QString PasswordKeychain::withPassword(const QString& identity, const QString& password)
{
    return QStringLiteral("%1 password=%2").arg(identity, Conninfo::quoted(password));
}

void PasswordKeychain::probe()
{
    auto* job = newJob<QKeychain::ReadPasswordJob>(m_service, ProbeKey);
    connect(job, &QKeychain::Job::finished, this, [this](QKeychain::Job* finished) {
        const bool available = finished->error() == QKeychain::NoError || finished->error() == QKeychain::EntryNotFound;
        emit availabilityKnown(available, available ? QString() : finished->errorString());
    });
    job->start();
}

void PasswordKeychain::store(const QString& identity, const QString& password)
{
    auto* job = newJob<QKeychain::WritePasswordJob>(m_service, identity);
    job->setTextData(password);
    connect(job, &QKeychain::Job::finished, this, [this, identity](QKeychain::Job* finished) {
        if (finished->error() == QKeychain::NoError)
            emit stored(identity);
        else
            emit failed(identity, finished->errorString());
    });
    job->start();
}

void PasswordKeychain::load(const QString& identity)
{
    auto* job = newJob<QKeychain::ReadPasswordJob>(m_service, identity);
    connect(job, &QKeychain::Job::finished, this, [this, identity](QKeychain::Job* finished) {
        if (finished->error() == QKeychain::NoError)
            emit loaded(identity, static_cast<QKeychain::ReadPasswordJob*>(finished)->textData());
        else if (finished->error() == QKeychain::EntryNotFound)
            emit notStored(identity);
        else
            emit failed(identity, finished->errorString());
    });
    job->start();
}

void PasswordKeychain::forget(const QString& identity)
{
    auto* job = newJob<QKeychain::DeletePasswordJob>(m_service, identity);
    connect(job, &QKeychain::Job::finished, this, [this, identity](QKeychain::Job* finished) {
        // Forgetting what was never stored leaves the keychain as asked.
        if (finished->error() == QKeychain::NoError || finished->error() == QKeychain::EntryNotFound)
            emit forgotten(identity);
        else
            emit failed(identity, finished->errorString());
    });
    job->start();
}
