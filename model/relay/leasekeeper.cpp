// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/leasekeeper.h"

#include "relay/outboxleaserepository.h"

LeaseKeeper::Hold::Hold(LeaseKeeper* keeper, quint64 ticket)
    : m_keeper(keeper)
    , m_ticket(ticket)
{ }

LeaseKeeper::Hold::Hold(Hold&& other) noexcept
    : m_keeper(std::exchange(other.m_keeper, nullptr))
    , m_ticket(other.m_ticket)
{ }

LeaseKeeper::Hold& LeaseKeeper::Hold::operator=(Hold&& other) noexcept
{
    if (this != &other) {
        if (m_keeper)
            m_keeper->release(m_ticket);
        m_keeper = std::exchange(other.m_keeper, nullptr);
        m_ticket = other.m_ticket;
    }
    return *this;
}

LeaseKeeper::Hold::~Hold()
{
    if (m_keeper)
        m_keeper->release(m_ticket);
}

LeaseKeeper::Hold LeaseKeeper::hold(const QList<LeaseFence>& fences)
{
    std::lock_guard lock(m_mutex);
    const quint64 ticket = ++m_lastTicket;
    m_held.emplace(ticket, fences);
    return Hold(this, ticket);
}

void LeaseKeeper::release(quint64 ticket)
{
    std::lock_guard lock(m_mutex);
    m_held.erase(ticket);
}

int LeaseKeeper::extend(DbSession& session, qint64 leaseMs)
{
    QList<LeaseFence> fences;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [ticket, held] : m_held)
            fences += held;
    }
    return OutboxLeaseRepository(session).extendLeases(fences, leaseMs);
}
