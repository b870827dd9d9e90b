// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/outboxstatus.h"

#include <QList>
#include <optional>

class DbSession;

// Where the rows of the log (stored status NULL) in each state lie by id, read once for a list of them by state
// (outboxStatusBranches()) and bound into its statement as values: the planner then knows how many rows each bound
// leaves (a bound read inside the statement is unknown to it, and it sorted a whole backlog instead of walking it in
// order: 2.6 s for a page 50 pages deep in a backlog of 300,000), and each is read once however many branches use
// it. Read in the list's snapshot: a writer committing between the two statements could otherwise leave a row below
// a floor read before it.
struct OutboxLogBounds {
    // outbox_log_floor(firstId): the lowest id not yet published, from firstId on; none when every row is.
    std::optional<qint64> floor;
    // outbox_log_published_through(): no published row of the log has a higher id.
    qint64 publishedThrough = 0;
    // The ids the lanes have leased lie in [leasedFrom, leasedThrough]; none when no lane is leased.
    std::optional<qint64> leasedFrom;
    std::optional<qint64> leasedThrough;
    // Whether read() filled them; a list that asks for all three states of the log, or none, uses none of them.
    bool read = false;

    // Whether branches for `statuses` need the bounds: some of the log's three states but not all of them, or any of
    // them when each status gets a branch of its own (`eachStatusApart`).
    static bool neededFor(const QList<OutboxStatus>& statuses, bool eachStatusApart);
    // Reads them in the session's transaction; `firstId`: the list reads no row with a lower id.
    static OutboxLogBounds readFrom(DbSession& session, std::optional<qint64> firstId);
};
