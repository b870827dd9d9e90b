// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/leaseprotocol.h"

#include <QList>
#include <map>
#include <mutex>

class DbSession;

// The lease heartbeat: the leases of the batches a relay's workers are publishing right now, extended well
// before they run out by one statement on the relay's own connection. So a lease can stay short (it is how
// long a crashed worker's rows wait for rescue) while a slow broker takes longer than that to confirm. A relay
// that loses its database cannot extend either, and its leases run out as they should. Thread-safe.
class LeaseKeeper final {
    Q_DISABLE_COPY_MOVE(LeaseKeeper)
public:
    LeaseKeeper() = default;

    // Keeps a batch's leases extended while it lives: from the claim to the completion.
    class Hold final {
    public:
        Hold() = default;
        Hold(LeaseKeeper* keeper, quint64 ticket);
        Hold(Hold&& other) noexcept;
        Hold& operator=(Hold&& other) noexcept;
        Hold(const Hold&) = delete;
        Hold& operator=(const Hold&) = delete;
        ~Hold();

    private:
        LeaseKeeper* m_keeper = nullptr;
        quint64 m_ticket = 0;
    };

    Hold hold(const QList<LeaseFence>& fences);

    // Extends every held lease to `leaseMs` from now, fenced by its token (a lease rescued meanwhile stays
    // lost). Returns how many rows it extended. Throws OutboxError.
    int extend(DbSession& session, qint64 leaseMs);

private:
    void release(quint64 ticket);

    std::mutex m_mutex;
    quint64 m_lastTicket = 0;
    std::map<quint64, QList<LeaseFence>> m_held;
};
