-- SPDX-License-Identifier: GPL-3.0-or-later
-- The dedupe check's plans, safe while the open partition grows. A PL/pgSQL statement without parameters keeps the
-- plan made at its first run in a session until something invalidates it. Planned when the open partition had a page
-- or two (right after a roll, once an ANALYZE had seen it empty or nearly so), the check read the open partition
-- sequentially, and kept doing so as it grew: single-row inserts from one session ran at 1,360-1,570 per second in
-- their first 5 s and 400-540 after 25 s, against a steady 4,400-6,100 with this migration (synchronous_commit off);
-- a 20,000-row INSERT after a single-row one in the same session took 31-43 s instead of 0.7-1.2 s (100,000 rows took
-- 7 minutes once in a benchmark). The next ANALYZE (autovacuum's, within its naptime) or roll ended it.
--
-- The open partition needs no looking up in the check: its own unique index on dedupe_key refuses a key written
-- twice in it. outbox_check_dedupe_keys() now looks only in the closed part of the window (the partition closed last),
-- whose size no longer changes once a roll has rewritten the function, so a cached plan stays right; and it probes
-- that partition once per inserted row (a LATERAL subquery with a LIMIT, which the planner cannot turn into a
-- join), since a join planned for one statement's row count (a hash over the whole partition, for a bulk insert)
-- would be reused for the next statement's. outbox_find_dedupe_key() looks in the closed part the same way
-- (outbox_find_closed_dedupe_key()), and in the open partition with a statement planned at each call (EXECUTE), on the
-- partition's size at that moment. outbox_enqueue() looks in the closed part before its insert and in the open
-- partition only when the insert met the key (ON CONFLICT: the unique index's own probe), so a new key costs no
-- planning.
CREATE OR REPLACE FUNCTION outbox_define_dedupe_window() RETURNS bigint
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    first_id bigint;
    open_lower bigint;
    -- The window's closed part, as a condition on o.id: false while no partition is closed, no lower bound for the
    -- partition the outbox was before 0021.
    closed_ids text;
BEGIN
    SELECT p.lower_id INTO first_id FROM outbox_partitions p
    ORDER BY p.upper_id IS NULL, p.upper_id DESC LIMIT 1;
    SELECT p.lower_id INTO STRICT open_lower FROM outbox_partitions p WHERE p.upper_id IS NULL;
    closed_ids := CASE
        WHEN first_id = open_lower THEN 'false'
        WHEN first_id IS NULL THEN format('o.id < %s', open_lower)
        ELSE format('o.id >= %s AND o.id < %s', first_id, open_lower) END;
    EXECUTE format($definition$
CREATE OR REPLACE FUNCTION outbox_check_dedupe_keys() RETURNS trigger
    LANGUAGE plpgsql AS $body$
DECLARE
    duplicate text;
BEGIN
    SELECT i.dedupe_key INTO duplicate
    FROM outbox_inserted i
    CROSS JOIN LATERAL (SELECT FROM outbox o WHERE %1$s AND o.dedupe_key = i.dedupe_key AND o.id <> i.id LIMIT 1) found
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
$definition$, closed_ids);
    EXECUTE format($definition$
CREATE OR REPLACE FUNCTION outbox_find_closed_dedupe_key(key text) RETURNS bigint
    LANGUAGE plpgsql STABLE AS $body$
BEGIN
    RETURN (SELECT o.id FROM outbox o WHERE %s AND o.dedupe_key = key LIMIT 1);
END
$body$
$definition$, closed_ids);
    EXECUTE format($definition$
CREATE OR REPLACE FUNCTION outbox_find_dedupe_key(key text) RETURNS bigint
    LANGUAGE plpgsql STABLE AS $body$
DECLARE
    found bigint := outbox_find_closed_dedupe_key(key);
BEGIN
    IF found IS NULL THEN
        EXECUTE 'SELECT o.id FROM outbox o WHERE o.id >= %s AND o.dedupe_key = $1 LIMIT 1' INTO found USING key;
    END IF;
    RETURN found;
END
$body$
$definition$, open_lower);
    COMMENT ON FUNCTION outbox_find_closed_dedupe_key(text) IS
        'The row with this dedupe key in the partition closed last, or NULL; rewritten by outbox_define_dedupe_window().';
    COMMENT ON FUNCTION outbox_find_dedupe_key(text) IS
        'The row with this dedupe key in the dedupe window, or NULL; rewritten by outbox_define_dedupe_window().';
    RETURN first_id;
END
$$;
SELECT outbox_define_dedupe_window();

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
        added := outbox_find_closed_dedupe_key(message_key);
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
