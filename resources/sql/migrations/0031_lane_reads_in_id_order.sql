-- SPDX-License-Identifier: GPL-3.0-or-later
-- Migration 0031: a lane's rows read through outbox_log_idx in id order, also on a partition not yet analyzed. The
-- planner sees every index of such a partition (a new one, for up to a minute) as nearly empty, and took
-- outbox_log_txid_idx, the smaller, with a sort by id, or, where no order was asked for, in its own order: every
-- row of the lane in the log read for a batch of them, in each claim and each completion. Now sorts are off in the
-- lane's functions and each of their reads of a lane asks for id order, so that the index in id order is the one
-- plan without a sort (the sorts they need, the lanes in random order, still run). resources/sql/schema/05_relay.sql
-- holds the same definitions and says what it cost.
ALTER FUNCTION outbox_lane_batch(outbox_lanes) SET enable_sort = off;

CREATE OR REPLACE FUNCTION outbox_claim_lane(worker text, batch_size integer, lease_ms bigint)
    RETURNS TABLE (id bigint, lease_token bigint, aggregate_type text, aggregate_id text, event_type text,
                   dedupe_key text, payload jsonb, headers jsonb, attempt integer, created_at timestamptz,
                   ordering_key text)
    LANGUAGE plpgsql SET enable_bitmapscan = off SET enable_sort = off AS $$
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
            -- In id order, as every read of the lane here, so that outbox_log_idx is the one plan without a sort.
            WITH batch AS MATERIALIZED (
                SELECT o.id, o.ordering_key, o.event_type FROM outbox o
                WHERE o.status IS NULL
                  AND outbox_in_lane_range(outbox_lane(o.ordering_key, o.id), o.id, o.txid, l.lane,
                                           greatest(l.done_id, l.range_first_id - 1), through, hi.snapshot,
                                           lo.snapshot)
                ORDER BY o.id),
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
            -- Not EXISTS: the planner drops the order of a subquery there.
            PERFORM FROM outbox o
            WHERE o.status IS NULL
              AND outbox_in_lane_range(outbox_lane(o.ordering_key, o.id), o.id, o.txid, l.lane,
                                       greatest(l.done_id, l.range_first_id - 1), through, hi.snapshot,
                                       lo.snapshot)
            ORDER BY o.id LIMIT 1;
            left_in_log := FOUND;
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
