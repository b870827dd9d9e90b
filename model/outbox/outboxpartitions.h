// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

class DbSession;

// One partition of the outbox (migration 0021): [lowerId, upperId); no lower id is MINVALUE (the table the outbox
// was before the migration), no upper id is the open partition, which every new row goes to.
struct OutboxPartition {
    QString name;
    std::optional<qint64> lowerId;
    std::optional<qint64> upperId;
    QDateTime openedAt;
    QDateTime closedAt;

    bool isOpen() const { return !upperId.has_value(); }
};

// The maintenance of the outbox's partitions through the SQL functions of migration 0021, which any language can
// call the same way. Retention drops partitions instead of deleting rows: nothing to vacuum, and milliseconds of
// lock whatever the partition's size. Needs a session outside any transaction (each step commits on its own) whose
// role owns the outbox (the role that migrates).
class OutboxPartitions final {
public:
    explicit OutboxPartitions(DbSession& session);

    // Oldest first; the last one is the open one.
    QList<OutboxPartition> list();

    // Closes the open partition and opens the next (CALL outbox_roll()) if the open one has rows and was opened at
    // least `ageMs` ago; finishes a roll that a crash interrupted in any case. Returns whether a partition closed.
    bool rollIfOlderThan(qint64 ageMs);

    // The lowest id a row created at or after `createdFrom` can have, from the created ranges of the closed
    // partitions (outbox_describe_partitions): a search of a created range adds `id >=` it, and PostgreSQL skips
    // the partitions below. nullopt: every partition may hold such rows.
    std::optional<qint64> firstIdCreatedFrom(const QDateTime& createdFrom);

    // Drops every closed partition whose rows were all published at least `olderThanMs` ago; a partition that also
    // holds rows that were not (dead, failed, published later) is replaced by one holding just those. Then deletes
    // the failed attempts of the rows that went, `batchSize` at a time. Returns the rows that went. One purge at a
    // time (a second waits). A partition leaves the outbox by a concurrent detach, which writers do not wait for;
    // its rows are then counted CountChunkRows at a time, its files removed one index at a time, then the table,
    // each step paced (MaintenancePace, RestPerStepWork), so that the writers' commits are not held up: six to eight
    // seconds for a partition of a million rows, next to nothing for a small one.
    qint64 dropPublished(qint64 olderThanMs, int batchSize);
    static constexpr int CountChunkRows = 100'000;
    // Measured on 2 cores under a relay and 4 creating clients, creates over a purge of a 1 M-row partition (plus a
    // second) against the 5 s around it: resting three times each step's time -14 % on average over 12 purges in
    // three runs (3.0-4.2 s each), seven times -7.6 % over 6 purges (5.8-7.8 s); spans without a purge in the same
    // runs -1.6 to +2.3 %.
    static constexpr int RestPerStepWork = 7;

private:
    // Takes `partition` out of the outbox if rows in it were published before the cutoff (outbox_begin_detach,
    // the statements it returns, outbox_end_detach).
    void detach(const QString& partition, qint64 olderThanMs);

    DbSession& m_session;
};
