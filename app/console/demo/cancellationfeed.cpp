// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/cancellationfeed.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"

#include <memory>

CancellationFeed::CancellationFeed(ConnectionSettings settings, int intervalMs)
    : m_settings(std::move(settings))
    , m_intervalMs(intervalMs)
    , m_thread([this] { run(); })
{ }

CancellationFeed::~CancellationFeed()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void CancellationFeed::run()
{
    std::unique_ptr<DbSession> session;
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_for(lock, std::chrono::milliseconds(m_intervalMs), [this] { return m_stopping; })) {
        lock.unlock();
        try {
            if (!session || session->isBroken())
                session = std::make_unique<DbSession>(m_settings, QStringLiteral("demo-cancellations"));
            session->exec(QStringLiteral("SELECT outbox_enqueue('order', o.id::text, 'order.cancelled', "
                                         "  jsonb_build_object('id', o.id, 'customer', o.customer), '{}', "
                                         "  'order.cancelled:' || o.id) "
                                         "FROM orders o WHERE NOT EXISTS (SELECT FROM outbox x "
                                         "  WHERE x.dedupe_key = 'order.cancelled:' || o.id) "
                                         "ORDER BY o.id DESC LIMIT 1"),
                {}, QStringLiteral("cancelling an order"));
        } catch (const OutboxError&) {
            session.reset(); // the database is away (the Demo menu restarts it): try again next time
        }
        lock.lock();
    }
}
