// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/outagetracker.h"

#include "db/retrydelay.h"

OutageTracker::OutageTracker(QString peer, Log log)
    : m_peer(std::move(peer))
    , m_log(std::move(log))
{ }

void OutageTracker::reportDown(const QString& reason)
{
    QString line;
    {
        std::lock_guard lock(m_mutex);
        if (m_up) {
            m_since.start();
            m_downAt = std::chrono::steady_clock::now();
            // One arg() for all: a later arg() would replace the lowest %N left in the text, also one inside
            // `reason` (an AMQP URI's vhost "/" is written "%2F").
            line = QStringLiteral("%1 unavailable: %2; retrying with backoff (%3 s doubling to %4 s, with jitter)")
                       .arg(m_peer, reason, QString::number(double(RetryDelay::FirstMs) / 1000.0),
                           QString::number(RetryDelay::MaxMs / 1000));
        } else if (reason != m_problem && m_lastLine.elapsed() >= ReminderMs) {
            line = QStringLiteral("%1 still unavailable after %2 s, now: %3")
                       .arg(m_peer, QString::number(double(m_since.elapsed()) / 1000.0, 'f', 1), reason);
        }
        m_up = false;
        m_problem = reason;
        if (line.isEmpty())
            return;
        m_lastLine.start();
    }
    m_log(QtWarningMsg, line);
}

void OutageTracker::reportUp()
{
    qint64 outageMs = 0;
    {
        std::lock_guard lock(m_mutex);
        if (m_up)
            return;
        m_up = true;
        m_recoveredAt = std::chrono::steady_clock::now();
        m_problem.clear();
        outageMs = m_since.elapsed();
    }
    m_log(QtInfoMsg,
        QStringLiteral("%1 available again after %2 s")
            .arg(m_peer, QString::number(double(outageMs) / 1000.0, 'f', 1)));
}

bool OutageTracker::isUp() const
{
    std::lock_guard lock(m_mutex);
    return m_up;
}

QString OutageTracker::problem() const
{
    std::lock_guard lock(m_mutex);
    return m_problem;
}

bool OutageTracker::recoveredSince(std::chrono::steady_clock::time_point instant) const
{
    std::lock_guard lock(m_mutex);
    return m_recoveredAt && *m_recoveredAt > instant;
}

bool OutageTracker::wentDownAfter(std::chrono::steady_clock::time_point instant) const
{
    std::lock_guard lock(m_mutex);
    return !m_up && m_downAt > instant;
}

qint64 OutageTracker::downForMs() const
{
    std::lock_guard lock(m_mutex);
    return m_up ? 0 : m_since.elapsed();
}
