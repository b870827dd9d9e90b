// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QMap>
#include <QMutex>
#include <QString>

class DbSession;

// What a relay's workers did, per second and event type: rows published, failed attempts, and of those the ones
// that left their row dead. The relay's supervisor calls flush() about once a second; it adds the seconds that have
// ended to outbox_throughput_seconds (migration 0020), the console's live view. Recording is a mutex-protected
// addition. A crash loses at most the seconds not yet added. Thread-safe.
class ThroughputRecorder final {
    Q_DISABLE_COPY_MOVE(ThroughputRecorder)
public:
    struct Counts {
        int published = 0;
        int failed = 0;
        int dead = 0;

        void add(const Counts& other)
        {
            published += other.published;
            failed += other.failed;
            dead += other.dead;
        }
    };

    ThroughputRecorder() = default;

    // Adds to the current second's counts of `eventType` (by this machine's clock).
    void record(const QString& eventType, const Counts& counts);

    // Which seconds flush() adds: those that ended, or also the current one (the relay stops: it counts no more).
    enum class Seconds { Ended, All };

    // In one transaction: adds `which` seconds, stamped by the database's clock, records in relay_nodes that relay
    // `relayId` has counted every second before now (0: not registered yet, no record), and deletes seconds older
    // than the window. Also with nothing to add, so that the console knows this relay's seconds are complete. On
    // failure the counts are kept for the next flush and the OutboxError is rethrown.
    void flush(DbSession& session, qint64 relayId, Seconds which = Seconds::Ended);

private:
    QMutex m_mutex;
    QMap<qint64, QHash<QString, Counts>> m_pending; // epoch second (this machine's clock) -> event type -> counts
};
