-- SPDX-License-Identifier: GPL-3.0-or-later
-- Error signatures: every recorded failure's text with its volatile parts normalised (numbers, hex, UUIDs, quoted
-- literals, durations, timestamps, host:port, URLs, paths), so that "message size 48213 larger than max" and
-- "message size 977 larger than max" are one group. The one definition is outbox_error_signature(); triggers apply
-- it to every writer, in any language. Rows written before this migration get theirs from the batched backfill
-- (outboxctl migrate runs it; outbox_backfill_error_signatures() is the SQL for other tools).

-- Pure: the same text always gives the same signature. Only the first line counts; at most 300 characters.
CREATE FUNCTION outbox_error_signature(error text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    s text := split_part(error, E'\n', 1);
BEGIN
    s := regexp_replace(s, '[a-zA-Z][a-zA-Z0-9+.-]*://[^[:space:]''"()<>]+', '<url>', 'g');
    s := regexp_replace(s, '\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?', '<time>', 'g');
    s := regexp_replace(s, '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}', '<uuid>', 'g');
    -- A quote after a letter is an apostrophe ("can't"), not the start of a literal.
    s := regexp_replace(s, '(^|[^[:alnum:]])''[^'']*''', '\1''<str>''', 'g');
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
    RETURN left(btrim(regexp_replace(s, '[[:space:]]+', ' ', 'g')), 300);
END
$$;

-- The short, copyable name of a group: the first 12 hex digits of the signature's MD5.
CREATE FUNCTION outbox_signature_id(signature text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    RETURN left(md5(signature), 12);

-- Nullable and without a default: adding them rewrites nothing, whatever the table's size.
ALTER TABLE outbox ADD COLUMN error_signature text;
ALTER TABLE outbox_attempts ADD COLUMN signature text;

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

-- The failure groups: rows that need an operator, by signature (counts read this index only) and, within a
-- group, by event type (the event types affected, read by skipping through it).
CREATE INDEX outbox_failure_groups_idx ON outbox (error_signature, event_type, status)
    WHERE status IN ('failed', 'dead');
-- A group's rows, newest first (the list filtered to a group, Retry group's frozen set).
CREATE INDEX outbox_failure_group_rows_idx ON outbox (error_signature, status, id)
    WHERE status IN ('failed', 'dead');
-- When a group was first and last seen.
CREATE INDEX outbox_attempts_signature_idx ON outbox_attempts (signature, created_at);

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

-- One batch of the backfill: signs the rows of `tbl` ('outbox' or 'outbox_attempts') with ids in
-- (after_id, after_id + batch] that have an error but no signature yet. Returns how many it signed and the next
-- cursor, NULL when the table is done. Each call is one short statement over a primary-key range; rows locked at
-- that moment are skipped (whatever is changing them writes a signature of its own if it records an error).
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
