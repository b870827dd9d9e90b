-- SPDX-License-Identifier: GPL-3.0-or-later
-- Failures: error signatures and failure groups. Every recorded failure's text gets a signature, with its volatile
-- parts normalised (numbers, hex, UUIDs, quoted literals, durations, timestamps, host:port, URLs, paths), so that
-- "message size 48213 larger than max" and "message size 977 larger than max" are one group. The one definition is
-- outbox_error_signature(); triggers apply it to every writer, in any language (the relays record the errors). The
-- console's Failures tab and Overview, and outboxctl, show the groups (outbox_failure_group_sizes()) and act on a
-- group's rows (the indexes outbox_failure_groups_idx and outbox_failure_group_rows_idx, 03_outbox.sql).

-- Pure: the same text always gives the same signature. Only the first line counts; at most 300 characters. A fixed
-- point: signing a signature changes nothing, which tests/fuzz/fuzz_errorsignature checks. A quote after a letter,
-- a placeholder or another quote opens no literal; a text over 300 characters is cut after its last whole word within
-- the 300, or, without a blank, where a run of letters, digits, '_' and '.' ends, so that no digits of a word become
-- a number of their own at the next signing.
CREATE FUNCTION outbox_error_signature(error text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    s text := split_part(error, E'\n', 1);
    cut text;
BEGIN
    -- A second pass only for a text that is one run of letters, digits, '_' and '.' past its 300th character (see
    -- below).
    FOR pass IN 1..2 LOOP
        s := regexp_replace(s, '[a-zA-Z][a-zA-Z0-9+.-]*://[^[:space:]''"()<>]+', '<url>', 'g');
        s := regexp_replace(s, '\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?', '<time>', 'g');
        s := regexp_replace(s, '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}', '<uuid>', 'g');
        -- A quote after a letter is an apostrophe ("can't"), not the start of a literal; nor is one after a
        -- placeholder or another quote.
        s := regexp_replace(s, '(?<![[:alnum:]''>])''[^'']*''', '''<str>''', 'g');
        s := regexp_replace(s, '"[^"]*"', '"<str>"', 'g');
        s := regexp_replace(s, '\[[0-9a-fA-F:.]+\](:\d+)?|(?<![[:alnum:].])\d{1,3}(\.\d{1,3}){3}(:\d+)?', '<host>', 'g');
        s := regexp_replace(s, '\m[a-zA-Z][a-zA-Z0-9.-]*:\d{2,5}\M', '<host>', 'g');
        s := regexp_replace(s, '(^|[[:space:](=])/[^[:space:]:,;)]+', '\1<path>', 'g');
        s := regexp_replace(s,
            '\m0x[0-9a-fA-F]+\M|\m(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{8,}\M', '<hex>', 'g');
        s := regexp_replace(s,
            '(?<![[:alnum:]_.])\d+(\.\d+)?[[:space:]]?(ms|us|ns|s|sec|secs|seconds?|min|mins|minutes?|h|hours?)\M',
            '<duration>', 'g');
        -- A number inside a word or a version ("x509", "TLSv1.3") is part of it.
        s := regexp_replace(s, '(?<![[:alnum:]_.])\d+(\.\d+)?(?![[:alnum:]_])', '<n>', 'g');
        s := btrim(regexp_replace(s, '[[:space:]]+', ' ', 'g'));
        IF length(s) <= 300 THEN
            RETURN s;
        END IF;
        -- The 301st character tells whether the 300th ends a word.
        cut := rtrim(regexp_replace(left(s, 301), '[^ ]*$', ''));
        IF cut = '' THEN
            -- No blank: cut where a run of the characters the number rule reads as one word ends, so that no
            -- digits of a word become a number of their own ("*3333xp" cut to "*33", which the next signing made
            -- "*<n>").
            cut := regexp_replace(left(s, 301), '([[:alnum:]_.]+|.)$', '');
        END IF;
        IF cut <> '' THEN
            RETURN cut;
        END IF;
        -- One run to the 301st character: cut at 300, where its tail may now read as a number, a duration or
        -- hex ("999…9x" cut to "999…9"), and sign that once more. The rules only shorten such a run, and a text
        -- of 300 characters or fewer signs to itself.
        s := left(s, 300);
    END LOOP;
    RETURN left(s, 300);
END
$$;

-- The short, copyable name of a group: the first 12 hex digits of the signature's MD5.
CREATE FUNCTION outbox_signature_id(signature text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    RETURN left(md5(signature), 12);

-- Every writer's errors are signed as they are written: a row's last error, and every attempt's.
CREATE FUNCTION outbox_sign_last_error() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    NEW.error_signature := outbox_error_signature(NEW.last_error);
    RETURN NEW;
END
$$;
CREATE TRIGGER outbox_sign_last_error BEFORE INSERT OR UPDATE OF last_error ON outbox
    FOR EACH ROW EXECUTE FUNCTION outbox_sign_last_error();

CREATE FUNCTION outbox_attempts_sign_error() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    NEW.signature := outbox_error_signature(NEW.error);
    RETURN NEW;
END
$$;
CREATE TRIGGER outbox_attempts_sign_error BEFORE INSERT OR UPDATE OF error ON outbox_attempts
    FOR EACH ROW EXECUTE FUNCTION outbox_attempts_sign_error();

-- The distinct event types of a group's failed and dead rows, one index probe per type (a loose index scan).
CREATE FUNCTION outbox_failure_event_types(signature text) RETURNS text[]
    LANGUAGE sql STABLE PARALLEL SAFE STRICT
BEGIN ATOMIC
    WITH RECURSIVE types(event_type) AS (
        SELECT min(o.event_type) FROM outbox o
        WHERE o.status IN ('failed', 'dead') AND o.error_signature = signature
        UNION ALL
        SELECT (SELECT min(o.event_type) FROM outbox o
                WHERE o.status IN ('failed', 'dead') AND o.error_signature = signature
                  AND o.event_type > types.event_type)
        FROM types WHERE types.event_type IS NOT NULL)
    SELECT coalesce(array_agg(event_type ORDER BY event_type), '{}') FROM types WHERE event_type IS NOT NULL;
END;

-- One batch of a backfill: signs the rows of `tbl` ('outbox' or 'outbox_attempts') with ids in
-- (after_id, after_id + batch] that have an error but no signature yet (rows written before signatures existed;
-- outboxctl migrate runs it after an upgrade, and this is the SQL for other tools). Returns how many it signed and
-- the next cursor, NULL when the table is done. Each call is one short statement over a primary-key range; rows
-- locked at that moment are skipped (whatever is changing them writes a signature of its own if it records an error).
CREATE FUNCTION outbox_backfill_error_signatures(tbl text, after_id bigint, batch integer,
                                                 OUT signed integer, OUT next_id bigint)
    LANGUAGE plpgsql AS $$
DECLARE
    last_id bigint;
BEGIN
    IF tbl = 'outbox' THEN
        UPDATE outbox o SET error_signature = outbox_error_signature(o.last_error)
        WHERE o.id IN (SELECT id FROM outbox WHERE id > after_id AND id <= after_id + batch
                         AND last_error IS NOT NULL AND error_signature IS NULL FOR UPDATE SKIP LOCKED);
        GET DIAGNOSTICS signed = ROW_COUNT;
        SELECT max(id) INTO last_id FROM outbox;
    ELSIF tbl = 'outbox_attempts' THEN
        UPDATE outbox_attempts a SET signature = outbox_error_signature(a.error)
        WHERE a.id IN (SELECT id FROM outbox_attempts WHERE id > after_id AND id <= after_id + batch
                         AND signature IS NULL FOR UPDATE SKIP LOCKED);
        GET DIAGNOSTICS signed = ROW_COUNT;
        SELECT max(id) INTO last_id FROM outbox_attempts;
    ELSE
        RAISE EXCEPTION 'outbox_backfill_error_signatures: unknown table %', tbl USING ERRCODE = '22023';
    END IF;
    next_id := CASE WHEN after_id + batch >= coalesce(last_id, 0) THEN NULL ELSE after_id + batch END;
END
$$;

-- The size of every failure group, kept up to date by the transactions that change a row's state, so the Failures
-- tab and the Overview read a handful of rows instead of grouping 400 k failed and dead ones.
--
-- One row per change: writers only ever INSERT here, so two transactions failing rows of the same group never wait
-- for each other and never deadlock, whatever the order of their rows. A group's size is the sum of its deltas;
-- outbox_fold_failure_counts() compacts them (the relay calls it with every heartbeat).
CREATE TABLE outbox_failure_counts (
    signature  text   NOT NULL,
    status     text   NOT NULL CHECK (status IN ('failed', 'dead')),
    delta      bigint NOT NULL
);

CREATE FUNCTION outbox_count_failures() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.status IN ('failed', 'dead') AND OLD.error_signature IS NOT NULL THEN
        INSERT INTO outbox_failure_counts (signature, status, delta) VALUES (OLD.error_signature, OLD.status, -1);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.status IN ('failed', 'dead') AND NEW.error_signature IS NOT NULL THEN
        INSERT INTO outbox_failure_counts (signature, status, delta) VALUES (NEW.error_signature, NEW.status, 1);
    END IF;
    RETURN NULL;
END
$$;
-- The WHEN clauses keep the relay's hot path (pending -> in_flight -> published) free of any trigger call.
CREATE TRIGGER outbox_count_failures_insert AFTER INSERT ON outbox FOR EACH ROW
    WHEN (NEW.status IN ('failed', 'dead')) EXECUTE FUNCTION outbox_count_failures();
CREATE TRIGGER outbox_count_failures_update AFTER UPDATE OF status, last_error, error_signature ON outbox FOR EACH ROW
    WHEN ((OLD.status IN ('failed', 'dead') OR NEW.status IN ('failed', 'dead'))
          AND (OLD.status, OLD.error_signature) IS DISTINCT FROM (NEW.status, NEW.error_signature))
    EXECUTE FUNCTION outbox_count_failures();
CREATE TRIGGER outbox_count_failures_delete AFTER DELETE ON outbox FOR EACH ROW
    WHEN (OLD.status IN ('failed', 'dead')) EXECUTE FUNCTION outbox_count_failures();

CREATE FUNCTION outbox_reset_failure_counts() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE outbox_failure_counts;
    RETURN NULL;
END
$$;
CREATE TRIGGER outbox_count_failures_truncate AFTER TRUNCATE ON outbox FOR EACH STATEMENT
    EXECUTE FUNCTION outbox_reset_failure_counts();

-- Replaces the deltas every transaction committed so far by one row per group and status. Deltas of transactions
-- still running are invisible to the DELETE and stay. At most one fold runs at a time; another caller returns 0
-- at once. Returns the number of rows it folded away.
CREATE FUNCTION outbox_fold_failure_counts() RETURNS integer
    LANGUAGE plpgsql AS $$
DECLARE
    folded integer;
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('outbox_fold_failure_counts')) THEN
        RETURN 0;
    END IF;
    WITH moved AS (DELETE FROM outbox_failure_counts RETURNING signature, status, delta),
    summed AS (SELECT signature, status, sum(delta) AS delta, count(*) AS deltas FROM moved GROUP BY 1, 2),
    kept AS (INSERT INTO outbox_failure_counts (signature, status, delta)
             SELECT signature, status, delta FROM summed WHERE delta <> 0)
    SELECT coalesce(sum(deltas), 0) INTO folded FROM summed;
    RETURN folded;
END
$$;

-- The groups and their sizes right now, largest first, counting rows in `statuses` only: what the Failures tab and
-- the Overview show.
CREATE FUNCTION outbox_failure_group_sizes(statuses text[] DEFAULT ARRAY['failed', 'dead'],
                                           max_groups integer DEFAULT 100,
                                           OUT signature text, OUT failed bigint, OUT dead bigint)
    RETURNS SETOF record
    LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
    SELECT c.signature, coalesce(sum(c.delta) FILTER (WHERE c.status = 'failed'), 0)::bigint,
           coalesce(sum(c.delta) FILTER (WHERE c.status = 'dead'), 0)::bigint
    FROM outbox_failure_counts c WHERE c.status = ANY(statuses)
    GROUP BY c.signature HAVING sum(c.delta) > 0
    ORDER BY sum(c.delta) DESC, c.signature LIMIT max_groups;
END;
