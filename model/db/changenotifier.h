// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <functional>

class QObject;

class DbSession;

// Tells listeners (the console) that outbox or idempotency rows changed: NOTIFY on one lowercase channel,
// coalesced to at most a few per second per process so that a busy relay or create path never floods
// the server's notification queue.
class ChangeNotifier final {
public:
    static const QString Channel; // "outbox_changed"
    static constexpr qint64 MinIntervalMs = 250;

    // Sends the notification unless this process sent one less than MinIntervalMs ago. Call it outside a
    // transaction (or after commit): a NOTIFY inside a transaction is only delivered at its commit.
    // Best effort: a failure is swallowed, since listeners also refresh on a timer.
    static void notify(DbSession& session);

    // LISTENs on `session` and calls `onChange` (in `context`'s thread) for every notification. A new session
    // after a reconnect must subscribe again: the server forgets a LISTEN with its connection.
    static void subscribe(DbSession& session, QObject* context, std::function<void()> onChange);
};
