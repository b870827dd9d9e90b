// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/duewatch.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "relay/outboxleaserepository.h"

#include <QDeadlineTimer>
#include <sys/eventfd.h>
#include <unistd.h>

DueWatch::DueWatch(int workers, qint64 fallbackPollMs)
    : m_workers(workers)
    , m_fallbackPollMs(fallbackPollMs)
    , m_signalFd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
    if (m_signalFd < 0)
        throw OutboxError(OutboxError::Kind::Other, QStringLiteral("creating the relay's wake-up: eventfd failed"));
}

DueWatch::~DueWatch()
{
    ::close(m_signalFd);
}

void DueWatch::signalWatch()
{
    const quint64 one = 1;
    // A full counter (never, in practice) already wakes the watch.
    [[maybe_unused]] const ssize_t written = ::write(m_signalFd, &one, sizeof one);
}

void DueWatch::drainSignals()
{
    quint64 count = 0;
    [[maybe_unused]] const ssize_t read = ::read(m_signalFd, &count, sizeof count);
}

bool DueWatch::sleep(bool foundWork)
{
    std::unique_lock lock(m_mutex);
    m_foundWork = m_foundWork || foundWork;
    if (!m_permit && !m_stopping) {
        ++m_sleeping;
        ++m_sleeps;
        signalWatch();
        m_wakeWorkers.wait_for(
            lock, std::chrono::milliseconds(m_fallbackPollMs), [this] { return m_permit || m_stopping; });
        --m_sleeping;
        signalWatch();
    }
    m_permit = false;
    return !m_stopping;
}

void DueWatch::wakeOne()
{
    std::lock_guard lock(m_mutex);
    m_permit = true;
    m_wakeWorkers.notify_one();
}

void DueWatch::stop()
{
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    m_wakeWorkers.notify_all();
    signalWatch();
}

bool DueWatch::isStopping() const
{
    std::lock_guard lock(m_mutex);
    return m_stopping;
}

DueWatch::Observed DueWatch::observe() const
{
    std::lock_guard lock(m_mutex);
    return Observed { m_stopping, m_sleeping == m_workers, m_sleeps };
}

qint64 DueWatch::lookForDueRows(DbSession& session)
{
    const std::optional<qint64> dueInMs = OutboxLeaseRepository(session).msUntilNextDue();
    if (dueInMs == 0)
        wakeOne();
    return dueInMs && *dueInMs > 0 ? std::min(*dueInMs, m_fallbackPollMs) : m_fallbackPollMs;
}

void DueWatch::watchOn(DbSession& session)
{
    const QVariantList lockKey { LockClass, LockObject };
    session.execScript(QStringLiteral("LISTEN outbox_due"), QStringLiteral("listening for due outbox rows"));
    wakeOne();
    bool held = false;
    int contended = 0; // lock attempts in a row that found it taken, with no claim finding rows in between
    quint64 triedAtSleeps = ~quint64(0);
    QDeadlineTimer lookAgain(QDeadlineTimer::Forever); // held: when to look for due rows again
    QDeadlineTimer backOff(QDeadlineTimer::Forever); // not held: when to wake a worker after a taken lock
    for (;;) {
        if (!session.takeNotifications().isEmpty())
            wakeOne();
        const Observed now = observe();
        if (now.stopping)
            return;
        if (held && !now.allSleeping) {
            session.exec(QStringLiteral("SELECT pg_advisory_unlock(?::int, ?::int)"), lockKey,
                QStringLiteral("releasing the due-watch lock"));
            held = false;
            lookAgain = QDeadlineTimer(QDeadlineTimer::Forever);
        } else if (!held && now.allSleeping && now.sleeps != triedAtSleeps && backOff.isForever()) {
            triedAtSleeps = now.sleeps;
            {
                std::lock_guard lock(m_mutex);
                if (std::exchange(m_foundWork, false))
                    contended = 0;
            }
            QSqlQuery& q = session.exec(QStringLiteral("SELECT pg_try_advisory_lock(?::int, ?::int)"), lockKey,
                QStringLiteral("taking the due-watch lock"));
            held = q.next() && q.value(0).toBool();
            if (held) {
                contended = 0;
                // Every writer that held the lock in shared mode has committed: one more look finds its rows.
                lookAgain.setRemainingTime(lookForDueRows(session));
            } else if (contended++ == 0) {
                wakeOne(); // writers are committing rows right now
            } else {
                backOff.setRemainingTime(std::min<qint64>(m_fallbackPollMs, qint64(1) << std::min(contended - 2, 20)));
            }
        }
        // The queries above may have read a notification off the socket into libpq's queue, where poll() in
        // waitForNotification() cannot see it: a writer that committed while the lock was being taken would wait
        // for the fallback poll.
        if (!session.takeNotifications().isEmpty()) {
            wakeOne();
            continue;
        }
        const QDeadlineTimer deadline = held ? lookAgain : backOff;
        const DbSession::Wait woke = session.waitForNotification(
            deadline.isForever() ? m_fallbackPollMs : deadline.remainingTime(), m_signalFd);
        if (woke == DbSession::Wait::Interrupted)
            drainSignals();
        if (held && lookAgain.hasExpired())
            lookAgain.setRemainingTime(lookForDueRows(session));
        if (!held && backOff.hasExpired()) {
            backOff = QDeadlineTimer(QDeadlineTimer::Forever);
            wakeOne();
        }
    }
}
