-- SPDX-License-Identifier: GPL-3.0-or-later
-- Rows that share an ordering key reach the sink in the order of their ids; rows without one are unordered.
--
-- The guarantee: a keyed row is handed to a sink only when every older row of its key is published or skipped,
-- or is claimed in the same batch (the relay then publishes the key's rows of the batch in id order and stops at
-- the first that fails). So for any key the first deliveries are increasing in id; a redelivery (a relay killed
-- after the broker confirmed) can repeat a row, never overtake one.
--
-- Rows written before this migration keep no key and flow as they did: nobody chose an order for them.
ALTER TABLE outbox ADD COLUMN ordering_key text;
COMMENT ON COLUMN outbox.ordering_key IS
    'Rows with the same key are published in id order (outbox_enqueue: aggregate_type:aggregate_id); NULL: unordered.';

-- waiting: a keyed row that a claim found behind an older row of its key which was neither claimed with it nor in
-- flight (failing, dead, delayed, itself waiting, or due but further back in the claim's order), parked so that it
-- leaves the claim's index instead of filling every claim's candidates. Published or skipped, that older row lets
-- the key's waiting rows go (outbox_release_waiting).
-- skipped: an operator gave up on the row (dead or failed) so that its key flows again; it is never published.
ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_status_check
    CHECK (status IN ('pending', 'in_flight', 'published', 'failed', 'dead', 'waiting', 'skipped')) NOT VALID;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_status_check;

-- The backlog (its count and the age of its oldest row: the outbox lag) includes the waiting rows: they are not
-- published, and a key held up behind a dead row is lag that consumers feel.
CREATE INDEX outbox_backlog_created_idx ON outbox (created_at, id)
    WHERE status IN ('pending', 'in_flight', 'failed', 'waiting');
DROP INDEX outbox_unpublished_created_idx;
ALTER INDEX outbox_backlog_created_idx RENAME TO outbox_unpublished_created_idx;

-- The rows of a key not yet published or skipped, oldest first: a claim finds each key's oldest row that it did
-- not take, and a completion the key's waiting rows. Unkeyed rows are not in it.
CREATE INDEX outbox_ordering_idx ON outbox (ordering_key, id)
    WHERE ordering_key IS NOT NULL AND status IN ('pending', 'in_flight', 'failed', 'dead', 'waiting');

-- Ids in commit order within a key. An identity value is drawn before the row is written, so two writers of one
-- key could commit their rows in the opposite order of their ids, and a relay would publish the later id first
-- (the older one was not visible yet). The writer therefore takes the key's transaction lock (writers of one key
-- commit one at a time) and, if any id was drawn after its own meanwhile, draws a new one: a writer that waited
-- for the key gets an id above every row written while it waited. Without such a draw (a writer that did not
-- wait, or one that nobody overtook) ids stay contiguous. Another key (or an unkeyed row) never waits; two keys
-- whose hashes collide share a lock, which costs only waiting.
-- SECURITY DEFINER: a service's role may insert rows without any right on the id's sequence.
CREATE FUNCTION outbox_order_by_key() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(1869968483, hashtext(NEW.ordering_key));
    IF NEW.id <> (SELECT last_value FROM outbox_id_seq) THEN
        NEW.id := nextval('outbox_id_seq'::regclass);
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER outbox_order_by_key BEFORE INSERT ON outbox
    FOR EACH ROW WHEN (NEW.ordering_key IS NOT NULL) EXECUTE FUNCTION outbox_order_by_key();

-- Lets the waiting rows of `keys` go: they are claimable again (failed if they were tried before), and the next
-- claim parks again those still behind an older row of their key that it does not claim with them. Call it in the transaction that published or skipped rows
-- of these keys, as a statement of its own after that change: it must see the rows that claims parked behind
-- them meanwhile (a claim that parks a row holds a share lock on the row it parks behind, so the change waits for
-- that claim to commit, and a later statement sees its parked rows). Returns the number of rows let go.
CREATE FUNCTION outbox_release_waiting(keys text[]) RETURNS integer
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    WITH released AS (
        UPDATE outbox o SET status = CASE WHEN o.attempts > 0 THEN 'failed' ELSE 'pending' END, updated_at = now()
        WHERE o.ordering_key = ANY (keys) AND o.status = 'waiting'
        RETURNING 1)
    SELECT count(*)::integer FROM released;
END;

-- The SQL API: the key defaults to the aggregate's (aggregate_type:aggregate_id), so one aggregate's events are
-- published in order; `ordered => false` leaves the row unordered (published as soon as possible, in parallel).
DROP FUNCTION outbox_enqueue(text, text, text, jsonb, jsonb, text);
CREATE FUNCTION outbox_enqueue(aggregate_type text, aggregate_id text, event_type text, payload jsonb,
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
    INSERT INTO outbox AS o (aggregate_type, aggregate_id, event_type, payload, headers, dedupe_key, ordering_key)
    VALUES (outbox_enqueue.aggregate_type, outbox_enqueue.aggregate_id, outbox_enqueue.event_type,
            outbox_enqueue.payload, coalesce(outbox_enqueue.headers, '{}'), message_key, key)
    ON CONFLICT ON CONSTRAINT outbox_dedupe_key_unique DO NOTHING
    RETURNING o.id INTO added;
    IF added IS NULL THEN
        SELECT o.id INTO added FROM outbox o WHERE o.dedupe_key = message_key;
    END IF;
    RETURN added;
END
$$;
