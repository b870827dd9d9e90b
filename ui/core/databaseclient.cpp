// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/databaseclient.h"

#include "core/databaseworker.h"
#include "db/querycanceller.h"

#include <QThreadPool>

DatabaseClient::DatabaseClient(QString purpose, QObject* parent)
    : QObject(parent)
    , m_canceller(std::make_shared<QueryCanceller>())
    , m_inThread(new DatabaseWorker(std::move(purpose), m_canceller))
{
    m_inThread->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_inThread, &QObject::deleteLater);
    connect(m_inThread, &DatabaseWorker::connected, this, &DatabaseClient::connected);
    connect(m_inThread, &DatabaseWorker::connectFailed, this, &DatabaseClient::connectFailed);
    connect(m_inThread, &DatabaseWorker::connectionLost, this, &DatabaseClient::connectionLost);
    connect(m_inThread, &DatabaseWorker::stillUnreachable, this, &DatabaseClient::stillUnreachable);
    connect(m_inThread, &DatabaseWorker::reconnected, this, &DatabaseClient::reconnected);
    connect(m_inThread, &DatabaseWorker::changed, this, &DatabaseClient::changed);
    m_thread.setObjectName(QStringLiteral("db-") + m_inThread->objectName());
    m_thread.start();
}

DatabaseClient::~DatabaseClient()
{
    // Queued work still runs (the connection and its session are closed in the worker thread afterwards);
    // its results are dropped once their context objects are gone.
    m_thread.quit();
    m_thread.wait();
}

void DatabaseClient::open(const ConnectionSettings& settings, bool listen, FirstFailure firstFailure)
{
    QMetaObject::invokeMethod(
        m_inThread,
        [inThread = m_inThread, settings, listen, retry = firstFailure == FirstFailure::Retry] {
            inThread->open(settings, listen, retry);
        },
        Qt::QueuedConnection);
}

void DatabaseClient::cancelRunning()
{
    // PQcancel connects to the server: on a pool thread, never on the GUI thread.
    QThreadPool::globalInstance()->start([canceller = m_canceller] {
        const QString problem = canceller->cancel();
        if (!problem.isEmpty())
            qWarning("could not cancel the running statement: %s", qPrintable(problem));
    });
}

void DatabaseClient::checkNow()
{
    QMetaObject::invokeMethod(m_inThread, &DatabaseWorker::ping, Qt::QueuedConnection);
}

void DatabaseClient::post(std::function<void(DbSession*)> job)
{
    QMetaObject::invokeMethod(
        m_inThread, [inThread = m_inThread, job = std::move(job)] { inThread->execute(job); }, Qt::QueuedConnection);
}

OutboxError DatabaseClient::notConnected()
{
    return OutboxError(OutboxError::Kind::Connection, tr("not connected to the database (reconnecting)"));
}
