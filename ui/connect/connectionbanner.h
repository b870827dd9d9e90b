// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QElapsedTimer>
#include <QLabel>

class QTimer;

// A strip across the top of the window while the database connection is lost: says what happened, since when,
// and that the console is reconnecting (when it tries next, once an attempt failed). Hidden while all is well.
class ConnectionBanner final : public QLabel {
    Q_OBJECT
public:
    explicit ConnectionBanner(QWidget* parent = nullptr);

    void showLost(const QString& message);
    // A reconnect attempt failed with `message`; the next starts in `nextAttemptInMs`.
    void showUnreachable(const QString& message, int nextAttemptInMs);
    // The connection is back on the server it had (or, after noteServerChanged(), on another).
    void showRestored();
    // The showRestored() of the next 30 s say that the console is on another server now (a failover), and stay
    // until then.
    void noteServerChanged(const QString& before, const QString& after);
    // Hidden at once, nothing lost any more: a new connection (to this server or another) replaces the old.
    void dismiss();

private:
    static constexpr int RestoredMs = 3'000;
    static constexpr int ServerChangedMs = 30'000;

    void showWarning(const QString& text);
    QString lostSince() const;

    QDateTime m_lostAt; // invalid unless the connection is lost
    QString m_serverChange; // what showRestored() says instead of "Reconnected." for a while
    QElapsedTimer m_serverChangedAt;
    QTimer* m_hideRestored; // "Reconnected." stays a moment
};
