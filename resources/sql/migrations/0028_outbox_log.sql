-- SPDX-License-Identifier: GPL-3.0-or-later
-- Migration 0028: the outbox as a log. A row the relay publishes at its first try is written once, by its writer,
-- and never updated: its status stays NULL ("in the log") and its fate is its lane's. The relay claims a lane's rows
-- a batch at a time and settles the batch by moving the lane's cursor (one row of outbox_lanes), not the rows. A row
-- that leaves the happy path (a failed publish, a hand-back, a wait behind an older row of its key, a paused event
-- type, an operator's action) gets a status and lives from then on by its own columns exactly as before (0027).
-- docs/architecture.md, "The outbox as a log", says why; resources/sql/schema/03_outbox.sql and 05_relay.sql hold
-- the same definitions.

-- An instant's lock: no row is rewritten. Rows written before this migration keep their status (they all have one)
-- and are published as before; rows written after it have a NULL status and the id of their transaction. The column,
-- outbox_lane() and the log's indexes on each partition come from the online steps (0028_outbox_log.online.sql).
ALTER TABLE outbox ALTER COLUMN status DROP NOT NULL, ALTER COLUMN status DROP DEFAULT;
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS txid xid8;
ALTER TABLE outbox ALTER COLUMN txid SET DEFAULT pg_current_xact_id();
COMMENT ON COLUMN outbox.status IS
    'NULL: in the log, its fate its lane''s (pending, in flight or published: see the view outbox_messages); otherwise '
    'pending, in_flight, published, failed, dead (gave up after the maximum attempts), waiting (behind an older row '
    'of its ordering key), discarded (an operator gave up on it; never published unless retried), paused (its event '
    'type is paused; back to pending or failed when it is resumed).';
COMMENT ON COLUMN outbox.txid IS
    'The writing transaction (pg_current_xact_id()): a row in the log belongs to the lane range of the first tick '
    'whose snapshot sees it.';

CREATE OR REPLACE FUNCTION outbox_lane(ordering_key text, id bigint) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN ordering_key IS NULL THEN (id & 15)::integer ELSE hashtext(ordering_key) & 15 END;
COMMENT ON FUNCTION outbox_lane(text, bigint) IS
    'The lane (0-15) of a row in the log: its ordering key''s, so that a key''s rows are published by one lane.';

CREATE INDEX outbox_log_idx ON outbox (outbox_lane(ordering_key, id), id) WHERE status IS NULL;
CREATE INDEX outbox_log_txid_idx ON outbox (outbox_lane(ordering_key, id), txid) WHERE status IS NULL;

CREATE TABLE outbox_ticks (
    id        bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    snapshot  pg_snapshot NOT NULL,
    last_id   bigint      NOT NULL,
    taken_at  timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE outbox_ticks IS
    'Snapshots that cut the log into lane ranges: a range holds the rows seen by one tick and not by the one before.';

CREATE FUNCTION outbox_take_tick() RETURNS outbox_ticks
    LANGUAGE sql SECURITY DEFINER SET search_path FROM CURRENT
BEGIN ATOMIC
    INSERT INTO outbox_ticks (snapshot, last_id)
    VALUES (pg_current_snapshot(), (SELECT s.last_value FROM outbox_id_seq s))
    RETURNING *;
END;

CREATE TABLE outbox_lanes (
    lane             integer     PRIMARY KEY CHECK (lane BETWEEN 0 AND 15),
    done_tick        bigint      NOT NULL,
    range_tick       bigint,
    range_first_id   bigint,
    done_id          bigint      NOT NULL DEFAULT 0,
    claimed_through  bigint,
    lease_owner      text,
    lease_expires_at timestamptz,
    lease_token      bigint      NOT NULL DEFAULT 0,
    CONSTRAINT outbox_lanes_range CHECK ((range_tick IS NULL) = (range_first_id IS NULL)),
    CONSTRAINT outbox_lanes_lease CHECK ((claimed_through IS NULL) = (lease_owner IS NULL)
                                         AND (claimed_through IS NULL) = (lease_expires_at IS NULL)
                                         AND (claimed_through IS NULL OR range_tick IS NOT NULL))
) WITH (fillfactor = 20);
WITH first AS (SELECT * FROM outbox_take_tick())
INSERT INTO outbox_lanes (lane, done_tick) SELECT l, first.id FROM first, generate_series(0, 15) l;

CREATE TABLE outbox_lane_batches (
    lane        integer     NOT NULL,
    lease_token bigint      NOT NULL,
    from_tick   bigint      NOT NULL,
    to_tick     bigint      NOT NULL,
    after_id    bigint      NOT NULL,
    through_id  bigint      NOT NULL,
    worker      text        NOT NULL,
    settled_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (lane, lease_token)
);
CREATE INDEX outbox_lane_batches_range_idx ON outbox_lane_batches (lane, to_tick, through_id);
CREATE INDEX outbox_ticks_xmax_idx ON outbox_ticks (pg_snapshot_xmax(snapshot));

-- Whether a row of the log (its lane, id and txid) lies in a lane's range: seen by the range's tick, not by the tick
-- before it, and its id in (after_id, through_id]. A SQL expression the planner inlines, so that the lane and the id
-- bounds reach outbox_log_idx.
CREATE FUNCTION outbox_in_lane_range(row_lane integer, id bigint, txid xid8, lane integer, after_id bigint,
                                     through_id bigint, seen pg_snapshot, unseen pg_snapshot) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN row_lane = lane AND id > after_id AND id <= through_id AND pg_visible_in_snapshot(txid, seen)
           AND NOT pg_visible_in_snapshot(txid, unseen);

-- The state of a row of the log (status NULL) by its lane's cursor.
CREATE FUNCTION outbox_log_status(ordering_key text, id bigint, txid xid8) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN (SELECT CASE
                WHEN pg_visible_in_snapshot(outbox_log_status.txid, lo.snapshot) THEN 'published'
                WHEN hi.id IS NULL OR NOT pg_visible_in_snapshot(outbox_log_status.txid, hi.snapshot) THEN 'pending'
                WHEN outbox_log_status.id <= l.done_id THEN 'published'
                WHEN outbox_log_status.id <= l.claimed_through THEN 'in_flight'
                ELSE 'pending' END
            FROM outbox_lanes l JOIN outbox_ticks lo ON lo.id = l.done_tick
            LEFT JOIN outbox_ticks hi ON hi.id = l.range_tick
            WHERE l.lane = outbox_lane(outbox_log_status.ordering_key, outbox_log_status.id));

-- When a row of the log was published: the settling of its lane's batch; NULL while it is not.
CREATE FUNCTION outbox_log_published_at(ordering_key text, id bigint, txid xid8) RETURNS timestamptz
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN (SELECT b.settled_at
            FROM outbox_lane_batches b JOIN outbox_ticks lo ON lo.id = b.from_tick
            JOIN outbox_ticks hi ON hi.id = b.to_tick
            WHERE b.lane = outbox_lane(outbox_log_published_at.ordering_key, outbox_log_published_at.id)
              AND b.to_tick >= (SELECT min(t.id) FROM outbox_ticks t
                                WHERE pg_snapshot_xmax(t.snapshot) > outbox_log_published_at.txid)
              AND outbox_in_lane_range(b.lane, outbox_log_published_at.id, outbox_log_published_at.txid, b.lane,
                                       b.after_id, b.through_id, hi.snapshot, lo.snapshot)
            ORDER BY b.to_tick, b.through_id LIMIT 1);

-- The lease of a row of the log in flight: its lane's (lease_owner, lease_expires_at); NULL otherwise.
CREATE FUNCTION outbox_log_lease(ordering_key text, id bigint, txid xid8) RETURNS outbox_lanes
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN (SELECT l FROM outbox_lanes l JOIN outbox_ticks lo ON lo.id = l.done_tick
            JOIN outbox_ticks hi ON hi.id = l.range_tick
            WHERE l.lane = outbox_lane(outbox_log_lease.ordering_key, outbox_log_lease.id)
              AND outbox_in_lane_range(l.lane, outbox_log_lease.id, outbox_log_lease.txid, l.lane,
                                       greatest(l.done_id, l.range_first_id - 1), l.claimed_through, hi.snapshot,
                                       lo.snapshot));

-- Every row as the console, outboxctl and other languages see it: the columns of outbox, with the state of a row in
-- the log (stored_status NULL) read from its lane: status, attempts (1 once claimed), lease and published_at.
-- Filter on stored_status, the indexed column, to reach the table's indexes; a row of the log pending or in flight
-- has an id of at least outbox_log_floor().
CREATE VIEW outbox_messages AS
SELECT o.id, o.aggregate_type, o.aggregate_id, o.event_type, o.payload, o.headers, o.dedupe_key,
    coalesce(o.status, outbox_log_status(o.ordering_key, o.id, o.txid)) AS status,
    CASE WHEN o.status IS NOT NULL THEN o.attempts
         WHEN outbox_log_status(o.ordering_key, o.id, o.txid) = 'pending' THEN 0 ELSE 1 END AS attempts,
    o.next_attempt_at, o.last_error,
    CASE WHEN o.status IS NULL THEN (outbox_log_lease(o.ordering_key, o.id, o.txid)).lease_owner
         ELSE o.lease_owner END AS lease_owner,
    CASE WHEN o.status IS NULL THEN (outbox_log_lease(o.ordering_key, o.id, o.txid)).lease_expires_at
         ELSE o.lease_expires_at END AS lease_expires_at,
    o.lease_token, o.created_at, o.updated_at,
    CASE WHEN o.status IS NULL THEN outbox_log_published_at(o.ordering_key, o.id, o.txid)
         ELSE o.published_at END AS published_at,
    o.error_signature, o.ordering_key, o.status AS stored_status, o.txid
FROM outbox o;
COMMENT ON VIEW outbox_messages IS
    'The outbox''s rows with their state, in the log (stored_status NULL) or not (migration 0028).';

-- The lowest id, from `from_id` on (from the first row when NULL), of a row of the log not yet published, or NULL
-- when every one is: the rows of the log pending or in flight in that range are those at or above it. Reads only
-- the rows written since each lane's last tick, in the partitions that can hold ids from `from_id` on: a search of
-- recent rows passes its first id and reads no older partition.
-- Here and in the claim, each lane's new rows are read in txid order, from outbox_log_txid_idx: asked for min(id) or
-- for any one row, the planner walked outbox_log_idx in id order from the lane's first row instead, through every
-- row of the lane already published (3.5 s at 2 million rows).
CREATE FUNCTION outbox_log_floor(from_id bigint DEFAULT NULL) RETURNS bigint
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN (SELECT min(first.id)
            FROM outbox_lanes l JOIN outbox_ticks lo ON lo.id = l.done_tick
            CROSS JOIN LATERAL (
                SELECT min(s.id) AS id FROM (
                    SELECT o.id FROM outbox o
                    WHERE o.status IS NULL AND outbox_lane(o.ordering_key, o.id) = l.lane
                      AND o.id >= coalesce(outbox_log_floor.from_id, '-9223372036854775808'::bigint)
                      AND o.txid >= pg_snapshot_xmin(lo.snapshot) AND NOT pg_visible_in_snapshot(o.txid, lo.snapshot)
                    ORDER BY o.txid) s)
                first);

-- The rows of the log not yet published, up to `cap` of each lane: their state (pending or in_flight) and, in
-- flight, their lane's lease. Reads only the rows written since each lane's last tick (its backlog), by
-- outbox_log_txid_idx.
CREATE FUNCTION outbox_log_unpublished(cap integer)
    RETURNS TABLE (id bigint, created_at timestamptz, event_type text, status text, lease_expires_at timestamptz)
    LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
    SELECT u.id, u.created_at, u.event_type, u.status, CASE WHEN u.status = 'in_flight' THEN l.lease_expires_at END
    FROM outbox_lanes l JOIN outbox_ticks lo ON lo.id = l.done_tick
    LEFT JOIN outbox_ticks hi ON hi.id = l.range_tick
    CROSS JOIN LATERAL (
        SELECT o.id, o.created_at, o.event_type,
            CASE WHEN hi.id IS NULL OR NOT pg_visible_in_snapshot(o.txid, hi.snapshot) OR o.id > l.claimed_through
                      OR l.claimed_through IS NULL THEN 'pending'
                 ELSE 'in_flight' END AS status
        FROM outbox o
        WHERE o.status IS NULL AND outbox_lane(o.ordering_key, o.id) = l.lane
          AND o.txid >= pg_snapshot_xmin(lo.snapshot) AND NOT pg_visible_in_snapshot(o.txid, lo.snapshot)
          AND NOT (hi.id IS NOT NULL AND pg_visible_in_snapshot(o.txid, hi.snapshot) AND o.id <= l.done_id)
        ORDER BY o.txid LIMIT outbox_log_unpublished.cap) u;
END;

-- Settles a lane's batch: the lane's cursor moves past it, and the batch is recorded with its time (the rows of the
-- log in it are published then). The caller holds the lane's row lock.
CREATE FUNCTION outbox_settle_lane(l outbox_lanes) RETURNS void
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    INSERT INTO outbox_lane_batches (lane, lease_token, from_tick, to_tick, after_id, through_id, worker)
    VALUES (l.lane, l.lease_token, l.done_tick, l.range_tick, greatest(l.done_id, l.range_first_id - 1),
            l.claimed_through, l.lease_owner);
    UPDATE outbox_lanes x SET done_id = x.claimed_through, claimed_through = NULL, lease_owner = NULL,
        lease_expires_at = NULL
    WHERE x.lane = l.lane;
END;

-- The lanes leased under the lane fences among `lease_tokens` (a lane batch's token is minus lease_token * 16 +
-- lane), locked for the caller's transaction.
CREATE FUNCTION outbox_fenced_lanes(lease_tokens bigint[]) RETURNS SETOF outbox_lanes
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    SELECT x.* FROM outbox_lanes x
    WHERE x.claimed_through IS NOT NULL
      AND (x.lane, x.lease_token) IN (SELECT (-t % 16)::integer, -t / 16 FROM unnest(lease_tokens) t WHERE t < 0)
    ORDER BY x.lane FOR UPDATE;
END;

-- The rows of the log in a leased lane batch, by the lane's state, in id order. Bitmap scans are off in the lane's
-- functions: estimated from the snapshot tests' selectivity, a range's rows look few, and a bitmap scan read every
-- row of the range and sorted it, where an index scan in id order stops at the batch's end.
CREATE FUNCTION outbox_lane_batch(l outbox_lanes) RETURNS TABLE (id bigint, created_at timestamptz)
    LANGUAGE plpgsql STABLE SET enable_bitmapscan = off AS $$
#variable_conflict use_column
DECLARE
    lo pg_snapshot := (SELECT t.snapshot FROM outbox_ticks t WHERE t.id = l.done_tick);
    hi pg_snapshot := (SELECT t.snapshot FROM outbox_ticks t WHERE t.id = l.range_tick);
BEGIN
    RETURN QUERY SELECT o.id, o.created_at FROM outbox o
    WHERE o.status IS NULL
      AND outbox_in_lane_range(outbox_lane(o.ordering_key, o.id), o.id, o.txid, l.lane,
                               greatest(l.done_id, l.range_first_id - 1), l.claimed_through, hi, lo)
    ORDER BY o.id;
END
$$;

-- A lane's next batch for `worker`: the rows of its range in id order, up to batch_size; a range is the rows seen by
-- the lane's next tick and not by its last one (a tick is taken when none sees the lane's newest row). Rows that
-- cannot go now leave the log as they are met: those of a paused event type become paused, those whose key has an
-- older row off the log not yet published or discarded (failed, dead, waiting, ...) wait behind it (its share lock
-- makes its publish or discard wait for this claim and then release them, as in outbox_claim_rows()). The lane is
-- leased with the batch; its rows are returned with the lane fence -(lease_token * 16 + lane).
CREATE FUNCTION outbox_claim_lane(worker text, batch_size integer, lease_ms bigint)
    RETURNS TABLE (id bigint, lease_token bigint, aggregate_type text, aggregate_id text, event_type text,
                   dedupe_key text, payload jsonb, headers jsonb, attempt integer, created_at timestamptz,
                   ordering_key text)
    LANGUAGE plpgsql SET enable_bitmapscan = off AS $$
#variable_conflict use_column
DECLARE
    l outbox_lanes;
    lo outbox_ticks;
    hi outbox_ticks;
    newest outbox_ticks;
    first_new xid8;
    through bigint;
    token bigint;
    left_in_log boolean;
    was outbox_lanes;
BEGIN
    FOR l IN SELECT * FROM outbox_lanes x WHERE x.claimed_through IS NULL ORDER BY random()
             FOR UPDATE SKIP LOCKED LOOP
        was := l;
        SELECT * INTO STRICT lo FROM outbox_ticks t WHERE t.id = l.done_tick;
        through := NULL;
        FOR round IN 1..8 LOOP
            IF l.range_tick IS NULL THEN
                SELECT o.txid INTO first_new FROM outbox o
                WHERE o.status IS NULL AND outbox_lane(o.ordering_key, o.id) = l.lane
                  AND o.txid >= pg_snapshot_xmin(lo.snapshot) AND NOT pg_visible_in_snapshot(o.txid, lo.snapshot)
                ORDER BY o.txid LIMIT 1;
                EXIT WHEN first_new IS NULL;
                SELECT * INTO newest FROM outbox_ticks t ORDER BY t.id DESC LIMIT 1;
                IF newest.id = lo.id OR NOT pg_visible_in_snapshot(first_new, newest.snapshot) THEN
                    newest := outbox_take_tick();
                END IF;
                l.range_tick := newest.id;
                l.done_id := 0;
                SELECT min(s.id) INTO l.range_first_id FROM (
                    SELECT o.id FROM outbox o
                    WHERE o.status IS NULL AND outbox_lane(o.ordering_key, o.id) = l.lane
                      AND o.txid >= pg_snapshot_xmin(lo.snapshot) AND o.txid < pg_snapshot_xmax(newest.snapshot)
                      AND pg_visible_in_snapshot(o.txid, newest.snapshot)
                      AND NOT pg_visible_in_snapshot(o.txid, lo.snapshot)
                    ORDER BY o.txid) s;
                l.range_first_id := coalesce(l.range_first_id, newest.last_id + 1);
            END IF;
            SELECT * INTO STRICT hi FROM outbox_ticks t WHERE t.id = l.range_tick;
            SELECT max(b.id) INTO through FROM (
                SELECT o.id FROM outbox o
                WHERE o.status IS NULL
                  AND outbox_in_lane_range(outbox_lane(o.ordering_key, o.id), o.id, o.txid, l.lane,
                                           greatest(l.done_id, l.range_first_id - 1), hi.last_id, hi.snapshot,
                                           lo.snapshot)
                ORDER BY o.id LIMIT outbox_claim_lane.batch_size) b;
            IF through IS NULL THEN
                -- The range is settled: the lane's cursor moves to its tick.
                l.done_tick := l.range_tick;
                l.range_tick := NULL;
                l.range_first_id := NULL;
                l.done_id := 0;
                lo := hi;
                CONTINUE;
            END IF;
            WITH batch AS MATERIALIZED (
                SELECT o.id, o.ordering_key, o.event_type FROM outbox o
                WHERE o.status IS NULL
                  AND outbox_in_lane_range(outbox_lane(o.ordering_key, o.id), o.id, o.txid, l.lane,
                                           greatest(l.done_id, l.range_first_id - 1), through, hi.snapshot,
                                           lo.snapshot)),
            held AS MATERIALIZED (
                SELECT b.id, b.ordering_key FROM batch b
                WHERE (SELECT EXISTS (SELECT FROM outbox_pauses WHERE scope = 'event_type' AND resumed_at IS NULL))
                  AND EXISTS (SELECT FROM outbox_pauses p WHERE p.scope = 'event_type' AND p.target = b.event_type
                                AND p.resumed_at IS NULL FOR SHARE)),
            paused AS (
                UPDATE outbox o SET status = 'paused', updated_at = now() FROM held
                WHERE o.id >= l.range_first_id AND o.id = held.id AND o.status IS NULL),
            blocked AS MATERIALIZED (
                SELECT b.id FROM batch b
                WHERE b.ordering_key IS NOT NULL AND b.id NOT IN (SELECT h.id FROM held h)
                  AND (EXISTS (SELECT FROM held h WHERE h.ordering_key = b.ordering_key AND h.id < b.id)
                       OR EXISTS (SELECT FROM outbox k
                                  WHERE k.ordering_key = b.ordering_key AND k.id < b.id
                                    AND k.status IN ('pending', 'in_flight', 'failed', 'dead', 'waiting', 'paused')
                                  FOR SHARE)))
            UPDATE outbox o SET status = 'waiting', updated_at = now() FROM blocked
            WHERE o.id >= l.range_first_id AND o.id = blocked.id AND o.status IS NULL;
            SELECT EXISTS (
                SELECT FROM outbox o
                WHERE o.status IS NULL
                  AND outbox_in_lane_range(outbox_lane(o.ordering_key, o.id), o.id, o.txid, l.lane,
                                           greatest(l.done_id, l.range_first_id - 1), through, hi.snapshot,
                                           lo.snapshot)) INTO left_in_log;
            EXIT WHEN left_in_log;
            -- Every row of the batch left the log: it is settled already.
            l.done_id := through;
            through := NULL;
        END LOOP;
        CONTINUE WHEN through IS NULL AND l IS NOT DISTINCT FROM was;
        UPDATE outbox_lanes x SET done_tick = l.done_tick, range_tick = l.range_tick,
            range_first_id = l.range_first_id, done_id = l.done_id, claimed_through = through,
            lease_owner = CASE WHEN through IS NOT NULL THEN outbox_claim_lane.worker END,
            lease_expires_at = CASE WHEN through IS NOT NULL
                                    THEN now() + outbox_claim_lane.lease_ms * interval '1 millisecond' END,
            lease_token = x.lease_token + CASE WHEN through IS NOT NULL THEN 1 ELSE 0 END
        WHERE x.lane = l.lane
        RETURNING x.lease_token INTO token;
        CONTINUE WHEN through IS NULL;
        RETURN QUERY
        SELECT o.id, -(token * 16 + l.lane), o.aggregate_type, o.aggregate_id, o.event_type, o.dedupe_key, o.payload,
            o.headers, 1, o.created_at, o.ordering_key
        FROM outbox o
        WHERE o.status IS NULL
          AND outbox_in_lane_range(outbox_lane(o.ordering_key, o.id), o.id, o.txid, l.lane,
                                   greatest(l.done_id, l.range_first_id - 1), through, hi.snapshot, lo.snapshot)
        ORDER BY o.id;
        RETURN;
    END LOOP;
END
$$;

-- The rows off the log that are due (pending, or failed and due again): the claim of migration 0027, which
-- outbox_claim() asks first.
CREATE FUNCTION outbox_claim_rows(worker text, batch_size integer, lease_ms bigint)
    RETURNS TABLE (id bigint, lease_token bigint, aggregate_type text, aggregate_id text, event_type text,
                   dedupe_key text, payload jsonb, headers jsonb, attempt integer, created_at timestamptz,
                   ordering_key text)
    LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    live_floor bigint := outbox_live_floor();
    message record;
    parked bigint;
    claimed integer := 0;
BEGIN
    -- outbox_due_idx's first entry above the floor: most claims find no row off the log due, and skip the claim.
    IF NOT EXISTS (SELECT FROM outbox o
                   WHERE o.id >= live_floor AND o.status IN ('pending', 'failed') AND o.next_attempt_at <= now()) THEN
        RETURN;
    END IF;
    FOR try IN 1..8 LOOP
        FOR message IN
            WITH candidates AS MATERIALIZED (
                SELECT o.id, o.ordering_key, o.event_type FROM outbox o
                WHERE o.id >= live_floor AND o.status IN ('pending', 'failed') AND o.next_attempt_at <= now()
                ORDER BY o.next_attempt_at, o.id LIMIT outbox_claim_rows.batch_size FOR UPDATE SKIP LOCKED),
            held AS MATERIALIZED (
                SELECT c.id FROM candidates c
                WHERE (SELECT EXISTS (SELECT FROM outbox_pauses WHERE scope = 'event_type' AND resumed_at IS NULL))
                  AND EXISTS (SELECT FROM outbox_pauses p WHERE p.scope = 'event_type' AND p.target = c.event_type
                                AND p.resumed_at IS NULL FOR SHARE)),
            paused AS (
                UPDATE outbox o SET status = 'paused', updated_at = now() FROM held
                WHERE o.id >= live_floor AND o.id = held.id RETURNING 1),
            due AS MATERIALIZED (
                SELECT c.id, c.ordering_key FROM candidates c WHERE c.id NOT IN (SELECT h.id FROM held h)),
            blocker AS MATERIALIZED (
                SELECT k.ordering_key, b.id, b.status
                FROM (SELECT DISTINCT d.ordering_key FROM due d WHERE d.ordering_key IS NOT NULL) k
                CROSS JOIN LATERAL (SELECT o.id, o.status FROM outbox o
                    WHERE o.id >= live_floor AND o.ordering_key = k.ordering_key
                      AND o.status IN ('pending', 'in_flight', 'failed', 'dead', 'waiting', 'paused')
                      AND o.id NOT IN (SELECT d.id FROM due d)
                    ORDER BY o.id LIMIT 1) b),
            parked AS (
                UPDATE outbox o SET status = 'waiting', updated_at = now()
                FROM due JOIN blocker b ON b.ordering_key = due.ordering_key
                WHERE o.id >= live_floor AND o.id = due.id AND due.id > b.id
                  AND b.status <> 'in_flight'
                  AND EXISTS (SELECT FROM outbox h
                              WHERE h.id >= live_floor AND h.id = b.id AND h.status = b.status FOR SHARE SKIP LOCKED)
                RETURNING 1),
            claimed AS (
                UPDATE outbox o SET status = 'in_flight', lease_owner = outbox_claim_rows.worker,
                    lease_expires_at = now() + outbox_claim_rows.lease_ms * interval '1 millisecond',
                    lease_token = o.lease_token + 1, attempts = o.attempts + 1, updated_at = now()
                FROM due LEFT JOIN blocker b ON b.ordering_key = due.ordering_key
                WHERE o.id >= live_floor AND o.id = due.id AND (b.id IS NULL OR due.id < b.id)
                RETURNING o.id, o.lease_token, o.aggregate_type, o.aggregate_id, o.event_type, o.dedupe_key,
                    o.payload, o.headers, o.attempts, o.created_at, o.ordering_key)
            -- One row even when nothing was claimed (its id NULL), to say how many rows were parked.
            SELECT c.*, p.parked + (SELECT count(*) FROM paused) AS parked
            FROM (SELECT count(*) AS parked FROM parked) p LEFT JOIN claimed c ON true
            ORDER BY c.id
        LOOP
            parked := message.parked;
            CONTINUE WHEN message.id IS NULL;
            id := message.id;
            lease_token := message.lease_token;
            aggregate_type := message.aggregate_type;
            aggregate_id := message.aggregate_id;
            event_type := message.event_type;
            dedupe_key := message.dedupe_key;
            payload := message.payload;
            headers := message.headers;
            attempt := message.attempts;
            created_at := message.created_at;
            ordering_key := message.ordering_key;
            claimed := claimed + 1;
            RETURN NEXT;
        END LOOP;
        EXIT WHEN claimed > 0 OR parked = 0;
    END LOOP;
END
$$;

CREATE OR REPLACE FUNCTION outbox_claim(relay text, worker text, batch_size integer, lease_ms bigint)
    RETURNS TABLE (id bigint, lease_token bigint, aggregate_type text, aggregate_id text, event_type text,
                   dedupe_key text, payload jsonb, headers jsonb, attempt integer, created_at timestamptz,
                   ordering_key text)
    LANGUAGE plpgsql AS $$
BEGIN
    IF batch_size IS NULL OR batch_size < 1 OR lease_ms IS NULL OR lease_ms < 1 THEN
        RAISE invalid_parameter_value USING
            MESSAGE = format('a claim needs a batch size and a lease of at least 1 (got %s rows, %s ms)',
                             batch_size, lease_ms);
    END IF;
    IF coalesce(relay, '') = '' OR coalesce(worker, '') = '' THEN
        RAISE invalid_parameter_value USING
            MESSAGE = 'a claim needs the relay''s name (its pauses) and the worker''s (the lease owner)';
    END IF;
    IF EXISTS (SELECT FROM outbox_pauses p
               WHERE p.scope = 'relay' AND p.target = outbox_claim.relay AND p.resumed_at IS NULL) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT * FROM outbox_claim_rows(worker, batch_size, lease_ms);
    IF NOT FOUND THEN
        RETURN QUERY SELECT * FROM outbox_claim_lane(worker, batch_size, lease_ms);
    END IF;
END
$$;

-- A lane batch is settled by whichever settling call leaves none of its rows in the log unsettled. Rows a call
-- fails or hands back leave the log (failed, dead, pending). outbox_complete() leaves the rows it confirms in the log
-- when they are all that is left of their batch, which then settles: the usual case, a batch published whole, costs
-- one row of outbox_lanes and one of outbox_lane_batches. Otherwise they leave the log as published.
CREATE FUNCTION outbox_settle_lane_if_done(l outbox_lanes) RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT FROM outbox_lane_batch(l)) THEN
        PERFORM outbox_settle_lane(l);
    END IF;
END
$$;

CREATE OR REPLACE FUNCTION outbox_complete(ids bigint[], lease_tokens bigint[])
    RETURNS TABLE (id bigint, latency_ms bigint)
    LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
#variable_conflict use_column
DECLARE
    lowest bigint;
    highest bigint;
    published bigint[];
    latencies bigint[];
    keys text[];
    l outbox_lanes;
    listed bigint[];
    in_log bigint[];
BEGIN
    PERFORM outbox_check_fences(ids, lease_tokens);
    FOR l IN SELECT * FROM outbox_fenced_lanes(lease_tokens) LOOP
        listed := ARRAY(SELECT f.id FROM unnest(ids, lease_tokens) AS f(id, token)
                        WHERE f.token = -(l.lease_token * 16 + l.lane));
        SELECT coalesce(array_agg(b.id), '{}'), array_agg(epoch_ms(now()) - epoch_ms(b.created_at))
        INTO in_log, latencies FROM outbox_lane_batch(l) b;
        IF NOT EXISTS (SELECT unnest(in_log) EXCEPT SELECT unnest(listed)) THEN
            PERFORM outbox_settle_lane(l);
            RETURN QUERY SELECT r.id, r.latency_ms FROM unnest(in_log, latencies) AS r(id, latency_ms);
        ELSE
            WITH confirmed AS (
                UPDATE outbox o SET status = 'published', published_at = now(), attempts = 1, updated_at = now()
                WHERE o.id = ANY (in_log) AND o.id = ANY (listed) AND o.id >= l.range_first_id AND o.status IS NULL
                RETURNING o.id)
            SELECT array_agg(c.id) INTO published FROM confirmed c;
            RETURN QUERY SELECT r.id, r.latency_ms FROM unnest(in_log, latencies) AS r(id, latency_ms)
                         WHERE r.id = ANY (published);
        END IF;
    END LOOP;
    SELECT min(f.id), max(f.id) INTO lowest, highest FROM unnest(ids, lease_tokens) AS f(id, token) WHERE f.token > 0;
    IF lowest IS NULL THEN
        RETURN;
    END IF;
    WITH done AS (
        UPDATE outbox o SET status = 'published', published_at = now(), lease_owner = NULL, lease_expires_at = NULL,
            updated_at = now()
        FROM unnest(ids, lease_tokens) AS f(id, token)
        WHERE o.id = f.id AND o.lease_token = f.token AND f.token > 0 AND o.status = 'in_flight'
          AND o.id BETWEEN lowest AND highest
        RETURNING o.id, epoch_ms(now()) - epoch_ms(o.created_at) AS latency_ms, o.ordering_key)
    SELECT array_agg(d.id), array_agg(d.latency_ms), array_agg(DISTINCT d.ordering_key)
        FILTER (WHERE d.ordering_key IS NOT NULL)
    INTO published, latencies, keys FROM done d;
    IF keys IS NOT NULL THEN
        PERFORM outbox_release_waiting(keys);
    END IF;
    RETURN QUERY SELECT r.id, r.latency_ms FROM unnest(published, latencies) AS r(id, latency_ms);
END
$$;

CREATE OR REPLACE FUNCTION outbox_fail(worker text, ids bigint[], lease_tokens bigint[], errors text[],
                                       backoff_ms bigint[], max_attempts integer)
    RETURNS TABLE (id bigint, dead boolean, event_type text)
    LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
#variable_conflict use_column
DECLARE
    l outbox_lanes;
BEGIN
    PERFORM outbox_check_fences(ids, lease_tokens);
    IF cardinality(errors) IS DISTINCT FROM cardinality(ids)
       OR cardinality(backoff_ms) IS DISTINCT FROM cardinality(ids) THEN
        RAISE invalid_parameter_value USING
            MESSAGE = format('%s ids but %s errors and %s backoffs: each failed row needs its error and its backoff',
                             coalesce(cardinality(ids), 0), coalesce(cardinality(errors), 0),
                             coalesce(cardinality(backoff_ms), 0));
    END IF;
    IF max_attempts IS NULL OR max_attempts < 1 OR array_position(errors, NULL) IS NOT NULL
       OR EXISTS (SELECT FROM unnest(backoff_ms) b WHERE b IS NULL OR b < 0) OR coalesce(worker, '') = '' THEN
        RAISE invalid_parameter_value USING
            MESSAGE = 'a failure needs the worker, an error and a backoff of 0 ms or more for each row, and a maximum '
                      'of attempts of at least 1';
    END IF;
    -- Rows of a lane batch leave the log at their first attempt.
    FOR l IN SELECT * FROM outbox_fenced_lanes(lease_tokens) LOOP
        RETURN QUERY
        WITH failed AS (
            UPDATE outbox o SET status = CASE WHEN 1 >= outbox_fail.max_attempts THEN 'dead' ELSE 'failed' END,
                attempts = 1, next_attempt_at = now() + f.backoff_ms * interval '1 millisecond', last_error = f.error,
                updated_at = now()
            FROM unnest(ids, lease_tokens, errors, backoff_ms) AS f(id, token, error, backoff_ms)
            WHERE f.token = -(l.lease_token * 16 + l.lane) AND o.id = f.id AND o.id >= l.range_first_id
              AND o.status IS NULL AND o.id IN (SELECT b.id FROM outbox_lane_batch(l) b)
            RETURNING o.id, o.status, o.attempts, f.error, o.event_type),
        recorded AS (
            INSERT INTO outbox_attempts (outbox_id, attempt, worker, error)
            SELECT r.id, r.attempts, outbox_fail.worker, r.error FROM failed r)
        SELECT r.id, r.status = 'dead', r.event_type FROM failed r;
        PERFORM outbox_settle_lane_if_done(l);
    END LOOP;
    RETURN QUERY
    WITH failed AS (
        UPDATE outbox o SET status = CASE WHEN o.attempts >= outbox_fail.max_attempts THEN 'dead' ELSE 'failed' END,
            next_attempt_at = now() + f.backoff_ms * interval '1 millisecond', last_error = f.error,
            lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
        FROM unnest(ids, lease_tokens, errors, backoff_ms) AS f(id, token, error, backoff_ms)
        WHERE f.token > 0 AND o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight'
        RETURNING o.id, o.status, o.attempts, f.error, o.event_type),
    recorded AS (
        INSERT INTO outbox_attempts (outbox_id, attempt, worker, error)
        SELECT r.id, r.attempts, outbox_fail.worker, r.error FROM failed r)
    SELECT r.id, r.status = 'dead', r.event_type FROM failed r;
END
$$;

CREATE OR REPLACE FUNCTION outbox_hand_back(ids bigint[], lease_tokens bigint[]) RETURNS integer
    LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
DECLARE
    changed integer;
    total integer := 0;
    l outbox_lanes;
BEGIN
    PERFORM outbox_check_fences(ids, lease_tokens);
    -- Rows of a lane batch leave the log untried: pending, due at once (behind a failed row of their key, the next
    -- claim parks them).
    FOR l IN SELECT * FROM outbox_fenced_lanes(lease_tokens) LOOP
        UPDATE outbox o SET status = 'pending', next_attempt_at = now(), updated_at = now()
        FROM unnest(ids, lease_tokens) AS f(id, token)
        WHERE f.token = -(l.lease_token * 16 + l.lane) AND o.id = f.id AND o.id >= l.range_first_id
          AND o.status IS NULL AND o.id IN (SELECT b.id FROM outbox_lane_batch(l) b);
        GET DIAGNOSTICS changed = ROW_COUNT;
        total := total + changed;
        PERFORM outbox_settle_lane_if_done(l);
    END LOOP;
    UPDATE outbox o SET status = CASE WHEN o.attempts > 1 THEN 'failed' ELSE 'pending' END,
        attempts = o.attempts - 1, lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
    FROM unnest(ids, lease_tokens) AS f(id, token)
    WHERE f.token > 0 AND o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight';
    GET DIAGNOSTICS changed = ROW_COUNT;
    RETURN total + changed;
END
$$;

CREATE OR REPLACE FUNCTION outbox_extend_leases(ids bigint[], lease_tokens bigint[], lease_ms bigint) RETURNS integer
    LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
DECLARE
    changed integer;
    lanes integer;
BEGIN
    PERFORM outbox_check_fences(ids, lease_tokens);
    IF lease_ms IS NULL OR lease_ms < 1 THEN
        RAISE invalid_parameter_value USING MESSAGE = format('a lease runs for 1 ms or more (got %s)', lease_ms);
    END IF;
    -- A lane batch's lease is its lane's: each of its rows counts as extended.
    WITH extended AS (
        UPDATE outbox_lanes x SET lease_expires_at = now() + outbox_extend_leases.lease_ms * interval '1 millisecond'
        WHERE x.claimed_through IS NOT NULL
          AND (x.lane, x.lease_token) IN (SELECT (-t % 16)::integer, -t / 16 FROM unnest(lease_tokens) t WHERE t < 0)
        RETURNING -(x.lease_token * 16 + x.lane) AS token)
    SELECT count(*) INTO lanes FROM unnest(lease_tokens) t WHERE t IN (SELECT e.token FROM extended e);
    UPDATE outbox o SET lease_expires_at = now() + outbox_extend_leases.lease_ms * interval '1 millisecond'
    FROM unnest(ids, lease_tokens) AS f(id, token)
    WHERE f.token > 0 AND o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight';
    GET DIAGNOSTICS changed = ROW_COUNT;
    RETURN lanes + changed;
END
$$;

CREATE OR REPLACE FUNCTION outbox_rescue_expired(worker text, max_attempts integer, batch_size integer DEFAULT 1000)
    RETURNS TABLE (id bigint, dead boolean, event_type text)
    LANGUAGE plpgsql AS $$
DECLARE
    ids bigint[];
    tokens bigint[];
    errors text[];
    l outbox_lanes;
BEGIN
    IF batch_size IS NULL OR batch_size < 1 THEN
        RAISE invalid_parameter_value USING MESSAGE = format('a rescue needs a batch size of at least 1 (got %s)',
                                                             batch_size);
    END IF;
    -- Lane batches whose lease expired, whole: their rows left in the log fail the attempt (outbox_fail()).
    FOR l IN SELECT * FROM outbox_lanes x WHERE x.claimed_through IS NOT NULL AND x.lease_expires_at < now()
             ORDER BY x.lease_expires_at FOR UPDATE SKIP LOCKED LOOP
        ids := ARRAY(SELECT b.id FROM outbox_lane_batch(l) b);
        IF cardinality(ids) = 0 THEN
            PERFORM outbox_settle_lane(l);
            CONTINUE;
        END IF;
        RETURN QUERY SELECT * FROM outbox_fail(worker, ids,
            array_fill(-(l.lease_token * 16 + l.lane), ARRAY[cardinality(ids)]),
            array_fill(format('lease of %s expired at %s: worker presumed crashed', l.lease_owner,
                              l.lease_expires_at), ARRAY[cardinality(ids)]),
            array_fill(0::bigint, ARRAY[cardinality(ids)]), max_attempts);
    END LOOP;
    SELECT array_agg(s.id), array_agg(s.lease_token),
           array_agg(format('lease of %s expired at %s: worker presumed crashed', s.lease_owner, s.lease_expires_at))
    INTO ids, tokens, errors
    FROM (SELECT o.id, o.lease_token, o.lease_owner, o.lease_expires_at FROM outbox o
          WHERE o.status = 'in_flight' AND o.lease_expires_at < now()
          ORDER BY o.lease_expires_at LIMIT outbox_rescue_expired.batch_size FOR UPDATE SKIP LOCKED) s;
    IF ids IS NOT NULL THEN
        RETURN QUERY SELECT * FROM outbox_fail(worker, ids, tokens, errors, array_fill(0::bigint,
                                                                                     ARRAY[cardinality(ids)]),
                                               max_attempts);
    END IF;
END
$$;

-- How long until a row is due, in milliseconds: 0 while a lane has rows of the log not yet claimed (a range to
-- finish, rows written since its tick, or rows behind the batch it has leased), and while rows wait behind a row in
-- flight (they go once it is published); otherwise as before, the earliest pending or failed row off the log.
CREATE OR REPLACE FUNCTION outbox_next_due_ms() RETURNS bigint
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    SELECT CASE
        WHEN EXISTS (SELECT FROM outbox_lanes l JOIN outbox_ticks lo ON lo.id = l.done_tick
                     LEFT JOIN outbox_ticks hi ON hi.id = l.range_tick
                     WHERE (l.claimed_through IS NULL AND l.range_tick IS NOT NULL)
                        OR (SELECT o.txid FROM outbox o
                            WHERE o.status IS NULL AND outbox_lane(o.ordering_key, o.id) = l.lane
                              AND o.txid >= pg_snapshot_xmin(lo.snapshot)
                              AND NOT pg_visible_in_snapshot(o.txid, lo.snapshot)
                              AND (l.claimed_through IS NULL OR o.id > l.claimed_through
                                   OR NOT pg_visible_in_snapshot(o.txid, hi.snapshot))
                            ORDER BY o.txid LIMIT 1) IS NOT NULL)
          OR EXISTS (SELECT FROM outbox b
                     WHERE b.status = 'in_flight' AND b.ordering_key IS NOT NULL
                       AND EXISTS (SELECT FROM outbox w WHERE w.ordering_key = b.ordering_key AND w.status = 'waiting'))
        THEN 0
        ELSE (SELECT greatest(0, epoch_ms(o.next_attempt_at) - epoch_ms(clock_timestamp())) FROM outbox o
              WHERE o.status IN ('pending', 'failed') ORDER BY o.next_attempt_at LIMIT 1) END;
END;

-- A row of the log that leaves it due (handed back, failed with no backoff, rescued) wakes sleeping relays like a
-- row off the log that becomes due: a NULL status before the change is not due.
DROP TRIGGER outbox_wake_on_due ON outbox;
CREATE TRIGGER outbox_wake_on_due AFTER UPDATE OF status, next_attempt_at ON outbox
    FOR EACH ROW
    WHEN (NEW.status IN ('pending', 'failed') AND NEW.next_attempt_at <= now()
          AND NOT coalesce(OLD.status IN ('pending', 'failed') AND OLD.next_attempt_at <= now(), false))
    EXECUTE FUNCTION outbox_wake_relays();

-- The highest id a published row of the log can have: a lane has published the rows its done tick sees, drawn
-- before the tick's snapshot and so at most the tick's last_id, and those of its range up to done_id. Reads the 16
-- lanes alone: a list of published rows starts below it, past the rows written since (a backlog while no relay
-- runs), whose state it would otherwise read one by one.
CREATE FUNCTION outbox_log_published_through() RETURNS bigint
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN (SELECT max(greatest(lo.last_id, l.done_id))
            FROM outbox_lanes l JOIN outbox_ticks lo ON lo.id = l.done_tick);

-- Retention: whether every row of the log with an id in [lower, upper) was published before `cutoff`: none of them
-- is left to publish (outbox_log_floor(lower)), and no lane batch reaching into the range settled at or after
-- it. A partition is dropped with its rows of the log only then; they are never copied (outbox_record_detached()
-- keeps the rows off the log that are to stay).
CREATE FUNCTION outbox_log_settled_before(lower bigint, upper bigint, cutoff timestamptz) RETURNS boolean
    LANGUAGE sql STABLE
    RETURN coalesce(outbox_log_floor(lower) >= upper, true)
           AND NOT EXISTS (SELECT FROM outbox_lane_batches b
                           WHERE b.settled_at >= cutoff AND b.through_id >= coalesce(lower, b.through_id)
                             AND b.after_id < upper);

-- A closed partition to take out: rows published before `cutoff` in it, off the log or in it, and every row of the
-- log in it published before `cutoff`.
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

CREATE OR REPLACE FUNCTION outbox_detach_partition(partition text, cutoff timestamptz) RETURNS boolean
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

CREATE OR REPLACE FUNCTION outbox_begin_detach(partition text, cutoff timestamptz) RETURNS text
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

-- Retention of the lanes' history: the batches whose rows all went with the partitions dropped (every id below the
-- outbox's lowest partition), up to `batch` of them, and then the ticks that neither a lane nor a batch left
-- refers to, up to `batch` of those. `outboxctl purge` calls it after dropping partitions until it returns less than
-- `batch`; returns how many rows it deleted. Both tables hold a row per batch or range, not per event.
CREATE FUNCTION outbox_forget_lane_history(batch integer) RETURNS integer
    LANGUAGE plpgsql AS $$
DECLARE
    lowest bigint := (SELECT min(coalesce(p.lower_id, '-9223372036854775808'::bigint)) FROM outbox_partitions p);
    batches integer;
    ticks integer;
BEGIN
    DELETE FROM outbox_lane_batches b
    WHERE (b.lane, b.lease_token) IN (SELECT x.lane, x.lease_token FROM outbox_lane_batches x
                                      WHERE x.through_id < lowest LIMIT outbox_forget_lane_history.batch);
    GET DIAGNOSTICS batches = ROW_COUNT;
    DELETE FROM outbox_ticks t
    WHERE t.id IN (SELECT y.id FROM outbox_ticks y
                   WHERE y.id < (SELECT min(l.done_tick) FROM outbox_lanes l)
                     AND y.id < coalesce((SELECT min(b.from_tick) FROM outbox_lane_batches b), y.id + 1)
                   ORDER BY y.id LIMIT outbox_forget_lane_history.batch);
    GET DIAGNOSTICS ticks = ROW_COUNT;
    RETURN greatest(batches, ticks);
END
$$;
