-- SPDX-License-Identifier: GPL-3.0-or-later
-- The outbox's partitions over time (03_outbox.sql creates the table, its registry outbox_partitions and the first
-- partition). Rolling: outbox_roll() closes the open partition at a bound and opens the next; `outboxctl purge`
-- calls it. Retention: a closed partition whose rows were published long enough ago is taken out of the outbox
-- (detached) and then dropped, a relation at a time; `outboxctl purge --partition-age` runs these steps, and the
-- attempts of the rows gone with it follow (outbox_purge_attempts()). A partition goes only once every row of the log
-- in it was published before the cutoff (outbox_log_settled_before(), 05_relay.sql).

-- Takes `mode` on the tables `targets` alone (not their partitions: an autovacuum of another partition is no
-- obstacle), in one statement (parent first, as writers do: no deadlock, and a try that times out holds nothing),
-- without making writers wait long: writers queue behind a lock request, so each try waits briefly and then gives
-- way for a moment. The first tries wait 100 ms (a relay's or a service's transaction ends
-- sooner); later ones wait past deadlock_timeout, after which an autovacuum in the way cancels itself. Gives up
-- with lock_not_available after `attempts` tries (about a minute by default).
CREATE FUNCTION outbox_lock_briefly(targets text[], mode text, attempts integer DEFAULT 60) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    saved text := current_setting('lock_timeout');
    patient text := (extract(epoch FROM current_setting('deadlock_timeout')::interval) * 1000 + 200)::bigint || 'ms';
    statement text := format('LOCK TABLE %s IN %s MODE',
                             (SELECT string_agg('ONLY ' || quote_ident(t), ', ') FROM unnest(targets) t), mode);
BEGIN
    FOR attempt IN 1..attempts LOOP
        PERFORM set_config('lock_timeout', CASE WHEN attempt <= 5 THEN '100ms' ELSE patient END, true);
        BEGIN
            EXECUTE statement;
            PERFORM set_config('lock_timeout', saved, true);
            RETURN;
        EXCEPTION WHEN lock_not_available THEN
            IF attempt = attempts THEN
                RAISE lock_not_available USING
                    MESSAGE = format('%s stayed locked by other sessions for %s tries; see pg_locks',
                                     array_to_string(targets, ', '), attempts);
            END IF;
        END;
        PERFORM pg_sleep(0.1);
    END LOOP;
END
$$;

-- Closing the open partition at a bound and opening the next, in steps that each take a short lock (see
-- outbox_roll()). Step 1: a CHECK that no id of the open partition reaches the bound, NOT VALID (an instant's lock).
CREATE FUNCTION outbox_roll_prepare(margin bigint DEFAULT 1000000000) RETURNS bigint
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    open outbox_partitions;
    bound bigint;
BEGIN
    SELECT * INTO STRICT open FROM outbox_partitions WHERE upper_id IS NULL FOR UPDATE;
    IF open.closing_at_id IS NOT NULL THEN
        RETURN open.closing_at_id;
    END IF;
    PERFORM outbox_lock_briefly(ARRAY[open.name], 'ACCESS EXCLUSIVE');
    bound := greatest(open.lower_id, (SELECT last_value FROM outbox_id_seq)) + margin;
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (id < %s) NOT VALID', open.name, open.name || '_closing',
                   bound);
    UPDATE outbox_partitions SET closing_at_id = bound WHERE name = open.name;
    RETURN bound;
END
$$;

-- Step 2: validating that CHECK reads the open partition while writers go on.
CREATE FUNCTION outbox_roll_validate() RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    open outbox_partitions;
BEGIN
    SELECT * INTO STRICT open FROM outbox_partitions WHERE upper_id IS NULL AND closing_at_id IS NOT NULL;
    EXECUTE format('ALTER TABLE %I VALIDATE CONSTRAINT %I', open.name, open.name || '_closing');
END
$$;

-- Step 3, under the exclusive lock for a few milliseconds: the open partition becomes [lower, bound), and
-- [bound, MAXVALUE) opens. The ids drawn until step 4 still fall below the bound, into the closed partition.
CREATE FUNCTION outbox_roll_switch() RETURNS text
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    open outbox_partitions;
    opened text;
BEGIN
    SELECT * INTO STRICT open FROM outbox_partitions WHERE upper_id IS NULL AND closing_at_id IS NOT NULL FOR UPDATE;
    PERFORM outbox_lock_briefly(ARRAY['outbox', open.name], 'ACCESS EXCLUSIVE');
    EXECUTE format('ALTER TABLE outbox DETACH PARTITION %I', open.name);
    EXECUTE format('ALTER TABLE outbox ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', open.name,
                   coalesce(open.lower_id::text, 'MINVALUE'), open.closing_at_id);
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', open.name, open.name || '_closing');
    UPDATE outbox_partitions SET upper_id = closing_at_id, closing_at_id = NULL, closed_at = now()
    WHERE name = open.name;
    opened := outbox_open_partition(open.closing_at_id);
    PERFORM outbox_define_dedupe_window();
    RETURN opened;
END
$$;

-- Step 4: the sequence moves to the open partition once every writer that drew an id below the bound is done
-- (SHARE mode waits for them and holds new ones for the instant of setval). Done separately from step 3 so that a
-- crash between them leaves writers writing (into the closed partition) rather than failing the open one's CHECK;
-- outbox_roll() repeats it whenever it finds the sequence behind.
CREATE FUNCTION outbox_roll_advance() RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    lower bigint;
BEGIN
    SELECT lower_id INTO STRICT lower FROM outbox_partitions WHERE upper_id IS NULL;
    IF (SELECT last_value FROM outbox_id_seq) < lower THEN
        PERFORM outbox_lock_briefly(ARRAY['outbox'], 'SHARE');
        IF (SELECT last_value FROM outbox_id_seq) < lower THEN
            PERFORM setval('outbox_id_seq', lower, false);
        END IF;
    END IF;
END
$$;

-- Step 5: the created range of each closed partition not yet described, read through (status, created_at, id):
-- for each status (found by a skip scan) its first and last entry. Milliseconds, whatever the partition's size.
CREATE FUNCTION outbox_describe_partitions() RETURNS integer
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    part outbox_partitions;
    described integer := 0;
BEGIN
    -- Only partitions whose roll has ended (step 4): before, new rows still go to the one just closed.
    FOR part IN SELECT * FROM outbox_partitions WHERE upper_id IS NOT NULL AND min_created_at IS NULL
                  AND upper_id <= (SELECT last_value FROM outbox_id_seq) LOOP
        EXECUTE format(
            'WITH RECURSIVE s AS (SELECT min(status) AS status FROM %1$I '
            '  UNION ALL SELECT (SELECT min(p.status) FROM %1$I p WHERE p.status > s.status) FROM s '
            '  WHERE s.status IS NOT NULL) '
            'SELECT min(r.first), max(r.last) FROM s, LATERAL (SELECT '
            '  (SELECT min(p.created_at) FROM %1$I p WHERE p.status = s.status) AS first, '
            '  (SELECT max(p.created_at) FROM %1$I p WHERE p.status = s.status) AS last) r '
            'WHERE s.status IS NOT NULL', part.name)
        INTO part.min_created_at, part.max_created_at;
        -- An empty partition: nothing in it can match any range.
        UPDATE outbox_partitions
        SET min_created_at = coalesce(part.min_created_at, 'infinity'),
            max_created_at = coalesce(part.max_created_at, '-infinity')
        WHERE name = part.name;
        described := described + 1;
    END LOOP;
    RETURN described;
END
$$;

-- Closes the open partition and opens the next, each step its own transaction. Call it outside a transaction
-- block; repeating it after a crash finishes what a previous call started, then rolls again only if the open
-- partition has rows. Returns the name of the open partition.
CREATE PROCEDURE outbox_roll(INOUT opened text DEFAULT NULL)
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM outbox_roll_advance();
    COMMIT;
    IF NOT EXISTS (SELECT FROM outbox_partitions WHERE upper_id IS NULL AND closing_at_id IS NOT NULL) THEN
        -- The open partition's rows: one index entry is enough to say there are some.
        IF NOT EXISTS (SELECT FROM outbox o
                       WHERE o.id >= (SELECT lower_id FROM outbox_partitions WHERE upper_id IS NULL)) THEN
            SELECT name INTO opened FROM outbox_partitions WHERE upper_id IS NULL;
            RETURN;
        END IF;
        PERFORM outbox_roll_prepare();
        COMMIT;
    END IF;
    PERFORM outbox_roll_validate();
    COMMIT;
    opened := outbox_roll_switch();
    COMMIT;
    PERFORM outbox_roll_advance();
    COMMIT;
    PERFORM outbox_describe_partitions();
    COMMIT;
END
$$;

-- Retention in steps, so that no lock on the outbox that writers wait for lasts more than milliseconds: dropping a
-- table of gigabytes takes seconds (its files are removed at commit, and the locks are held until then), and
-- counting its rows too. A closed partition is first taken out of the outbox and recorded here: by
-- outbox_begin_detach() and outbox_end_detach() (DETACH PARTITION ... CONCURRENTLY, which writers go on through) or
-- by outbox_detach_partition() (under the exclusive lock). Then outbox_count_detached() counts it a chunk at a time
-- and outbox_drop_detached_index() and outbox_drop_detached_table() drop it a relation at a time, each step its own
-- transaction, holding no lock anyone else wants; outbox_drop_detached() does the same in one call. A crash between
-- any two steps leaves a detached table that the next purge finishes and counts exactly.
CREATE TABLE outbox_detached_partitions (
    name            text        PRIMARY KEY,
    lower_id        bigint,
    upper_id        bigint      NOT NULL,
    detached_at     timestamptz NOT NULL DEFAULT now(),
    -- The rows outbox_count_detached() counted so far.
    rows_counted    bigint      NOT NULL DEFAULT 0,
    -- The highest id counted so far (NULL: none); the count goes on above it.
    counted_through bigint,
    counting_done   boolean     NOT NULL DEFAULT false
);
COMMENT ON TABLE outbox_detached_partitions IS
    'Tables taken out of outbox by outbox_detach_partition(), dropped by outbox_drop_detached() (migration 0021).';

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

-- The rows of a partition to keep when it goes: not published, or published at or after $1. Written so that the
-- (status, id) and published_at indexes find them without reading the other rows. Rows of the log (status NULL) are
-- not among them: a partition goes only when all of those were published before $1 (outbox_partition_droppable()).
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

-- A closed partition to take out: rows published before `cutoff` in it, off the log or in it, and every row of the
-- log in it published before `cutoff` (outbox_log_settled_before(), 05_relay.sql). Its rows of the log are never
-- copied into the table that keeps the rows to stay (outbox_record_detached()), so the partition must not go while
-- one of them is still to be published, or was published at or after the cutoff.
CREATE FUNCTION outbox_partition_droppable(partition text, cutoff timestamptz) RETURNS boolean
    LANGUAGE plpgsql STABLE SET search_path FROM CURRENT AS $$
DECLARE
    part outbox_partitions;
    droppable boolean;
BEGIN
    SELECT * INTO STRICT part FROM outbox_partitions p WHERE p.name = partition;
    EXECUTE format('SELECT EXISTS (SELECT FROM %1$I WHERE status = ''published'' AND published_at < $1) '
                   '    OR EXISTS (SELECT FROM %1$I WHERE status IS NULL)', part.name)
        USING cutoff INTO droppable;
    RETURN droppable AND outbox_log_settled_before(part.lower_id, part.upper_id, cutoff);
END
$$;

-- Takes the closed partition `partition` out of the outbox under its exclusive lock (held for milliseconds) if it is
-- droppable (outbox_partition_droppable()), and returns whether it did. Rows that were not published before `cutoff`
-- (a dead row, a failed one still retried, one published later) stay in the outbox: they move to a new table for the
-- same range, which replaces the partition (outbox_record_detached()); they are few, so the copy is short.
CREATE FUNCTION outbox_detach_partition(partition text, cutoff timestamptz) RETURNS boolean
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    part outbox_partitions;
BEGIN
    SELECT * INTO part FROM outbox_partitions WHERE name = partition AND upper_id IS NOT NULL;
    IF NOT FOUND THEN
        RAISE invalid_parameter_value USING MESSAGE = format('%s is not a closed partition of outbox', partition);
    END IF;
    -- Nothing published before the cutoff (a partition kept for its stragglers, or too young): nothing to do, and
    -- no lock taken.
    IF NOT outbox_partition_droppable(part.name, cutoff) THEN
        RETURN false;
    END IF;
    PERFORM outbox_lock_briefly(ARRAY['outbox', part.name], 'ACCESS EXCLUSIVE');
    PERFORM FROM outbox_partitions WHERE name = part.name FOR UPDATE;
    EXECUTE format('ALTER TABLE outbox DETACH PARTITION %I', part.name);
    PERFORM outbox_record_detached(part, cutoff);
    RETURN true;
END
$$;

-- The detach without a pause for writers. outbox_detach_partition() takes the outbox's ACCESS EXCLUSIVE lock to
-- detach: every writer queues behind its lock request (0.13-0.19 s with a relay and four creating clients). ALTER
-- TABLE ... DETACH PARTITION ... CONCURRENTLY takes SHARE UPDATE EXCLUSIVE, which writers do not conflict with
-- (15-36 ms), but it cannot run in a function or a transaction block, so the caller runs it:
--
--   outbox_begin_detach(partition, cutoff)  returns the statement to run next (outside a transaction), or NULL;
--                                           call it again until it returns NULL;
--   outbox_end_detach(cutoff)               records what the statements took out, as outbox_detach_partition() does.
--
-- A partition that holds rows to keep (not published before the cutoff) still goes through
-- outbox_detach_partition(): its rows must stay visible to the relay while they move.
--
-- The statement that takes the closed partition `partition` out of the outbox, to run outside a transaction, or NULL
-- when there is none to run (call it again after running one):
-- - a detach that a crash or a cancel interrupted, of this partition or another (only one can be pending), is
--   finished first (... DETACH PARTITION ... FINALIZE);
-- - not droppable (outbox_partition_droppable(): nothing published before `cutoff`, or a row of the log in it not
--   published before then), or already detached: NULL;
-- - rows to keep: the partition goes here, through outbox_detach_partition() (its exclusive lock keeps the rows
--   visible while they move), and NULL;
-- - otherwise ... DETACH PARTITION ... CONCURRENTLY: writers go on meanwhile. A row that changes between this call
--   and that statement (an operator's replay) is found by outbox_end_detach() and put back.
CREATE FUNCTION outbox_begin_detach(partition text, cutoff timestamptz) RETURNS text
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    pending text;
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
    IF NOT outbox_partition_droppable(partition, cutoff) THEN
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

-- Removing a detached partition's files in one statement stalls the writers: with a 1 M-row partition (491 MB, 15
-- indexes) under a relay and four creating clients, creates fell by 44 % in the second of its DROP TABLE, the file
-- system's work delaying the WAL flushes every commit waits for. These steps let a purge remove the files one
-- relation at a time, each in a transaction of its own, with pauses between (outboxctl purge pauses 250 ms after
-- each relation of 16 MB or more): the indexes first, then the table, counted and dropped together with its entry
-- in outbox_detached_partitions, so that a crash at any point leaves a table that the next purge finishes and
-- counts exactly.
--
-- Drops the smallest index left on the detached table `detached` (with the constraint it backs, if any) and returns
-- its size in bytes, or NULL when none is left or the table is gone (another purge finished it).
CREATE FUNCTION outbox_drop_detached_index(detached text) RETURNS bigint
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    target oid;
    backed name;
    bytes bigint;
BEGIN
    -- Two purges at once take turns here; the second then sees what the first dropped.
    PERFORM FROM outbox_detached_partitions WHERE name = detached FOR UPDATE;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    SELECT x.indexrelid, pg_relation_size(x.indexrelid) INTO target, bytes FROM pg_index x
    WHERE x.indrelid = format('%I', detached)::regclass
    ORDER BY pg_relation_size(x.indexrelid), x.indexrelid LIMIT 1;
    IF target IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT conname INTO backed FROM pg_constraint
    WHERE conindid = target AND conrelid = format('%I', detached)::regclass;
    IF backed IS NOT NULL THEN
        EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', detached, backed);
    ELSE
        EXECUTE format('DROP INDEX %s', target::regclass);
    END IF;
    RETURN bytes;
END
$$;

-- Counts and drops the detached table `detached` and its entry, counting only what outbox_count_detached() has not;
-- returns its range, rows and size in bytes (with its TOAST table), or no row when another purge dropped it.
CREATE FUNCTION outbox_drop_detached_table(detached text)
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

-- The same in one call, unpaced: for callers that do not pace.
CREATE FUNCTION outbox_drop_detached() RETURNS TABLE (lower_id bigint, upper_id bigint, dropped bigint)
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    detached text;
BEGIN
    FOR detached IN SELECT name FROM outbox_detached_partitions ORDER BY detached_at, name LOOP
        WHILE outbox_drop_detached_index(detached) IS NOT NULL LOOP
        END LOOP;
        RETURN QUERY SELECT t.lower_id, t.upper_id, t.dropped FROM outbox_drop_detached_table(detached) t;
    END LOOP;
END
$$;

-- Deletes, `batch` at a time, the attempts of rows that are gone from ids [lower, upper) (NULL: unbounded). Returns
-- how many went; call it until it returns less than `batch`.
CREATE FUNCTION outbox_purge_attempts(lower bigint, upper bigint, batch integer DEFAULT 10000) RETURNS integer
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    WITH gone AS (
        DELETE FROM outbox_attempts a
        WHERE a.id IN (SELECT g.id FROM outbox_attempts g
                       WHERE g.outbox_id >= coalesce(lower, '-9223372036854775808'::bigint)
                         AND g.outbox_id < coalesce(upper, 9223372036854775807)
                         AND NOT EXISTS (SELECT FROM outbox o WHERE o.id = g.outbox_id)
                       LIMIT batch FOR UPDATE SKIP LOCKED)
        RETURNING 1)
    SELECT count(*)::integer FROM gone;
END;

-- Analyzes again each partition whose statistics were taken before it held any row of the log, once it holds one;
-- the relays call it with their heartbeats (migration 0033). Statistics taken while every row of a partition had a
-- status (those of each partition of a database upgraded from before schema 28, until autovacuum analyzes it after
-- a tenth of its rows changed: days, for a big partition of a quiet service) tell the planner that no row is in the
-- log, and it then probed the log through other indexes: a relay drained 100,000 rows at 3,400 rows/s in a
-- 10-million-row partition so analyzed, at 31,000 rows/s once it was analyzed again. Costs a read of the statistics
-- and, for a partition whose statistics see no row of the log, one index probe; a partition is analyzed once
-- (30,000 rows sampled), not again while a sample misses its few rows of the log. A partition that another holds
-- (autovacuum, a migration's index build) is left to the next call. Returns how many partitions it analyzed.
-- SECURITY DEFINER: only the table's owner may analyze it.
CREATE FUNCTION outbox_analyze_for_the_log() RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT SET lock_timeout = '100ms' AS $$
DECLARE
    part regclass;
    first_in_log timestamptz;
    analyzed integer := 0;
BEGIN
    FOR part IN
        SELECT c.oid::regclass FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = 'status'
        WHERE i.inhparent = 'outbox'::regclass AND s.null_frac = 0
    LOOP
        EXECUTE format('SELECT min(created_at) FROM %s WHERE status IS NULL', part) INTO first_in_log;
        CONTINUE WHEN first_in_log IS NULL
            OR greatest(pg_stat_get_last_analyze_time(part), pg_stat_get_last_autoanalyze_time(part)) > first_in_log;
        BEGIN
            EXECUTE format('ANALYZE %s', part);
            analyzed := analyzed + 1;
        EXCEPTION WHEN lock_not_available THEN
            NULL;
        END;
    END LOOP;
    RETURN analyzed;
END
$$;
