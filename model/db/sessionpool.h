// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"

#include <QString>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

class DbSession;

// A fixed set of worker threads, each with its own database connection (Qt 6.4: a connection stays in the thread
// that opened it), running submitted tasks in the order they were submitted. The queue is bounded: a caller told
// it is full answers its client at once (503 and Retry-After) instead of letting waiting work pile up behind a
// slow or absent database.
class SessionPool final {
public:
    // A worker's connection: opened on first use and reopened after it broke, so session() throws OutboxError
    // (kind Connection) while the server is away and works again once it is back.
    class Connection final {
    public:
        Connection(const ConnectionSettings& settings, QString purpose);
        ~Connection();
        DbSession& session();
        // Closes the connection, so that the next session() opens another: after a connection error, which may
        // leave it open (a server demoted to read-only under it, SQLSTATE 25006) where a new one reaches the new
        // primary through target_session_attrs.
        void drop() { m_session.reset(); }
        // When it last served a statement (as its user says with markWorked()) or opened: a connection that
        // failed, and last worked before the last outage ended, sat through that outage idle
        // (OutageTracker::recoveredSince).
        std::chrono::steady_clock::time_point workedAt() const { return m_workedAt; }
        void markWorked() { m_workedAt = std::chrono::steady_clock::now(); }

    private:
        const ConnectionSettings& m_settings;
        QString m_purpose;
        std::unique_ptr<DbSession> m_session;
        std::chrono::steady_clock::time_point m_workedAt;
    };
    // Runs on a worker thread; must not throw.
    using Task = std::function<void(Connection& connection)>;

    SessionPool(ConnectionSettings settings, QString purpose, int connections, int queueCapacity);
    // Runs every task submitted so far, then closes the connections.
    ~SessionPool();

    // Queues `task`; false, running nothing, when `queueCapacity` tasks queued this way wait already. Any thread.
    bool trySubmit(Task task);
    // Queues `task` whatever the queue holds, for the owner's own periodic work (which it bounds itself).
    void submit(Task task);
    // Tasks of trySubmit() waiting for a connection.
    int waiting() const;

private:
    void work();

    struct Queued {
        Task task;
        bool bounded;
    };

    const ConnectionSettings m_settings;
    const QString m_purpose;
    const size_t m_capacity;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Queued> m_queue;
    size_t m_boundedWaiting = 0;
    bool m_stopping = false;
    std::vector<std::thread> m_workers;
};
