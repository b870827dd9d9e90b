-- SPDX-License-Identifier: GPL-3.0-or-later
-- Migration 0029: the log's readers bounded by what waits, not by what was written since the lanes' ticks. A list
-- of the log's pending rows, the Overview's backlog and retention's floor read, in each lane, the rows of the
-- transactions in progress at its ticks and the rows past them, in id order as far as they need; before, they read
-- every row written since the lane's done tick, the whole backlog while no relay publishes. It takes a writer's
-- transaction id before any id it draws (outbox_assign_txid), and a tick's transaction id after the last id it read
-- (outbox_ticks.next_txid), so that the rows a tick did not see are found among few transactions. Ticks taken before
-- this migration have no next_txid and are read as before. resources/sql/schema/03_outbox.sql and 05_relay.sql hold
-- the same definitions; docs/architecture.md, "The outbox as a log", says why.

-- The two tables this migration changes, locked first and in short tries (outbox_lock_briefly()), so that writers
-- and claims never queue behind a migration waiting for a long transaction; the rest takes milliseconds. Writers
-- that inserted into outbox before the trigger below have all ended once its lock is granted, so that every row
-- of a transaction still running afterwards took its transaction id before its ids.
SELECT outbox_lock_briefly(ARRAY['outbox'], 'SHARE ROW EXCLUSIVE');
SELECT outbox_lock_briefly(ARRAY['outbox_ticks'], 'ACCESS EXCLUSIVE');

ALTER TABLE outbox_ticks ADD COLUMN next_txid xid8;
COMMENT ON COLUMN outbox_ticks.next_txid IS
    'A transaction id drawn after last_id was read: every row with an id up to last_id has an older txid. NULL when '
    'the tick was taken by a transaction that had an id already (outbox_log_unseen() then reads every later one).';

-- A tick: the snapshot first, so that every id drawn after last_id is read belongs to a transaction the snapshot
-- does not see; then last_id; then, if the transaction has no id yet, its id (next_txid), drawn after last_id was
-- read and so newer than the transaction of every row with an id up to last_id (outbox_assign_txid()). The rows
-- with such ids that the snapshot does not see were written by transactions in its list of those in progress or
-- between its xmax and next_txid: few, found by outbox_log_txid_idx (outbox_log_unseen()).
CREATE OR REPLACE FUNCTION outbox_take_tick() RETURNS outbox_ticks
    LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
    fresh boolean := pg_current_xact_id_if_assigned() IS NULL;
    seen pg_snapshot := pg_current_snapshot();
    drawn bigint := (SELECT s.last_value FROM outbox_id_seq s);
    tick outbox_ticks;
BEGIN
    INSERT INTO outbox_ticks (snapshot, last_id, next_txid)
    VALUES (seen, drawn, CASE WHEN fresh THEN pg_current_xact_id() END)
    RETURNING * INTO tick;
    RETURN tick;
END
$$;

-- A claim's tick, taken first in its transaction (outbox_claim(), outbox_claim_lane()) so that it has a next_txid,
-- when the newest tick may not see every row there is: an id was drawn since, or the oldest transaction in progress
-- at it (one it does not see, with an id below its next_txid) has ended since. A claim that finds a lane's next row
-- unseen by the newest tick takes a tick there only if this one was not taken: with its transaction's id already
-- drawn, that tick has no next_txid.
CREATE FUNCTION outbox_tick_if_due() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
    newest outbox_ticks;
BEGIN
    IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
        RETURN;
    END IF;
    SELECT * INTO newest FROM outbox_ticks t ORDER BY t.id DESC LIMIT 1;
    IF newest.id IS NULL OR newest.last_id < (SELECT s.last_value FROM outbox_id_seq s)
       OR (pg_snapshot_xmin(newest.snapshot) < coalesce(newest.next_txid, pg_snapshot_xmax(newest.snapshot))
           AND pg_snapshot_xmin(newest.snapshot) < pg_snapshot_xmin(pg_current_snapshot())) THEN
        PERFORM outbox_take_tick();
    END IF;
END
$$;

-- The rows of the log in `lane` with ids in (after_id, through_id] that tick `t` did not see, through_id at most
-- t.last_id: written by transactions in progress when the tick was taken, listed in its snapshot (xip) or between
-- its xmax and its next_txid (outbox_take_tick() says why no other can hold such an id). Each found by
-- outbox_log_txid_idx, so that the cost is what those transactions wrote, not what was written since; a tick without
-- a next_txid reads every transaction from its xmax on.
CREATE FUNCTION outbox_log_unseen(lane integer, seen pg_snapshot, next_txid xid8, after_id bigint,
                                  through_id bigint)
    RETURNS TABLE (id bigint, txid xid8, created_at timestamptz, event_type text)
    LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
    -- One probe of outbox_log_txid_idx per transaction in progress (OFFSET 0 keeps the planner from joining the
    -- list to every row of the lane instead), and one range of it in txid order (its callers turn bitmap scans
    -- off: see outbox_log_floor()).
    SELECT o.id, o.txid, o.created_at, o.event_type
    FROM pg_snapshot_xip(outbox_log_unseen.seen) x(txid) CROSS JOIN LATERAL (
        SELECT o.id, o.txid, o.created_at, o.event_type FROM outbox o
        WHERE o.status IS NULL AND outbox_lane(o.ordering_key, o.id) = outbox_log_unseen.lane AND o.txid = x.txid
          AND o.id > outbox_log_unseen.after_id AND o.id <= outbox_log_unseen.through_id
        OFFSET 0) o
    UNION ALL
    (SELECT o.id, o.txid, o.created_at, o.event_type FROM outbox o
     WHERE o.status IS NULL AND outbox_lane(o.ordering_key, o.id) = outbox_log_unseen.lane
       AND o.txid >= pg_snapshot_xmax(outbox_log_unseen.seen)
       AND o.txid < coalesce(outbox_log_unseen.next_txid, '18446744073709551615'::xid8)
       AND o.id > outbox_log_unseen.after_id AND o.id <= outbox_log_unseen.through_id
     ORDER BY o.txid);
END;

-- The rows of a lane's log not yet published, from `from_id` on (from the first row when NULL): those its done tick
-- did not see among the ids it covers, less those its range has published (seen by the range's tick, up to
-- done_id); those the range's tick did not see among the ids the range has published past the done tick's; and,
-- past both, every row, of which up to `cap` in id order. Rows past a tick's last_id are not seen by it: their ids
-- were drawn after its snapshot. in_flight: within the batch the lane has leased.
CREATE FUNCTION outbox_log_lane_unpublished(l outbox_lanes, from_id bigint, cap integer)
    RETURNS TABLE (id bigint, created_at timestamptz, event_type text, in_flight boolean)
    LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
    SELECT u.id, u.created_at, u.event_type,
        coalesce(pg_visible_in_snapshot(u.txid, hi.snapshot) AND u.id <= l.claimed_through, false)
    FROM outbox_ticks lo LEFT JOIN outbox_ticks hi ON hi.id = l.range_tick
    CROSS JOIN LATERAL (SELECT coalesce(outbox_log_lane_unpublished.from_id - 1,
                                        '-9223372036854775808'::bigint) AS after_id) b
    CROSS JOIN LATERAL (
        SELECT s.id, s.txid, s.created_at, s.event_type
        FROM outbox_log_unseen(l.lane, lo.snapshot, lo.next_txid, b.after_id, lo.last_id) s
        WHERE NOT coalesce(pg_visible_in_snapshot(s.txid, hi.snapshot) AND s.id <= l.done_id, false)
        UNION ALL
        SELECT s.id, s.txid, s.created_at, s.event_type
        FROM outbox_log_unseen(l.lane, hi.snapshot, hi.next_txid, greatest(lo.last_id, b.after_id), l.done_id) s
        UNION ALL
        (SELECT o.id, o.txid, o.created_at, o.event_type FROM outbox o
         WHERE o.status IS NULL AND outbox_lane(o.ordering_key, o.id) = l.lane
           AND o.id > greatest(lo.last_id, l.done_id, b.after_id)
         ORDER BY o.id LIMIT outbox_log_lane_unpublished.cap)) u
    WHERE lo.id = l.done_tick
    ORDER BY u.id LIMIT outbox_log_lane_unpublished.cap;
END;

-- The lowest id, from `from_id` on (from the first row when NULL), of a row of the log not yet published, or NULL
-- when every one is: the rows of the log pending or in flight in that range are those at or above it. Reads a few
-- index entries per lane and partition, however many rows wait (outbox_log_lane_unpublished()); a search of recent
-- rows passes its first id and reads no older partition.
-- PL/pgSQL, its statement planned once per session (a generic plan: the partitions are pruned when it starts):
-- planning it took 10-15 ms of the 13-16 ms a call cost at 10 million rows, where the plan kept takes 1-3 ms; and
-- without JIT, which the lanes' few rows, estimated at hundreds before the table is first analyzed, made the plan
-- look costly enough to compile (5 s); and without bitmap scans: outbox_log_unseen()'s bounds on txid and on id
-- look alike to the planner, which read the lane's rows by id into a bitmap and sorted them, every row of the lane up
-- to the tick (19 s at 10 million rows), where outbox_log_txid_idx, walked in txid order, reads only the
-- transactions in progress.
CREATE OR REPLACE FUNCTION outbox_log_floor(from_id bigint DEFAULT NULL) RETURNS bigint
    LANGUAGE plpgsql STABLE PARALLEL SAFE SET jit = off SET enable_bitmapscan = off
    SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    RETURN (SELECT min(u.id) FROM outbox_lanes l
            CROSS JOIN LATERAL outbox_log_lane_unpublished(l, outbox_log_floor.from_id, 1) u);
END
$$;

-- The rows of the log not yet published, up to `cap` of each lane in id order: their state (pending or in_flight)
-- and, in flight, their lane's lease. Reads what it returns and the rows of transactions in progress at the lanes'
-- ticks (outbox_log_lane_unpublished()), however many more wait. Planned as outbox_log_floor() is (2.5 ms a call at
-- 10 million rows where planning it each time cost 10 ms).
CREATE OR REPLACE FUNCTION outbox_log_unpublished(cap integer)
    RETURNS TABLE (id bigint, created_at timestamptz, event_type text, status text, lease_expires_at timestamptz)
    LANGUAGE plpgsql STABLE PARALLEL SAFE SET jit = off SET enable_bitmapscan = off
    SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    RETURN QUERY
    SELECT u.id, u.created_at, u.event_type, CASE WHEN u.in_flight THEN 'in_flight' ELSE 'pending' END,
        CASE WHEN u.in_flight THEN l.lease_expires_at END
    FROM outbox_lanes l CROSS JOIN LATERAL outbox_log_lane_unpublished(l, NULL, outbox_log_unpublished.cap) u;
END
$$;

-- A relay whose name is paused claims nothing (outbox_relay_pause() says why). An empty result means that nothing is
-- due, or that what is due is held: behind rows of its key in flight, by another claim at that moment, or by a pause
-- of this relay; a relay that means to stop when the outbox is drained asks outbox_next_due_ms() and looks again
-- while it says 0. Call it in a transaction of its own (autocommit): the leases must be visible to everyone before
-- you publish.
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
    PERFORM outbox_tick_if_due();
    RETURN QUERY SELECT * FROM outbox_claim_rows(worker, batch_size, lease_ms);
    IF NOT FOUND THEN
        RETURN QUERY SELECT * FROM outbox_claim_lane(worker, batch_size, lease_ms);
    END IF;
END
$$;
-- A lane's next batch for `worker`: the rows of its range in id order, up to batch_size; a range is the rows seen by
-- the lane's next tick and not by its last one (a tick is taken when none sees the lane's newest row). Rows that
-- cannot go now leave the log as they are met: those of a paused event type become paused, those whose key has an
-- older row off the log not yet published or discarded (failed, dead, waiting, ...) wait behind it (its share lock
-- makes its publish or discard wait for this claim and then release them, as in outbox_claim_rows()). The lane is
-- leased with the batch; its rows are returned with the lane fence -(lease_token * 16 + lane).
CREATE OR REPLACE FUNCTION outbox_claim_lane(worker text, batch_size integer, lease_ms bigint)
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
    PERFORM outbox_tick_if_due();
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
                    -- A tick this claim took (its next_txid is this transaction's) was taken before the row
                    -- committed: the next claim's will see it. Otherwise one now, without a next_txid.
                    EXIT WHEN newest.next_txid = pg_current_xact_id();
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

-- A writer's transaction id before any id it draws: an INSERT or COPY into outbox evaluates each row's identity
-- before its txid default, so the first row of a transaction would draw its id just before the transaction got its
-- id. Taken here, once per statement and before any row, every row's txid is older than its id; a tick that reads
-- the id sequence and then takes a transaction id of its own (outbox_take_tick()) then knows that every row with an
-- id up to the one it read was written by an older transaction, and the log's readers find the rows such a tick did
-- not see among few transactions (outbox_log_unseen()) instead of every one since (migration 0029).
CREATE FUNCTION outbox_assign_txid() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_current_xact_id();
    RETURN NULL;
END
$$;
CREATE TRIGGER outbox_assign_txid BEFORE INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_assign_txid();
