// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
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
    void showRestored();
    // Hidden at once, nothing lost any more: a new connection (to this server or another) replaces the old.
    void dismiss();

private:
    void showWarning(const QString& text);
    QString lostSince() const;

    QDateTime m_lostAt; // invalid unless the connection is lost
    QTimer* m_hideRestored; // "Reconnected." stays a moment
};
