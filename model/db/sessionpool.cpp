// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/sessionpool.h"

#include "db/dbsession.h"

SessionPool::Connection::Connection(const ConnectionSettings& settings, QString purpose)
    : m_settings(settings)
    , m_purpose(std::move(purpose))
{ }

SessionPool::Connection::~Connection() = default;

DbSession& SessionPool::Connection::session()
{
    if (!m_session || m_session->isBroken()) {
        m_session.reset();
        m_session = std::make_unique<DbSession>(m_settings, m_purpose);
        markWorked();
    }
    return *m_session;
}

SessionPool::SessionPool(ConnectionSettings settings, QString purpose, int connections, int queueCapacity)
    : m_settings(std::move(settings))
    , m_purpose(std::move(purpose))
    , m_capacity(size_t(std::max(queueCapacity, 0)))
{
    m_workers.reserve(size_t(connections));
    for (int i = 0; i < connections; ++i)
        m_workers.emplace_back([this] { work(); });
}

SessionPool::~SessionPool()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (std::thread& worker : m_workers)
        worker.join();
}

bool SessionPool::trySubmit(Task task)
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_stopping || m_boundedWaiting >= m_capacity)
            return false;
        ++m_boundedWaiting;
        m_queue.push_back(Queued { std::move(task), true });
    }
    m_wake.notify_one();
    return true;
}

void SessionPool::submit(Task task)
{
    {
        const std::lock_guard lock(m_mutex);
        m_queue.push_back(Queued { std::move(task), false });
    }
    m_wake.notify_one();
}

int SessionPool::waiting() const
{
    const std::lock_guard lock(m_mutex);
    return int(m_boundedWaiting);
}

void SessionPool::work()
{
    Connection connection(m_settings, m_purpose);
    for (;;) {
        Task task;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_queue.empty())
                return; // stopping, and everything submitted has run
            Queued& next = m_queue.front();
            task = std::move(next.task);
            m_boundedWaiting -= next.bounded ? 1 : 0;
            m_queue.pop_front();
        }
        task(connection);
    }
}
