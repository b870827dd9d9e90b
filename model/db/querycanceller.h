// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <mutex>

class DbSession;
struct pg_cancel;

// Cancels the statement a session is running, from any thread: an operator's Cancel on a search that takes too
// long. The statement fails with SQLSTATE 57014 and the session stays usable. One canceller follows a worker's
// connection across reconnects (target()).
class QueryCanceller final {
public:
    QueryCanceller() = default;
    ~QueryCanceller();
    QueryCanceller(const QueryCanceller&) = delete;
    QueryCanceller& operator=(const QueryCanceller&) = delete;

    // Aims at whatever `session` runs from now on (nullptr: nothing). Called by the session's own thread.
    void target(DbSession* session);

    // Asks the server to cancel the statement running now, if any. Opens a short connection of its own to the
    // server, so it blocks for a round trip: never call it on the GUI thread. An empty string when the request
    // was sent (whether or not a statement was running), else why it could not be.
    QString cancel();

private:
    std::mutex m_mutex;
    pg_cancel* m_handle = nullptr;
};
