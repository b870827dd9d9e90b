// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxmessage.h"
#include "relay/leaseprotocol.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <optional>

class DbSession;

// The relay's lease protocol on the outbox table. Claims and completions are batch statements (one round trip
// per batch); every completion carries the fencing token of its claim, so a worker whose lease was taken over
// cannot overwrite the new owner's result.
class OutboxLeaseRepository final {
public:
    // The claim, with the live floor read just before it (LiveFloorSql) and its values in placeholder order
    // (claimBinds), and the fenced completion (a JSON array of {id, token}, then the lowest and highest id in it), as
    // the relay sends them, '?' placeholders: outbox-bench runs them through raw libpq as the relay's own limit. The
    // floor (migration 0025) is the lowest id a row not yet published can have; as a constant in the claim it keeps
    // the partitions below it out of the claim's plan, as the id range keeps the others out of the completion's.
    static const QString LiveFloorSql;
    static const QString ClaimSql;
    static QVariantList claimBinds(
        const QString& relay, qint64 liveFloor, int batchSize, const QString& worker, qint64 leaseMs);
    static const QString MarkPublishedSql;

    explicit OutboxLeaseRepository(DbSession& session);

    struct Claim {
        QList<OutboxMessage> messages; // ordered by id
        // Candidates parked: keyed ones as waiting behind an older row of their key, those of a paused event type
        // as paused.
        int parked = 0;
        std::optional<RelayPause> relayPause; // set when the relay's name is paused: nothing was claimed
    };
    // pending/failed and due -> in_flight, leased to `worker` of relay `relay` for `leaseMs`, SKIP LOCKED; a keyed
    // row only with (or after) every older row of its key; none of a paused event type, and none at all while
    // `relay` is paused. A claim that parked rows and took none may find rows again at once.
    Claim claimDue(const QString& relay, const QString& worker, int batchSize, qint64 leaseMs);

    // How long until the earliest pending or failed row is due: 0 if one is due now, nullopt if none waits.
    std::optional<qint64> msUntilNextDue();

    // in_flight (this lease) -> published. Returns the rows that actually changed.
    QList<PublishedRow> markPublished(const QList<LeaseFence>& fences);

    // in_flight (this lease) -> failed with backoff, or dead once attempts reach maxAttempts; each failure is
    // appended to outbox_attempts. Returns the rows that actually changed.
    QList<FailedRow> markFailed(const QString& worker, const QList<PublishFailure>& failures, int maxAttempts);

    // in_flight (this lease) -> pending or failed as before the claim, the claim's attempt not counted: the
    // broker could not be reached, so the messages were not at fault. Returns how many rows changed.
    int handBack(const QList<LeaseFence>& fences);

    // in_flight (this lease) -> in_flight with the lease running until `leaseMs` from now: the heartbeat of a
    // batch still being published. Returns how many rows were extended (a rescued row is not).
    int extendLeases(const QList<LeaseFence>& fences, qint64 leaseMs);

    // in_flight whose lease expired -> failed (due now), or dead once attempts reach maxAttempts.
    QList<FailedRow> rescueExpiredLeases(const QString& worker, int maxAttempts, int limit);

private:
    DbSession& m_session;
};
