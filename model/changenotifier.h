#pragma once

#include <QString>

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
};
