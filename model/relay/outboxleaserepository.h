// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxmessage.h"
#include "relay/leaseprotocol.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

class DbSession;

// The relay's lease protocol on the outbox, through the SQL functions that carry it for a relay in any language
// (05_relay.sql, docs/sql-api.md "Writing a relay"). Claims and completions are batch statements (one round trip
// per batch); every completion carries the fencing token of its claim, so a worker whose lease was taken over
// cannot overwrite the new owner's result.
class OutboxLeaseRepository final {
public:
    // The claim (relay, worker, batch size, lease in ms) and the fenced completion (the ids, then their tokens, as
    // array literals), as the relay sends them, '?' placeholders: outbox-bench runs them through raw libpq as the
    // relay's own limit.
    static const QString ClaimSql;
    static const QString CompleteSql;

    explicit OutboxLeaseRepository(DbSession& session);

    struct Claim {
        QList<OutboxMessage> messages; // ordered by id
        std::optional<RelayPause> relayPause; // set when the relay's name is paused: nothing was claimed
    };
    // pending/failed and due -> in_flight, leased to `worker` of relay `relay` for `leaseMs`, SKIP LOCKED; a keyed
    // row only with (or after) every older row of its key; none of a paused event type, and none at all while
    // `relay` is paused. Rows it meets behind an older row of their key, or of a paused event type, it parks
    // (waiting, paused) and claims past them.
    Claim claimDue(const QString& relay, const QString& worker, int batchSize, qint64 leaseMs);

    // How long until the earliest pending or failed row is due: 0 if one is due now, nullopt if none waits.
    std::optional<qint64> msUntilNextDue();

    // in_flight (this lease) -> published, and the rows parked behind them let go. Returns the rows that actually
    // changed.
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
