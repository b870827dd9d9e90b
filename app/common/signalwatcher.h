// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <atomic>
#include <functional>
#include <thread>

// Turns SIGINT and SIGTERM into a call of `onStop` on a dedicated thread, for as long as the watcher lives.
// Construct it before starting any other thread: the signals are blocked in the constructing thread and
// every thread it starts afterwards inherits that mask, so the watcher's sigwait() is the only receiver
// and the callback may do what a signal handler may not (lock a mutex, notify a condition variable).
class SignalWatcher final {
    Q_DISABLE_COPY_MOVE(SignalWatcher)
public:
    explicit SignalWatcher(std::function<void()> onStop);
    ~SignalWatcher();

private:
    void watch();

    std::function<void()> m_onStop;
    std::atomic<bool> m_finished { false };
    std::thread m_thread;
};
