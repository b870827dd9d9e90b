-- SPDX-License-Identifier: GPL-3.0-or-later
-- Run by `outboxctl migrate` before migration 0021, outside its transaction, one step at a time (each step is its
-- own transaction, and each is harmless to repeat: a migration killed midway simply starts again).
--
-- Migration 0021 makes the existing outbox table the first partition of a partitioned outbox, for ids below a bound.
-- Attaching a table as a partition reads every row to prove its ids lie below that bound, and it would do so under
-- the exclusive lock of the switch: minutes at 10 M rows with every writer waiting. A validated CHECK constraint
-- that already says so lets PostgreSQL skip that read. Adding it NOT VALID takes the lock for an instant, and
-- validating it reads the table while writers go on (SHARE UPDATE EXCLUSIVE).
--
-- The bound is a billion ids above the last one drawn, so that writers never reach it before the switch: migrate
-- promptly after this step (`outboxctl migrate` does both in one run).
-- step
DO $$
BEGIN
    IF to_regclass('outbox') IS NULL
       OR EXISTS (SELECT FROM pg_partitioned_table WHERE partrelid = 'outbox'::regclass)
       OR EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_legacy_range')
    THEN
        RETURN;
    END IF;
    -- Writers queue behind the lock request: it waits just past deadlock_timeout (after which an autovacuum in the
    -- way cancels itself), and the migration stops with lock_not_available if a longer transaction holds the
    -- table: run it again.
    PERFORM set_config('lock_timeout',
        (extract(epoch FROM current_setting('deadlock_timeout')::interval) * 1000 + 200)::bigint || 'ms', true);
    EXECUTE format('ALTER TABLE outbox ADD CONSTRAINT outbox_legacy_range CHECK (id < %s) NOT VALID',
                   (SELECT last_value FROM outbox_id_seq) + 1000000000);
END
$$;
-- step
DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_constraint
               WHERE conrelid = to_regclass('outbox') AND conname = 'outbox_legacy_range' AND NOT convalidated)
    THEN
        ALTER TABLE outbox VALIDATE CONSTRAINT outbox_legacy_range;
    END IF;
END
$$;
