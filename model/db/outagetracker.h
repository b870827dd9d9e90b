// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QString>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>

// Whether a peer of a long-running process (the database, the broker) is reachable, as all of its threads find
// it. An outage is logged once when it begins, once when it ends (with how long it lasted), and in between only
// when its reason changes (the server is back but now refuses the login, say), at most every ReminderMs: one
// story per outage in the log, however many threads and retries run into it. Thread-safe.
class OutageTracker final {
    Q_DISABLE_COPY_MOVE(OutageTracker)
public:
    using Log = std::function<void(QtMsgType, const QString&)>;
    static constexpr qint64 ReminderMs = 30'000;

    // `peer` starts the log lines ("database", "broker").
    OutageTracker(QString peer, Log log);

    void reportDown(const QString& reason);
    void reportUp();

    bool isUp() const;
    // Why the peer is down; empty while it is up.
    QString problem() const;
    // How long the current outage has lasted; 0 while the peer is up.
    qint64 downForMs() const;
    // Whether an outage ended after `instant`: a failure seen before then is old news, not a new outage (a thread
    // that failed, then spent seconds finding that a new connection fails too, while another got through).
    bool recoveredSince(std::chrono::steady_clock::time_point instant) const;
    // Whether the peer is down, in an outage that began after `instant`: a connection opened before then proves
    // nothing about it by working (it may not have noticed yet).
    bool wentDownAfter(std::chrono::steady_clock::time_point instant) const;

private:
    const QString m_peer;
    const Log m_log;
    mutable std::mutex m_mutex;
    bool m_up = true;
    std::optional<std::chrono::steady_clock::time_point> m_recoveredAt; // when the last outage ended
    std::chrono::steady_clock::time_point m_downAt; // when the current (or last) outage began
    QString m_problem;
    QElapsedTimer m_since;
    QElapsedTimer m_lastLine;
};
