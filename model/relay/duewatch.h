// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <condition_variable>
#include <mutex>

class DbSession;

// Wakes a relay's idle workers within milliseconds of rows becoming due, without making every writer NOTIFY
// (migration 0012 says why that would cost the creates a third of their speed and more).
//
// While every worker of the relay sleeps, the watch holds the due-watch lock (advisory lock LockClass, LockObject)
// on its own session, which LISTENs on outbox_due. A writer that makes rows due notifies only when it cannot take
// that lock in shared mode: only while some relay sleeps. Right after taking the lock the watch looks for due
// rows once more, for any writer that committed meanwhile, and it keeps a timer to the earliest failed row's
// next_attempt_at. As soon as a worker wakes, the watch lets the lock go, so that a busy relay costs the writers
// nothing: busy workers claim again after each batch and see new rows themselves.
//
// When the lock is taken (writers hold it in shared mode, or another relay sleeps on it) the watch wakes a worker
// at once and then backs off, 1 ms doubling to the fallback poll while those claims find nothing; a notification,
// which every listening relay receives, wakes a worker meanwhile. Whatever is lost (a notification with a
// connection, a watch session that cannot connect) costs at most the fallback poll: workers never sleep longer.
//
// sleep() and wakeOne() are for the workers, watchOn() for the watch session's thread, stop() for anyone.
class DueWatch final {
    Q_DISABLE_COPY_MOVE(DueWatch)
public:
    static constexpr int LockClass = 1869968482; // "outb"
    static constexpr int LockObject = 1;

    // `workers`: how many workers call sleep(); the lock is held only while all of them sleep.
    DueWatch(int workers, qint64 fallbackPollMs);
    ~DueWatch();

    // A worker with nothing to claim: sleeps until woken or for the fallback poll. `foundWork`: one of its claims
    // found rows since it last slept (the watch's backoff starts again). False once stop() was called.
    bool sleep(bool foundWork);
    // Lets one sleeping worker (or the next to sleep) claim: after a full batch, there may be more.
    void wakeOne();

    // Watches on `session` until stop(); throws OutboxError when the session fails. A session that closes
    // releases the lock with it. Wakes a worker first: notifications may have been missed without a session.
    void watchOn(DbSession& session);

    void stop();
    bool isStopping() const;

private:
    struct Observed {
        bool stopping = false;
        bool allSleeping = false;
        quint64 sleeps = 0;
    };
    Observed observe() const;
    void signalWatch();
    void drainSignals();
    // Looks for due rows while holding the lock: wakes a worker if one is due, and returns when to look again (at
    // the earliest next_attempt_at, at the latest after the fallback poll).
    qint64 lookForDueRows(DbSession& session);

    const int m_workers;
    const qint64 m_fallbackPollMs;
    const int m_signalFd; // eventfd: a worker fell asleep or woke, or stop()

    mutable std::mutex m_mutex;
    std::condition_variable m_wakeWorkers;
    bool m_stopping = false;
    int m_sleeping = 0;
    quint64 m_sleeps = 0; // times a worker fell asleep: the watch acts once per round of sleep
    bool m_foundWork = false; // a claim found rows since the watch last tried the lock
    bool m_permit = false; // one worker may claim: the next to sleep returns at once
};
