// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"

#include <QString>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

// Rows that keep arriving while a test injects its faults, from a thread of its own (with its own session): every
// `tick`, `rowsPerTick` order.created rows with dedupe keys `keyPrefix`1, 2, … until stop() or destruction, or until
// `limit` rows are written if it is not 0.
class RowWriter final {
    Q_DISABLE_COPY_MOVE(RowWriter)
public:
    RowWriter(const ConnectionSettings& settings, const QString& keyPrefix, int rowsPerTick,
        std::chrono::milliseconds tick, qint64 limit = 0)
        : m_limit(limit)
        , m_thread([this, settings, keyPrefix, rowsPerTick, tick] { write(settings, keyPrefix, rowsPerTick, tick); })
    { }

    ~RowWriter() { stop(); }

    // Stops writing and returns how many rows were written.
    qint64 stop()
    {
        m_writing = false;
        if (m_thread.joinable())
            m_thread.join();
        return m_written.load();
    }

    qint64 written() const { return m_written.load(); }
    // Why writing stopped early; empty if it did not. Read after stop().
    const QString& problem() const { return m_problem; }

private:
    void write(
        const ConnectionSettings& settings, const QString& keyPrefix, int rowsPerTick, std::chrono::milliseconds tick)
    {
        try {
            DbSession session(settings, QStringLiteral("row-writer"));
            while (m_writing.load() && (m_limit == 0 || m_written.load() < m_limit)) {
                const qint64 first = m_written.load() + 1;
                const qint64 last = m_limit == 0 ? first + rowsPerTick - 1 : std::min(first + rowsPerTick - 1, m_limit);
                session.exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, "
                                            "dedupe_key) SELECT 'order', g::text, 'order.created', "
                                            "jsonb_build_object('id', g), ? || g "
                                            "FROM generate_series(?::bigint, ?::bigint) g"),
                    { keyPrefix, first, last }, QStringLiteral("writing rows"));
                m_written.store(last);
                std::this_thread::sleep_for(tick); // the pace of the load, not a wait
            }
        } catch (const OutboxError& error) {
            m_problem = error.message();
        }
    }

    const qint64 m_limit;
    std::atomic<bool> m_writing { true };
    std::atomic<qint64> m_written { 0 };
    QString m_problem;
    std::thread m_thread; // last: started once the rest is there
};
