-- SPDX-License-Identifier: GPL-3.0-or-later
-- The outbox is partitioned by ranges of id, so that retention drops whole partitions instead of deleting rows
-- (docs/architecture.md, "Retention by partition", says why this layout and not another).
--
-- Partitions: closed ones, [lower, upper), and exactly one open one, [lower, MAXVALUE), that every new row goes to,
-- whatever its created_at (an import or a skewed clock lands where retention reaches it). There is no default
-- partition: a range up to MAXVALUE cannot miss a row. outbox_roll() closes the open partition and opens the next;
-- outbox_detach_partition() and outbox_drop_detached() drop a closed one whose rows were published long enough ago.
-- outbox_partitions lists them.
--
-- The existing table becomes the first partition (outbox_from_min) without copying a row: the parent takes its
-- name, columns, constraints, indexes, triggers, grants and sequence; the table is attached for the ids below the
-- bound that 0021_partitioned_outbox.online.sql proved (or, on a table that step did not prepare, that this
-- transaction proves). Nothing is renamed that programs use: they see the table `outbox` as before.
CREATE TABLE outbox_partitions (
    name      text        PRIMARY KEY,
    -- NULL: MINVALUE (the table the outbox was before this migration).
    lower_id  bigint,
    -- NULL: the open partition (MAXVALUE).
    upper_id  bigint,
    opened_at timestamptz NOT NULL DEFAULT now(),
    closed_at timestamptz,
    -- Set by outbox_roll()'s first step: the bound the open partition is being closed at.
    closing_at_id bigint,
    -- The created_at of the oldest and newest rows of a closed partition, once outbox_describe_partitions() read
    -- them (NULL: not yet): a search of a created range skips the partitions that end before it. Rows only leave a
    -- closed partition, so the range stays true.
    min_created_at timestamptz,
    max_created_at timestamptz,
    CONSTRAINT outbox_partitions_closed CHECK ((upper_id IS NULL) = (closed_at IS NULL))
);
CREATE UNIQUE INDEX outbox_partitions_open_idx ON outbox_partitions ((true)) WHERE upper_id IS NULL;
COMMENT ON TABLE outbox_partitions IS
    'The partitions of outbox (migration 0021): closed ones [lower_id, upper_id) and one open one [lower_id, MAXVALUE).';

-- Opens the partition [lower, MAXVALUE): its indexes come from the parent; its own unique index on dedupe_key is the
-- one outbox_check_dedupe_keys() relies on for the rows written next to each other.
CREATE FUNCTION outbox_open_partition(lower bigint) RETURNS text
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    name text := 'outbox_from_' || lower;
BEGIN
    EXECUTE format('CREATE TABLE %I PARTITION OF outbox FOR VALUES FROM (%s) TO (MAXVALUE)', name, lower);
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I UNIQUE (dedupe_key)', name, name || '_dedupe_key_unique');
    INSERT INTO outbox_partitions (name, lower_id) VALUES (name, lower);
    RETURN name;
END
$$;

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

DO $$
DECLARE
    bound bigint;
    last_id bigint;
    index_defs text[];
    trigger_defs text[];
    function_defs text[];
    grants text[];
    def text;
    item record;
BEGIN
    PERFORM outbox_lock_briefly(ARRAY['outbox'], 'ACCESS EXCLUSIVE');
    SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO last_id FROM outbox_id_seq;
    SELECT substring(pg_get_constraintdef(c.oid) FROM '(\d+)')::bigint INTO bound
    FROM pg_constraint c WHERE c.conrelid = 'outbox'::regclass AND c.conname = 'outbox_legacy_range';
    IF bound IS NULL THEN
        -- Not prepared (a new database, or one migrated from before version 1): the table is read here.
        bound := last_id + 1;
        EXECUTE format('ALTER TABLE outbox ADD CONSTRAINT outbox_legacy_range CHECK (id < %s)', bound);
    ELSE
        ALTER TABLE outbox VALIDATE CONSTRAINT outbox_legacy_range;
    END IF;

    -- What the parent takes over, read while the names still point at the table.
    SELECT array_agg(pg_get_indexdef(i.indexrelid)) INTO index_defs
    FROM pg_index i
    WHERE i.indrelid = 'outbox'::regclass AND NOT i.indisprimary
      AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conindid = i.indexrelid);
    SELECT array_agg(pg_get_triggerdef(t.oid)) INTO trigger_defs
    FROM pg_trigger t WHERE t.tgrelid = 'outbox'::regclass AND NOT t.tgisinternal;
    -- Functions whose SQL-standard bodies are bound to the table itself (migrations 0008 and 0013).
    SELECT array_agg(DISTINCT pg_get_functiondef(d.objid)) INTO function_defs
    FROM pg_depend d
    WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_class'::regclass AND d.refobjid = 'outbox'::regclass;
    SELECT array_agg(format('GRANT %s ON TABLE outbox TO %s', a.privilege_type,
                            CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE a.grantee::regrole::text END))
    INTO grants
    FROM pg_class c, aclexplode(c.relacl) a
    WHERE c.oid = 'outbox'::regclass AND a.grantee <> c.relowner;
    SELECT grants || coalesce(array_agg(format('GRANT %s (%I) ON TABLE outbox TO %s', a.privilege_type, att.attname,
                              CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE a.grantee::regrole::text END)),
                              '{}')
    INTO grants
    FROM pg_attribute att, aclexplode(att.attacl) a
    WHERE att.attrelid = 'outbox'::regclass AND att.attacl IS NOT NULL;

    -- The table steps aside: its name, its indexes' names, its triggers (the parent's are cloned onto it when it
    -- is attached) and its identity (the parent draws the ids from now on).
    ALTER TABLE outbox RENAME TO outbox_from_min;
    FOR item IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                WHERE i.indrelid = 'outbox_from_min'::regclass LOOP
        EXECUTE format('ALTER INDEX %I RENAME TO %I', item.relname,
                       'outbox_from_min_' || substr(item.relname, length('outbox_') + 1));
    END LOOP;
    FOR item IN SELECT t.tgname FROM pg_trigger t WHERE t.tgrelid = 'outbox_from_min'::regclass AND NOT t.tgisinternal
    LOOP
        EXECUTE format('DROP TRIGGER %I ON outbox_from_min', item.tgname);
    END LOOP;
    ALTER TABLE outbox_from_min ALTER COLUMN id DROP IDENTITY;

    -- Attempts outlive nothing: they are deleted with their range by outboxctl purge. A foreign key to a partitioned
    -- table would forbid dropping a partition while any attempt points into it.
    ALTER TABLE outbox_attempts DROP CONSTRAINT IF EXISTS outbox_attempts_outbox_id_fkey;

    CREATE TABLE outbox (LIKE outbox_from_min INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMMENTS
                         INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE (id);
    ALTER TABLE outbox DROP CONSTRAINT outbox_legacy_range;
    ALTER TABLE outbox ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);
    ALTER TABLE outbox ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (SEQUENCE NAME outbox_id_seq);
    PERFORM setval('outbox_id_seq', bound, false);
    -- In this order: the functions, bound to the parent from now on (and no longer to the table, which may go),
    -- come last. A NULL array (nothing of its kind) adds nothing to the concatenation.
    FOREACH def IN ARRAY coalesce(index_defs || trigger_defs || grants || function_defs, '{}') LOOP
        EXECUTE def;
    END LOOP;

    IF EXISTS (SELECT FROM outbox_from_min) THEN
        -- The validated CHECK lets the attach skip reading the rows; it has served once attached.
        EXECUTE format('ALTER TABLE outbox ATTACH PARTITION outbox_from_min FOR VALUES FROM (MINVALUE) TO (%s)',
                       bound);
        ALTER TABLE outbox_from_min DROP CONSTRAINT outbox_legacy_range;
        INSERT INTO outbox_partitions (name, lower_id, upper_id, opened_at, closed_at)
        VALUES ('outbox_from_min', NULL, bound, coalesce((SELECT min(applied_at) FROM schema_migrations), now()),
                now());
    ELSE -- A new database: nothing to keep.
        DROP TABLE outbox_from_min;
    END IF;
    PERFORM outbox_open_partition(bound);
END
$$;

-- The dedupe key's window: a key is refused while a row with it is in the open partition or in the partition closed
-- last, that is for at least the time between two rolls (a day with the purge's default --partition-age). Each
-- partition's unique index catches duplicates within it (two writers of one key racing in the open partition too);
-- outbox_check_dedupe_keys() looks for each inserted key in the rest of the window, once per statement (a bulk
-- insert pays one join, not a function call per row). Looking in every partition instead cost a probe of each one's
-- index per insert: with eight closed partitions single-row inserts went from 2,000-2,600 to 1,400-1,500 per
-- second, and more once those indexes no longer fit in memory. The window's first id is written into the two
-- functions as a constant, so that their plans reach only the partitions in it; outbox_define_dedupe_window()
-- writes them again whenever a roll moves the window, under the roll's exclusive lock.
-- The partitions in the window behind the open one hold only committed rows, since a partition is closed under an
-- exclusive lock: a writer in READ COMMITTED (PostgreSQL's default) sees every one of them. A writer whose snapshot
-- is older than the close (REPEATABLE READ) might not, so the guarantee is for READ COMMITTED writers;
-- docs/architecture.md says so. The check runs as the writer, who needs SELECT on outbox (as outbox_enqueue always
-- did): as SECURITY DEFINER with its own search_path it halved the rate of single-row inserts.
CREATE FUNCTION outbox_define_dedupe_window() RETURNS bigint
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    first_id bigint;
    -- The lowest bigint when the window has no lower bound (the partition the outbox was before 0021).
    bound text;
BEGIN
    SELECT p.lower_id INTO first_id FROM outbox_partitions p
    ORDER BY p.upper_id IS NULL, p.upper_id DESC LIMIT 1;
    bound := coalesce(first_id, -9223372036854775808)::text;
    EXECUTE format($definition$
CREATE OR REPLACE FUNCTION outbox_check_dedupe_keys() RETURNS trigger
    LANGUAGE plpgsql AS $body$
DECLARE
    duplicate text;
BEGIN
    SELECT i.dedupe_key INTO duplicate
    FROM outbox_inserted i
    WHERE EXISTS (SELECT FROM outbox o WHERE o.id >= %s AND o.dedupe_key = i.dedupe_key AND o.id <> i.id)
    LIMIT 1;
    IF FOUND THEN
        RAISE unique_violation USING
            MESSAGE = 'duplicate key value violates unique constraint "outbox_dedupe_key_unique"',
            DETAIL = format('Key (dedupe_key)=(%%s) already exists.', duplicate),
            CONSTRAINT = 'outbox_dedupe_key_unique', TABLE = 'outbox', COLUMN = 'dedupe_key';
    END IF;
    RETURN NULL;
END
$body$
$definition$, bound);
    EXECUTE format($definition$
CREATE OR REPLACE FUNCTION outbox_find_dedupe_key(key text) RETURNS bigint
    LANGUAGE plpgsql STABLE AS $body$
BEGIN
    RETURN (SELECT o.id FROM outbox o WHERE o.id >= %s AND o.dedupe_key = key ORDER BY o.id LIMIT 1);
END
$body$
$definition$, bound);
    COMMENT ON FUNCTION outbox_find_dedupe_key(text) IS
        'The row with this dedupe key in the dedupe window, or NULL; rewritten by outbox_define_dedupe_window().';
    RETURN first_id;
END
$$;
SELECT outbox_define_dedupe_window();
CREATE TRIGGER outbox_check_dedupe_keys AFTER INSERT ON outbox REFERENCING NEW TABLE AS outbox_inserted
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_check_dedupe_keys();

-- A dedupe key is the message's identity (consumers deduplicate on it): it never changes, which also spares every
-- update the check above.
CREATE FUNCTION outbox_keep_dedupe_key() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.dedupe_key IS DISTINCT FROM OLD.dedupe_key THEN
        RAISE feature_not_supported USING
            MESSAGE = format('the dedupe key of outbox row %s cannot change: it is the message''s identity', OLD.id);
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER outbox_keep_dedupe_key BEFORE UPDATE OF dedupe_key ON outbox
    FOR EACH ROW EXECUTE FUNCTION outbox_keep_dedupe_key();

-- The SQL API keeps its signature and its promise (a retried enqueue returns the first row's id), within the dedupe
-- window. ON CONFLICT cannot name a constraint of the whole partitioned table any more: a given key is looked up
-- first, and the insert still ignores a conflict in the open partition, where two writers of one key can race.
CREATE OR REPLACE FUNCTION outbox_enqueue(aggregate_type text, aggregate_id text, event_type text, payload jsonb,
                                          headers jsonb DEFAULT '{}', dedupe_key text DEFAULT NULL,
                                          ordering_key text DEFAULT NULL, ordered boolean DEFAULT true) RETURNS bigint
    LANGUAGE plpgsql AS $$
DECLARE
    message_key text := coalesce(outbox_enqueue.dedupe_key, gen_random_uuid()::text);
    key text := CASE WHEN outbox_enqueue.ordered
                     THEN coalesce(outbox_enqueue.ordering_key,
                                   outbox_enqueue.aggregate_type || ':' || outbox_enqueue.aggregate_id) END;
    added bigint;
BEGIN
    IF outbox_enqueue.dedupe_key IS NOT NULL THEN
        added := outbox_find_dedupe_key(message_key);
        IF added IS NOT NULL THEN
            RETURN added;
        END IF;
    END IF;
    INSERT INTO outbox AS o (aggregate_type, aggregate_id, event_type, payload, headers, dedupe_key, ordering_key)
    VALUES (outbox_enqueue.aggregate_type, outbox_enqueue.aggregate_id, outbox_enqueue.event_type,
            outbox_enqueue.payload, coalesce(outbox_enqueue.headers, '{}'), message_key, key)
    ON CONFLICT DO NOTHING
    RETURNING o.id INTO added;
    IF added IS NULL THEN
        added := outbox_find_dedupe_key(message_key);
    END IF;
    RETURN added;
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

-- Retention in two steps, so that the exclusive lock on the outbox lasts milliseconds: dropping a table of gigabytes
-- takes seconds (its files are removed at commit, and the locks are held until then), and counting its rows too.
-- outbox_detach_partition() takes a closed partition out of the outbox under the lock and records it here;
-- outbox_drop_detached() counts and drops what is recorded, holding no lock anyone else wants. A crash between them
-- leaves a detached table that the next call drops.
CREATE TABLE outbox_detached_partitions (
    name        text        PRIMARY KEY,
    lower_id    bigint,
    upper_id    bigint      NOT NULL,
    detached_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE outbox_detached_partitions IS
    'Tables taken out of outbox by outbox_detach_partition(), dropped by outbox_drop_detached() (migration 0021).';

-- Takes the closed partition `partition` out of the outbox if rows in it were published before `cutoff`, and returns
-- whether it did. Rows that were not (a dead row, a failed one still retried, one published later) stay in the
-- outbox: they move to a new table for the same range, which replaces the partition; they are few, so the copy is
-- short. Either way the exclusive lock is held for milliseconds.
CREATE FUNCTION outbox_detach_partition(partition text, cutoff timestamptz) RETURNS boolean
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    part outbox_partitions;
    detached text;
    -- (status, id) and the published_at index (whose predicate the third arm repeats) find the rows to keep
    -- without reading the others: the lock is held for as long as that takes.
    keep text := '(status < ''published'' OR status > ''published'' OR (status = ''published'' AND published_at >= $1))';
    replacement text;
    droppable boolean;
    kept bigint;
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
    detached := 'outbox_detached_' || coalesce(part.lower_id::text, 'min') || '_' || to_char(now(), 'YYYYMMDDHH24MISSUS');
    EXECUTE format('ALTER TABLE outbox DETACH PARTITION %I', part.name);
    EXECUTE format('SELECT count(*) FROM %I WHERE %s', part.name, keep) USING cutoff INTO kept;
    IF kept > 0 THEN
        replacement := left(part.name, 50) || '_kept';
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING ALL)', replacement, part.name);
        EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE %s', replacement, part.name, keep) USING cutoff;
        -- What stays is not dropped, nor counted as dropped.
        EXECUTE format('DELETE FROM %I WHERE %s', part.name, keep) USING cutoff;
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
    RETURN true;
END
$$;

-- Counts and drops the tables outbox_detach_partition() took out, and returns each one's range and rows.
CREATE FUNCTION outbox_drop_detached() RETURNS TABLE (lower_id bigint, upper_id bigint, dropped bigint)
    LANGUAGE plpgsql SET search_path FROM CURRENT SET max_parallel_workers_per_gather = 0 AS $$
DECLARE
    gone outbox_detached_partitions;
BEGIN
    FOR gone IN DELETE FROM outbox_detached_partitions RETURNING * LOOP
        lower_id := gone.lower_id;
        upper_id := gone.upper_id;
        EXECUTE format('SELECT count(*) FROM %I', gone.name) INTO dropped;
        EXECUTE format('DROP TABLE %I', gone.name);
        RETURN NEXT;
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
