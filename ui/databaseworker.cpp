#include "databaseworker.h"

#include "databaseworkerthread.h"

DatabaseWorker::DatabaseWorker(QString purpose, QObject* parent)
    : QObject(parent)
    , m_inThread(new DatabaseWorkerThread(std::move(purpose)))
{
    m_inThread->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_inThread, &QObject::deleteLater);
    connect(m_inThread, &DatabaseWorkerThread::connected, this, &DatabaseWorker::connected);
    connect(m_inThread, &DatabaseWorkerThread::connectFailed, this, &DatabaseWorker::connectFailed);
    connect(m_inThread, &DatabaseWorkerThread::connectionLost, this, &DatabaseWorker::connectionLost);
    connect(m_inThread, &DatabaseWorkerThread::reconnected, this, &DatabaseWorker::reconnected);
    connect(m_inThread, &DatabaseWorkerThread::changed, this, &DatabaseWorker::changed);
    m_thread.setObjectName(QStringLiteral("db-") + m_inThread->objectName());
    m_thread.start();
}

DatabaseWorker::~DatabaseWorker()
{
    // Queued work still runs (the connection and its session are closed in the worker thread afterwards);
    // its results are dropped once their context objects are gone.
    m_thread.quit();
    m_thread.wait();
}

void DatabaseWorker::open(const ConnectionSettings& settings, bool listen)
{
    QMetaObject::invokeMethod(
        m_inThread, [inThread = m_inThread, settings, listen] { inThread->open(settings, listen); },
        Qt::QueuedConnection);
}

void DatabaseWorker::post(std::function<void(DbSession*)> job)
{
    QMetaObject::invokeMethod(
        m_inThread, [inThread = m_inThread, job = std::move(job)] { inThread->execute(job); }, Qt::QueuedConnection);
}

OutboxError DatabaseWorker::notConnected()
{
    return OutboxError(OutboxError::Kind::Connection, QStringLiteral("not connected to the database (reconnecting)"));
}
