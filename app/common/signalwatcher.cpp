// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/signalwatcher.h"

#include <csignal>
#include <pthread.h>

// SIGUSR1 only wakes the watcher to let it end; it is blocked too so it can never kill the process.
static sigset_t watchedSignals()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);
    return set;
}

SignalWatcher::SignalWatcher(std::function<void()> onStop)
    : m_onStop(std::move(onStop))
{
    const sigset_t set = watchedSignals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    m_thread = std::thread([this] { watch(); });
}

SignalWatcher::~SignalWatcher()
{
    m_finished = true;
    pthread_kill(m_thread.native_handle(), SIGUSR1);
    m_thread.join();
}

void SignalWatcher::watch()
{
    const sigset_t set = watchedSignals();
    for (;;) {
        int signal = 0;
        if (sigwait(&set, &signal) != 0)
            continue;
        if (signal != SIGUSR1)
            m_onStop();
        else if (m_finished)
            return;
    }
}
