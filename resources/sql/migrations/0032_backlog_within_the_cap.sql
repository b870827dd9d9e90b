-- SPDX-License-Identifier: GPL-3.0-or-later
-- Migration 0032: the log's backlog counted within the figure's cap. The Overview, the Event types tab and the
-- backlog gauge counted the rows of the log not yet published up to their cap in each lane
-- (outbox_log_unpublished()), 16 times the rows the figure shows when a backlog waits (371 ms for the Overview
-- with 300,000 rows waiting); outbox_log_unpublished_within() reads as many as the figure's cap in all and says
-- where it stopped. resources/sql/schema/05_relay.sql holds the same definition.

-- The rows of the log not yet published, read within `budget` rows in all (migration 0032), for the figures capped
-- at budget - 1 (the Overview, the Event types tab, the backlog gauge), where outbox_log_unpublished() reads up to
-- its cap in each lane, 16 times the figure's. Each lane in id order: first an equal share of the budget, then what
-- the lanes with fewer rows left over, shared among the others, until the budget is spent or every lane read to
-- its end. Of each lane not read to its end, its next row is returned too, with `more` set (and, if its lane is
-- leased, that lease's expiry whether or not the row is in the lease): the counts of the rows read are then lower
-- bounds, and its created_at says whether the rows past it may be overdue. Reads at most budget + 16 rows and the
-- rows of the transactions in progress at the lanes' ticks, however many wait. Planned as outbox_log_floor().
CREATE FUNCTION outbox_log_unpublished_within(budget integer)
    RETURNS TABLE (id bigint, created_at timestamptz, event_type text, status text, lease_expires_at timestamptz,
                   more boolean)
    LANGUAGE plpgsql STABLE PARALLEL SAFE SET jit = off SET enable_bitmapscan = off
    SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    lanes outbox_lanes[] := ARRAY(SELECT l FROM outbox_lanes l ORDER BY l.lane);
    next_id bigint[] := array_fill(NULL::bigint, ARRAY[cardinality(lanes)]);
    open boolean[] := array_fill(true, ARRAY[cardinality(lanes)]);
    open_lanes integer := cardinality(lanes);
    left_over integer := greatest(budget, 0);
    share integer;
    take integer;
    ids bigint[];
    created timestamptz[];
    types text[];
    in_flight boolean[];
BEGIN
    WHILE left_over > 0 AND open_lanes > 0 LOOP
        share := ceil(left_over::numeric / open_lanes)::integer;
        FOR i IN 1..cardinality(lanes) LOOP
            CONTINUE WHEN NOT open[i];
            take := least(share, left_over);
            EXIT WHEN take = 0;
            -- One row more than taken, read once: whether the lane goes on, and where.
            SELECT array_agg(u.id ORDER BY u.id), array_agg(u.created_at ORDER BY u.id),
                   array_agg(u.event_type ORDER BY u.id), array_agg(u.in_flight ORDER BY u.id)
            INTO ids, created, types, in_flight
            FROM outbox_log_lane_unpublished(lanes[i], next_id[i], take + 1) u;
            ids := coalesce(ids, '{}');
            RETURN QUERY
            SELECT r.id, r.created_at, r.event_type, CASE WHEN r.in_flight THEN 'in_flight' ELSE 'pending' END,
                CASE WHEN r.in_flight THEN lanes[i].lease_expires_at END, false
            FROM unnest(ids[1:take], created[1:take], types[1:take], in_flight[1:take])
                AS r(id, created_at, event_type, in_flight);
            left_over := left_over - least(cardinality(ids), take);
            IF cardinality(ids) > take THEN
                next_id[i] := ids[take + 1];
            ELSE
                open[i] := false;
                open_lanes := open_lanes - 1;
            END IF;
        END LOOP;
    END LOOP;
    FOR i IN 1..cardinality(lanes) LOOP
        CONTINUE WHEN NOT open[i];
        RETURN QUERY
        SELECT u.id, u.created_at, u.event_type, CASE WHEN u.in_flight THEN 'in_flight' ELSE 'pending' END,
            CASE WHEN lanes[i].claimed_through IS NOT NULL THEN lanes[i].lease_expires_at END, true
        FROM outbox_log_lane_unpublished(lanes[i], next_id[i], 1) u;
    END LOOP;
END
$$;
