// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/publishpause.h"

#include <QList>
#include <optional>

class DbSession;

// The operator's pause and resume of publication (outbox_pauses, migration 0019), shared by `outboxctl
// pause|resume|pauses` and the console's Overview. A pause or resume is one transaction with its audit entry
// (entity "pause", the pause's id; details name the scope and target), guarded by the pause's state: pausing what is
// paused, or resuming what is not, changes nothing and says so.
class PublishPauses final {
public:
    static constexpr int ParkedCountCap = 100'000;
    // Rows of a resumed type let go per statement (each its own transaction, so a long resume holds no lock for long).
    static constexpr int ReleaseBatch = 10'000;

    explicit PublishPauses(DbSession& session);

    // Every pause, relays first, then by target.
    QList<PublishPause> current();
    // The pause of `target`, if it is paused (or resumed, its parked rows still being let go).
    std::optional<PublishPause> find(PauseScope scope, const QString& target);

    // Pauses `target`. Returns the pause now in force, or nullopt when it was paused already (left as it was).
    // Throws OutboxError(InvalidInput) for a blank target or reason, and naming the role when the user may not.
    std::optional<PublishPause> pause(PauseScope scope, const QString& target, const QString& reason);

    // Resumes `target`: a relay claims again at its next poll; an event type's parked rows are let go here, in
    // batches, before this returns (a resume interrupted midway is completed by the relays' heartbeats, which may also
    // take a share of the batches). Returns how many rows of the type were parked when it was resumed, the rows let
    // go, or nullopt when `target` was not paused. Throws like pause().
    std::optional<qint64> resume(PauseScope scope, const QString& target, const QString& reason);

    // Whether `target` is known: a relay of that name in the registry, or a row of that event type in the outbox. A
    // pause of an unknown target is allowed (a relay not started yet), but the caller warns of a typo.
    bool isKnown(PauseScope scope, const QString& target);

private:
    DbSession& m_session;
};
