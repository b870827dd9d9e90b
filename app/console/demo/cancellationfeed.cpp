// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/cancellationfeed.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/sessionpool.h"

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
    SessionPool::Connection connection(m_settings, QStringLiteral("demo-cancellations"));
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_for(lock, std::chrono::milliseconds(m_intervalMs), [this] { return m_stopping; })) {
        lock.unlock();
        try {
            connection.session().exec(QStringLiteral("SELECT outbox_enqueue('order', o.id::text, 'order.cancelled', "
                                                     "  jsonb_build_object('id', o.id, 'customer', o.customer), '{}', "
                                                     "  'order.cancelled:' || o.id) "
                                                     "FROM orders o WHERE NOT EXISTS (SELECT FROM outbox x "
                                                     "  WHERE x.dedupe_key = 'order.cancelled:' || o.id) "
                                                     "ORDER BY o.id DESC LIMIT 1"),
                {}, QStringLiteral("cancelling an order"));
        } catch (const OutboxError&) {
            // The database is away (the Demo menu restarts it): the connection is reopened next time.
        }
        lock.lock();
    }
}
