-- SPDX-License-Identifier: GPL-3.0-or-later
-- Retention without a pause for writers. outbox_detach_partition() takes the outbox's ACCESS EXCLUSIVE lock to
-- detach: every writer queues behind its lock request (0.13-0.19 s with a relay and four creating clients; creates
-- -17, -7, +3 and +2 % over its span in four runs, against the seconds around it). ALTER TABLE ... DETACH PARTITION
-- ... CONCURRENTLY takes SHARE UPDATE EXCLUSIVE, which writers do not conflict with (15-36 ms; -4 and +3 %), but it
-- cannot run in a function or a transaction block, so the caller runs it:
--
--   outbox_begin_detach(partition, cutoff)  returns the statement to run next (outside a transaction), or NULL;
--                                           call it again until it returns NULL;
--   outbox_end_detach(cutoff)               records what the statements took out, as outbox_detach_partition() does.
--
-- A partition that holds rows to keep (not published before the cutoff) still goes through
-- outbox_detach_partition(): its rows must stay visible to the relay while they move. Counting a detached table's rows
-- in one statement also held the writers back (a 1 M-row count: creates -14 % in its second); outbox_count_detached()
-- counts it a chunk at a time, so that a purge can rest between chunks, and outbox_drop_detached_table() counts only
-- what is left.

-- One purge at a time: two purges' statements would race (a FINALIZE of the other's detach makes it fail). A
-- session-level lock, so that it goes with the session of a purge that died.
CREATE FUNCTION outbox_lock_partition_maintenance() RETURNS void
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    SELECT pg_advisory_lock('outbox_partitions'::regclass::oid::integer, 23);
END;

CREATE FUNCTION outbox_unlock_partition_maintenance() RETURNS boolean
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    SELECT pg_advisory_unlock('outbox_partitions'::regclass::oid::integer, 23);
END;

ALTER TABLE outbox_detached_partitions
    ADD COLUMN rows_counted    bigint  NOT NULL DEFAULT 0,
    -- The highest id counted so far (NULL: none); the count goes on above it.
    ADD COLUMN counted_through bigint,
    ADD COLUMN counting_done   boolean NOT NULL DEFAULT false;

-- The rows of a partition to keep when it goes: not published, or published at or after $1. Written so that the
-- (status, id) and published_at indexes find them without reading the other rows.
CREATE FUNCTION outbox_kept_rows_condition() RETURNS text
    LANGUAGE sql IMMUTABLE
BEGIN ATOMIC
    SELECT '(status < ''published'' OR status > ''published'' OR (status = ''published'' AND published_at >= $1))';
END;

-- Records the closed partition `part`, just detached from the outbox, as a detached table; the rows of it to keep
-- (see above) go back into the outbox in a new table for the same range first, and are not counted as dropped.
CREATE FUNCTION outbox_record_detached(part outbox_partitions, cutoff timestamptz) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    detached text := 'outbox_detached_' || coalesce(part.lower_id::text, 'min') || '_'
                     || to_char(now(), 'YYYYMMDDHH24MISSUS');
    replacement text;
    kept bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM %I WHERE %s', part.name, outbox_kept_rows_condition()) USING cutoff INTO kept;
    IF kept > 0 THEN
        replacement := left(part.name, 50) || '_kept';
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING ALL)', replacement, part.name);
        EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE %s', replacement, part.name, outbox_kept_rows_condition())
            USING cutoff;
        EXECUTE format('DELETE FROM %I WHERE %s', part.name, outbox_kept_rows_condition()) USING cutoff;
    END IF;
    EXECUTE format('ALTER TABLE %I RENAME TO %I', part.name, detached);
    INSERT INTO outbox_detached_partitions (name, lower_id, upper_id) VALUES (detached, part.lower_id, part.upper_id);
    IF kept > 0 THEN
        EXECUTE format('ALTER TABLE %I RENAME TO %I', replacement, part.name);
        EXECUTE format('ALTER TABLE outbox ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', part.name,
                       coalesce(part.lower_id::text, 'MINVALUE'), part.upper_id);
    ELSE
        DELETE FROM outbox_partitions WHERE name = part.name;
    END IF;
END
$$;

-- The one-statement detach of migration 0021 (exclusive lock), on the shared steps above.
CREATE OR REPLACE FUNCTION outbox_detach_partition(partition text, cutoff timestamptz) RETURNS boolean
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    part outbox_partitions;
    droppable boolean;
BEGIN
    SELECT * INTO part FROM outbox_partitions WHERE name = partition AND upper_id IS NOT NULL;
    IF NOT FOUND THEN
        RAISE invalid_parameter_value USING MESSAGE = format('%s is not a closed partition of outbox', partition);
    END IF;
    -- Nothing published before the cutoff (a partition kept for its stragglers, or too young): nothing to do, and
    -- no lock taken.
    EXECUTE format('SELECT EXISTS (SELECT FROM %I WHERE status = ''published'' AND published_at < $1)', part.name)
        USING cutoff INTO droppable;
    IF NOT droppable THEN
        RETURN false;
    END IF;
    PERFORM outbox_lock_briefly(ARRAY['outbox', part.name], 'ACCESS EXCLUSIVE');
    PERFORM FROM outbox_partitions WHERE name = part.name FOR UPDATE;
    EXECUTE format('ALTER TABLE outbox DETACH PARTITION %I', part.name);
    PERFORM outbox_record_detached(part, cutoff);
    RETURN true;
END
$$;

-- The statement that takes the closed partition `partition` out of the outbox, to run outside a transaction, or NULL
-- when there is none to run (call it again after running one):
-- - a detach that a crash or a cancel interrupted, of this partition or another (only one can be pending), is
--   finished first (... DETACH PARTITION ... FINALIZE);
-- - nothing published before `cutoff`, or already detached: NULL;
-- - rows to keep: the partition goes here, through outbox_detach_partition() (its exclusive lock keeps the rows
--   visible while they move), and NULL;
-- - otherwise ... DETACH PARTITION ... CONCURRENTLY: writers go on meanwhile. A row that changes between this call
--   and that statement (an operator's replay) is found by outbox_end_detach() and put back.
CREATE FUNCTION outbox_begin_detach(partition text, cutoff timestamptz) RETURNS text
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    pending text;
    droppable boolean;
    keeps boolean;
BEGIN
    SELECT i.inhrelid::regclass::text INTO pending FROM pg_inherits i
    WHERE i.inhparent = 'outbox'::regclass AND i.inhdetachpending;
    IF pending IS NOT NULL THEN
        RETURN format('ALTER TABLE outbox DETACH PARTITION %s FINALIZE', pending);
    END IF;
    IF NOT EXISTS (SELECT FROM outbox_partitions p WHERE p.name = partition AND p.upper_id IS NOT NULL) THEN
        RAISE invalid_parameter_value USING MESSAGE = format('%s is not a closed partition of outbox', partition);
    END IF;
    IF NOT EXISTS (SELECT FROM pg_inherits i
                   WHERE i.inhparent = 'outbox'::regclass AND i.inhrelid = format('%I', partition)::regclass) THEN
        RETURN NULL;
    END IF;
    EXECUTE format('SELECT EXISTS (SELECT FROM %I WHERE status = ''published'' AND published_at < $1)', partition)
        USING cutoff INTO droppable;
    IF NOT droppable THEN
        RETURN NULL;
    END IF;
    EXECUTE format('SELECT EXISTS (SELECT FROM %I WHERE %s)', partition, outbox_kept_rows_condition())
        USING cutoff INTO keeps;
    IF keeps THEN
        PERFORM outbox_detach_partition(partition, cutoff);
        RETURN NULL;
    END IF;
    RETURN format('ALTER TABLE outbox DETACH PARTITION %I CONCURRENTLY', partition);
END
$$;

-- Records every closed partition that a statement of outbox_begin_detach() took out of the outbox (it is no longer
-- one of its partitions) as outbox_detach_partition() would have; rows of it to keep under `cutoff` go back into the
-- outbox. Returns how many it recorded.
CREATE FUNCTION outbox_end_detach(cutoff timestamptz) RETURNS integer
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    part outbox_partitions;
    recorded integer := 0;
BEGIN
    FOR part IN
        SELECT p.* FROM outbox_partitions p
        WHERE p.upper_id IS NOT NULL
          AND NOT EXISTS (SELECT FROM pg_inherits i
                          WHERE i.inhparent = 'outbox'::regclass AND i.inhrelid = format('%I', p.name)::regclass)
        FOR UPDATE
    LOOP
        PERFORM outbox_record_detached(part, cutoff);
        recorded := recorded + 1;
    END LOOP;
    RETURN recorded;
END
$$;

-- Counts up to `chunk` more rows of the detached table `detached` (in id order, through its primary key while it
-- has one) and adds them to its entry; returns whether rows are left to count. False also when the table is gone.
CREATE FUNCTION outbox_count_detached(detached text, chunk integer DEFAULT 100000) RETURNS boolean
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    entry outbox_detached_partitions;
    counted bigint;
    highest bigint;
BEGIN
    SELECT * INTO entry FROM outbox_detached_partitions WHERE name = detached FOR UPDATE;
    IF NOT FOUND OR entry.counting_done THEN
        RETURN false;
    END IF;
    EXECUTE format('SELECT count(*), max(id) FROM (SELECT id FROM %I WHERE id > $1 ORDER BY id LIMIT $2) c', detached)
        USING coalesce(entry.counted_through, '-9223372036854775808'::bigint), chunk INTO counted, highest;
    UPDATE outbox_detached_partitions
    SET rows_counted = rows_counted + counted,
        counted_through = coalesce(highest, counted_through),
        counting_done = counted < chunk
    WHERE name = detached;
    RETURN counted = chunk;
END
$$;

-- As in migration 0022, counting only what outbox_count_detached() has not.
CREATE OR REPLACE FUNCTION outbox_drop_detached_table(detached text)
    RETURNS TABLE (lower_id bigint, upper_id bigint, dropped bigint, bytes bigint)
    LANGUAGE plpgsql SET search_path FROM CURRENT SET max_parallel_workers_per_gather = 0 AS $$
DECLARE
    gone outbox_detached_partitions;
    rest bigint := 0;
BEGIN
    DELETE FROM outbox_detached_partitions d WHERE d.name = detached RETURNING * INTO gone;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    lower_id := gone.lower_id;
    upper_id := gone.upper_id;
    IF NOT gone.counting_done THEN
        EXECUTE format('SELECT count(*) FROM %I WHERE id > $1', gone.name)
            USING coalesce(gone.counted_through, '-9223372036854775808'::bigint) INTO rest;
    END IF;
    dropped := gone.rows_counted + rest;
    bytes := pg_table_size(format('%I', gone.name)::regclass);
    EXECUTE format('DROP TABLE %I', gone.name);
    RETURN NEXT;
END
$$;
