// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/metricsrepository.h"

#include <QDateTime>
#include <QList>
#include <QString>

class DbSession;

// The relays' seconds (outbox_throughput_seconds, migration 0020): written by ThroughputRecorder, read by the
// console's live view and `outboxctl event-types --per-second`.
class ThroughputRepository final {
public:
    // How long seconds are kept, and so the longest window lastSeconds() can show.
    static constexpr int KeptSeconds = 900;

    struct AddedSecond {
        qint64 age = 0; // seconds between this second's start and the start of the one the relay is in now
        QString eventType;
        int published = 0;
        int failed = 0;
        int dead = 0;
    };

    // The last seconds as a chart reads them: one point per second (the counters published, failedAttempts and
    // deadLetters), and up to when they are complete.
    struct Window {
        QList<MetricPoint> points;
        QDateTime serverNow;
        // Every second before it was counted by every running relay; a second after it may still grow. Invalid
        // when no relay runs, or when one has not said how far it counted (registered before schema 20).
        QDateTime countedUntil;
        int runningRelays = 0;

        // The instant up to which the seconds are as complete as they will be: those that had ended when the window
        // was read and every running relay had counted (with none running, all that had ended; with one that does
        // not say, none: the first point's start).
        QDateTime completeUntil() const;
    };

    // Whether `point`'s second of `window` ended by window.completeUntil().
    static bool isComplete(const Window& window, const MetricPoint& point);

    explicit ThroughputRepository(DbSession& session);

    // Adds `seconds` to the rows of their second and event type, stamped by the database's clock.
    void add(const QList<AddedSecond>& seconds);
    // Relay `relayId` has added every second before the current one (by the database's clock).
    void markCounted(qint64 relayId);
    // Deletes seconds older than KeptSeconds, a bounded batch, skipping rows another relay is deleting.
    void expire();

    // The last `seconds` seconds (at most KeptSeconds), the current one included; of `eventType` only unless it is
    // empty. Seconds without counts are points of zero.
    Window lastSeconds(int seconds, const QString& eventType);

private:
    DbSession& m_session;
};
