-- SPDX-License-Identifier: GPL-3.0-or-later
-- The relays (outbox-relay) as the database sees them: their registry and its one definition of a relay's state,
-- the pauses an operator sets on a relay or an event type, the per-second throughput the relays add, the floor of
-- the partitions a claim has to look at, the log's ticks and its lanes' cursors with the state of its rows
-- (outbox_messages), and the relay's protocol (claim, complete, fail, hand back, extend, rescue) that a relay in any
-- language calls. The relays write all of it; the console (fleet view, Overview, Event types tab, the rows) and
-- outboxctl (relays, pause, resume, event-types, forget-relays, the rows) read it.

-- The relay registry. Every relay process inserts a row when it starts, heartbeats it every heartbeat_ms with
-- what it did so far, and sets stopped_at when it stops gracefully. A row whose heartbeat is older than three
-- intervals is stale: the process is presumed dead (killed, its host gone, or cut off from the database).
-- `outboxctl purge --relays --older-than D` deletes stopped and stale rows, and an operator may forget one (the
-- console's fleet list, outboxctl forget-relays); nothing else ever deletes one.
CREATE TABLE relay_nodes (
    id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name           text        NOT NULL CHECK (name <> ''),
    host           text        NOT NULL,
    pid            integer     NOT NULL,
    version        text        NOT NULL,
    -- The sink as the relay describes it, never with its credentials.
    sink           text        NOT NULL,
    workers        integer     NOT NULL CHECK (workers > 0),
    batch_size     integer     NOT NULL CHECK (batch_size > 0),
    lease_ms       bigint      NOT NULL CHECK (lease_ms > 0),
    heartbeat_ms   integer     NOT NULL CHECK (heartbeat_ms > 0),
    started_at     timestamptz NOT NULL DEFAULT now(),
    last_seen      timestamptz NOT NULL DEFAULT now(),
    stopped_at     timestamptz,
    -- Whether the relay could reach its sink at the last heartbeat, and the last problem it had with either peer:
    -- current while failing_since is set, past otherwise.
    sink_up        boolean     NOT NULL DEFAULT true,
    last_error     text,
    last_error_at  timestamptz,
    -- Totals since the process started, and rows published per second over the last heartbeat interval.
    published      bigint      NOT NULL DEFAULT 0,
    failed         bigint      NOT NULL DEFAULT 0,
    dead           bigint      NOT NULL DEFAULT 0,
    rescued        bigint      NOT NULL DEFAULT 0,
    fenced         bigint      NOT NULL DEFAULT 0,
    publish_rate   double precision NOT NULL DEFAULT 0,
    failing_since  timestamptz,
    -- The server processes of the relay's database sessions (its supervisor's and its workers'), as of its last
    -- heartbeat. When none of them is left on this server, the relay process has closed its sessions (it died):
    -- relay_node_state() says 'gone' at once instead of waiting three heartbeats for 'stale'.
    backend_pids   integer[]   NOT NULL DEFAULT '{}',
    -- Since when the relay honours a pause of its name (NULL: it claims).
    paused_since   timestamptz,
    -- The seconds before this instant are all added to outbox_throughput_seconds by this relay: a second is complete
    -- once every running relay counted past it. Set when the relay registers (it counted nothing before it ran), then
    -- with every addition; one second short of the addition's own second, since the relay's and the database's
    -- second boundaries lie apart.
    counted_until  timestamptz,
    -- Every running relay records with its heartbeat the relays it finds gone (RelayRegistry::markGone); a heartbeat
    -- of the relay itself (its sessions were ended, not its process) clears it.
    gone_at        timestamptz,
    publishing_to  text
);
COMMENT ON COLUMN relay_nodes.failing_since IS
    'Since when the relay is failing: its sink unreachable, or publishes failed and none has succeeded since (the '
    'relay latches it at its heartbeats); NULL otherwise.';
COMMENT ON COLUMN relay_nodes.gone_at IS
    'When a running relay found this one gone (its sessions closed: its process died); NULL otherwise.';
COMMENT ON COLUMN relay_nodes.publishing_to IS
    'The broker nodes (host:port, comma-separated) the relay''s workers were connected to at its last heartbeat; '
    'NULL while none is, or for a sink without nodes.';
-- The fleet view and `outboxctl relays` list the most recently seen relays; the purge walks the oldest.
CREATE INDEX relay_nodes_last_seen_idx ON relay_nodes (last_seen);

-- The one definition of a relay's state, for every client in any language, by the database's clock at `at`:
--   stopped  it signed off;
--   gone     a running relay found it gone (gone_at), or it heartbeat after this server started and none of the
--            sessions it named is left: its process died (seen within seconds; behind a connection pooler a dead
--            relay is seen only when it turns stale). A session that began after the relay's last heartbeat is not
--            one it named there (the server gave the pid again). A relay found gone stays gone, also once nothing can
--            prove it any more (a restart of the server, a pid serving another session), until it is purged;
--   stale    no heartbeat for three intervals, its sessions still open or unknown: presumed dead, or cut off from
--            the database (a partition leaves its sessions open until TCP gives up on them);
--   paused   heartbeating, and claiming nothing because its name is paused (so it cannot be failing);
--   failing  heartbeating, but its sink is unreachable or its recent publishes all fail;
--   alive    otherwise.
-- pg_stat_activity lists the pid of every session to every role, so any role that may read relay_nodes can tell.
-- The sessions are looked up by pid (pg_stat_get_activity(pid), the function behind the view, forms the row of that
-- one session): 200 relays are read in about 1 ms, where a scan of pg_stat_activity per relay took 12 ms. PARALLEL
-- RESTRICTED, not safe: pg_stat_activity is read in the leader only.
CREATE FUNCTION relay_node_state(node relay_nodes, at timestamptz DEFAULT now()) RETURNS text
    LANGUAGE sql STABLE PARALLEL RESTRICTED
    RETURN CASE
        WHEN node.stopped_at IS NOT NULL THEN 'stopped'
        WHEN node.gone_at IS NOT NULL THEN 'gone'
        WHEN node.last_seen > pg_postmaster_start_time() AND cardinality(node.backend_pids) > 0
             AND NOT EXISTS (SELECT FROM unnest(node.backend_pids) AS p(pid), pg_stat_get_activity(p.pid) AS s
                             WHERE s.backend_start <= node.last_seen)
             THEN 'gone'
        WHEN node.last_seen < at - 3 * node.heartbeat_ms * interval '1 millisecond' THEN 'stale'
        WHEN node.paused_since IS NOT NULL THEN 'paused'
        WHEN node.failing_since IS NOT NULL THEN 'failing'
        ELSE 'alive'
    END;

-- Pausing publication: an operator pauses one relay (by its name) or one event type (for every relay), with a
-- reason, and resumes it later (outboxctl pause|resume, the console's Overview).
--
-- A relay honours a pause of its name at its next claim (the pause waits for the claims under way, see
-- outbox_relay_pause_lock()): the claim takes nothing, the relay says so once in its log, heartbeats with
-- paused_since set (relay_node_state() says 'paused') and looks again every idle poll. The request is kept by name,
-- not by registry row, so a relay restarted under the same name stays paused.
--
-- A paused event type's rows are parked by the claim that meets them: due rows of that type become 'paused' and
-- leave outbox_due_idx, so later claims never scan past them however many there are; each row is touched once.
-- Rows of the type in flight when the pause came are published as usual. A resume marks the pause resumed; its
-- rows are let go in batches (outbox_release_resumed(), run by the resume itself and by every relay's heartbeat,
-- so a resume interrupted midway still completes), and the pause row goes when none is left.
CREATE TABLE outbox_pauses (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    scope       text        NOT NULL CHECK (scope IN ('relay', 'event_type')),
    target      text        NOT NULL CHECK (target <> ''),
    paused_by   text        NOT NULL DEFAULT session_user,
    reason      text        NOT NULL CHECK (length(btrim(reason)) > 0),
    paused_at   timestamptz NOT NULL DEFAULT now(),
    -- Set by the resume; the row is deleted once the type's parked rows are all let go.
    resumed_at  timestamptz,
    CONSTRAINT outbox_pauses_target_unique UNIQUE (scope, target)
);
COMMENT ON TABLE outbox_pauses IS
    'Paused relays (scope relay, target the relay''s name) and event types (scope event_type); see migration 0019.';

-- A relay's pause and its claims take turns through a transaction-scoped advisory lock on the relay's name (since
-- migration 0030): a claim holds it shared from before it reads the pauses until it commits, and a pause of the
-- relay takes it exclusively before it commits. So the pause waits for the claims under way, and every later claim
-- waits for the pause and sees it. Without it, a claim that had read the pauses just before a pause committed went
-- on to claim rows written after the pause had returned. The lock is (1869968496, hash of the name): the first key
-- ('outp') keeps it apart from the due-watch lock (1869968482, 1) and from one-key advisory locks; two names with
-- one hash only make a claim of one wait for a pause of the other.
CREATE FUNCTION outbox_relay_pause_lock(relay text) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN hashtext(relay);
COMMENT ON FUNCTION outbox_relay_pause_lock(text) IS
    'The second key of the advisory lock (1869968496, key) a relay''s claims (shared) and its pause (exclusive) take.';

CREATE FUNCTION outbox_pause_relay_waits_for_claims() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(1869968496, outbox_relay_pause_lock(NEW.target));
    RETURN NULL;
END
$$;
CREATE TRIGGER outbox_pause_relay_waits_for_claims
    AFTER INSERT OR UPDATE ON outbox_pauses
    FOR EACH ROW WHEN (NEW.scope = 'relay' AND NEW.resumed_at IS NULL)
    EXECUTE FUNCTION outbox_pause_relay_waits_for_claims();

-- Lets go up to `batch` parked rows of each resumed event type (failed if they were tried before, pending
-- otherwise, due as they were, so they go first), and deletes the pause of a type none of whose rows is left
-- parked. Returns the number of rows let go. Whoever calls it (the resume, any relay's heartbeat) takes turns with
-- the others through the pause row's lock. The rows are found by outbox_event_type_idx (event_type, status, id).
CREATE FUNCTION outbox_release_resumed(batch integer DEFAULT 10000) RETURNS integer
    LANGUAGE plpgsql AS $$
DECLARE
    pause outbox_pauses;
    released integer;
    total integer := 0;
BEGIN
    FOR pause IN SELECT * FROM outbox_pauses p WHERE p.scope = 'event_type' AND p.resumed_at IS NOT NULL
                 FOR UPDATE SKIP LOCKED LOOP
        WITH let_go AS (
            UPDATE outbox o SET status = CASE WHEN o.attempts > 0 THEN 'failed' ELSE 'pending' END, updated_at = now()
            WHERE o.id IN (SELECT r.id FROM outbox r WHERE r.event_type = pause.target AND r.status = 'paused'
                           ORDER BY r.id LIMIT batch FOR UPDATE SKIP LOCKED)
              AND o.status = 'paused'
            RETURNING 1)
        SELECT count(*) INTO released FROM let_go;
        total := total + released;
        IF released < batch AND NOT EXISTS (SELECT FROM outbox r WHERE r.event_type = pause.target
                                                                    AND r.status = 'paused') THEN
            DELETE FROM outbox_pauses p WHERE p.id = pause.id AND p.resumed_at IS NOT NULL;
        END IF;
    END LOOP;
    RETURN total;
END
$$;
COMMENT ON FUNCTION outbox_release_resumed(integer) IS
    'Lets go up to `batch` parked rows of each resumed event type; deletes the pauses with none left (migration 0019).';

-- What the relays did in each of the last minutes, second by second and per event type: the live view of the
-- console's Event types tab and `outboxctl event-types --per-second`. The per-minute rollups (metric_rollups) cannot
-- give it, and reading published_at over the last minutes would read every row published in them, up to millions.
--
-- Each relay counts in memory and adds the seconds it has finished once a second (a crash loses at most the
-- seconds not yet added, as with the rollups). A relay stamps its seconds by the database's clock: a second the
-- relay finished k seconds before it adds them is date_trunc('second', now()) - k seconds, whatever the relay
-- host's clock says. Rows older than 15 minutes are deleted by the relays as they add new ones: the table holds
-- at most 900 seconds times the event types, whatever the traffic.
CREATE TABLE outbox_throughput_seconds (
    second      timestamptz NOT NULL,
    event_type  text        NOT NULL,
    published   integer     NOT NULL DEFAULT 0,
    failed      integer     NOT NULL DEFAULT 0, -- failed attempts, retry scheduled or not
    dead        integer     NOT NULL DEFAULT 0, -- of those, the attempts that left the row dead
    PRIMARY KEY (second, event_type)
);
COMMENT ON TABLE outbox_throughput_seconds IS
    'Published rows and failed attempts per second and event type, the last 15 minutes; see migration 0020.';

-- The relay's claim of the rows off the log (outbox_claim_rows()), planned over the partitions that can still hold
-- rows for it. That claim names the outbox six times (its candidates, the rows it parks or pauses, the older rows of
-- their ordering keys, the rows it claims), and PostgreSQL 15 plans each of them once per partition with all its
-- indexes, at every claim: with a week of daily partitions beside the open one, planning a claim of 1,000 rows took
-- 5.0-7.9 ms instead of 1.1-1.5 and running it 4-10 ms more, and the relay drained 0.88-0.92 times as fast as on one
-- table. Yet every row it can touch has a status other than published, and the partitions behind the oldest one that
-- holds such a row hold none: their rows are published, or in the log (status NULL), which the lanes' claim reads
-- instead (outbox_claim_lane()).
--
-- outbox_live_floor() returns the lower bound of that oldest partition (the open partition's when no closed one
-- holds such a row), and outbox_claim_rows() reads it first and adds `id >= floor` to each of the six, which prunes
-- the partitions below it (when the plan starts, for a plan kept with the floor as a parameter). No product path
-- changes a published row (requeues and edits take failed, dead and discarded rows, releases take waiting, paused
-- and in-flight ones) and new rows draw their ids in the open partition, so the floor stays a lower bound for every
-- row the claim may need; a floor read before a roll or a purge only prunes less. A row set back from published by
-- hand in a partition below the floor, or a row of the log that leaves it there (failed, handed back, parked), in
-- the instant between the two statements, is missed by that claim as if the change had come just after it, and
-- found by the next one's floor.
CREATE FUNCTION outbox_live_floor() RETURNS bigint
    LANGUAGE plpgsql STABLE SET search_path FROM CURRENT
    -- One plan per statement for the session: the bounds are parameters, which prune the other partitions when the
    -- plan starts, so that neither planning nor running it grows with the partitions; the open partition, whose plan
    -- would go stale as it grows, is never asked.
    SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    part outbox_partitions;
    lowest bigint;
BEGIN
    FOR part IN SELECT * FROM outbox_partitions p WHERE p.upper_id IS NOT NULL ORDER BY p.upper_id LOOP
        lowest := coalesce(part.lower_id, '-9223372036854775808'::bigint);
        -- status <> 'published' as two ranges of outbox_status_id_idx, each found or not by one descent. In index
        -- order with a LIMIT, so that the index is the cheapest plan whatever the statistics say: a plan kept this
        -- long, made while a partition still held many rows to publish, could otherwise be a sequential scan (which
        -- expects to meet one at once) reading it whole at every claim long after they were published.
        IF (SELECT o.id FROM outbox o WHERE o.status < 'published' AND o.id >= lowest AND o.id < part.upper_id
            ORDER BY o.status, o.id LIMIT 1) IS NOT NULL
           OR (SELECT o.id FROM outbox o WHERE o.status > 'published' AND o.id >= lowest AND o.id < part.upper_id
               ORDER BY o.status, o.id LIMIT 1) IS NOT NULL
        THEN
            RETURN lowest;
        END IF;
    END LOOP;
    RETURN coalesce((SELECT p.lower_id FROM outbox_partitions p WHERE p.upper_id IS NULL),
                    '-9223372036854775808'::bigint);
END
$$;

-- The log: the rows of outbox with a NULL status (03_outbox.sql), each with the id of its writing transaction
-- (txid). Ticks, snapshots taken as the lanes' claims need them, cut it into ranges: a lane's range holds the rows of
-- the lane that one tick sees and the one before it does not, so that a range, once its tick is taken, gains no row
-- (a row written later is not seen by the tick, whenever it commits). Each lane has a cursor, its row of
-- outbox_lanes: the tick it is done through (done_tick), the range it is in (range_tick, from range_first_id), the id
-- it is done through within that range (done_id), and the batch it has leased (claimed_through, under lease_token).
-- A row of the log is published once its lane's cursor has moved past it; each batch that moved a cursor is recorded
-- with its time (outbox_lane_batches), which is its rows' published_at.
CREATE TABLE outbox_ticks (
    id        bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    snapshot  pg_snapshot NOT NULL,
    last_id   bigint      NOT NULL,
    taken_at  timestamptz NOT NULL DEFAULT now(),
    next_txid xid8
);
COMMENT ON TABLE outbox_ticks IS
    'Snapshots that cut the log into lane ranges: a range holds the rows seen by one tick and not by the one before.';
COMMENT ON COLUMN outbox_ticks.next_txid IS
    'A transaction id drawn after last_id was read: every row with an id up to last_id has an older txid. NULL when '
    'the tick was taken by a transaction that had an id already (outbox_log_unseen() then reads every later one).';

-- A tick: the snapshot first, so that every id drawn after last_id is read belongs to a transaction the snapshot
-- does not see; then last_id; then, if the transaction has no id yet, its id (next_txid), drawn after last_id was
-- read and so newer than the transaction of every row with an id up to last_id (outbox_assign_txid()). The rows
-- with such ids that the snapshot does not see were written by transactions in its list of those in progress or
-- between its xmax and next_txid: few, found by outbox_log_txid_idx (outbox_log_unseen()).
CREATE FUNCTION outbox_take_tick() RETURNS outbox_ticks
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

-- The lanes' cursors, one row per lane, updated by every claim and settling of a lane batch: few rows, rewritten
-- often, so kept on pages with room for their new versions (HOT updates). The lease is the lane's, not its rows'.
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
-- The 16 lanes, done through the first tick.
WITH first AS (SELECT * FROM outbox_take_tick())
INSERT INTO outbox_lanes (lane, done_tick) SELECT l, first.id FROM first, generate_series(0, 15) l;

-- Every lane batch settled, under its lane and lease token: the range it moved the lane's cursor over (the rows of
-- the log seen by to_tick and not by from_tick, with ids in (after_id, through_id]), the worker that held it, and
-- when (the published_at of its rows of the log: outbox_log_published_at(); retention, outbox_log_settled_before()).
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
-- A row's batch (outbox_log_published_at()): the first tick that can see the row, by the ticks' xmax, then its
-- lane's batches from that tick on.
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
-- transactions in progress; and without sorts (migration 0033), so that the log's indexes in lane and id order are
-- the one plan without one also where the statistics were taken before the partition held any row of the log (a
-- database upgraded from before schema 28): told that no row has a NULL status, the planner read a lane's rows
-- through another index and sorted them, 1.6-1.9 s for the floor at 10 million rows.
CREATE FUNCTION outbox_log_floor(from_id bigint DEFAULT NULL) RETURNS bigint
    LANGUAGE plpgsql STABLE PARALLEL SAFE SET jit = off SET enable_bitmapscan = off
    SET plan_cache_mode = force_generic_plan SET enable_sort = off AS $$
BEGIN
    RETURN (SELECT min(u.id) FROM outbox_lanes l
            CROSS JOIN LATERAL outbox_log_lane_unpublished(l, outbox_log_floor.from_id, 1) u);
END
$$;

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

-- The rows of the log not yet published, up to `cap` of each lane in id order: their state (pending or in_flight)
-- and, in flight, their lane's lease. Reads what it returns and the rows of transactions in progress at the lanes'
-- ticks (outbox_log_lane_unpublished()), however many more wait. Planned as outbox_log_floor() is (2.5 ms a call at
-- 10 million rows where planning it each time cost 10 ms).
CREATE FUNCTION outbox_log_unpublished(cap integer)
    RETURNS TABLE (id bigint, created_at timestamptz, event_type text, status text, lease_expires_at timestamptz)
    LANGUAGE plpgsql STABLE PARALLEL SAFE SET jit = off SET enable_bitmapscan = off
    SET plan_cache_mode = force_generic_plan SET enable_sort = off AS $$
BEGIN
    RETURN QUERY
    SELECT u.id, u.created_at, u.event_type, CASE WHEN u.in_flight THEN 'in_flight' ELSE 'pending' END,
        CASE WHEN u.in_flight THEN l.lease_expires_at END
    FROM outbox_lanes l CROSS JOIN LATERAL outbox_log_lane_unpublished(l, NULL, outbox_log_unpublished.cap) u;
END
$$;

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
    SET plan_cache_mode = force_generic_plan SET enable_sort = off AS $$
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

-- The relay's side of the contract, for a relay in any language (docs/sql-api.md, "Writing a relay"): claim the due
-- rows, publish them, then settle each with the fencing token it was claimed with, in one transaction: published
-- (outbox_complete), failed with a backoff or dead (outbox_fail), or handed back untried (outbox_hand_back); extend
-- the leases of a batch that takes long (outbox_extend_leases); rescue the rows of relays that died
-- (outbox_rescue_expired). Every settling function changes only the rows still in flight under the token given, so a
-- relay whose lease was taken over changes nothing; each returns or counts the rows it did change. outbox-relay calls
-- these functions, so they are the one definition of the relay's protocol (tests/model/lease.pml models it).
--
-- Rows of the log are claimed a lane batch at a time, leased with their lane, and carry the lane's fence, a negative
-- token: -(lease_token * 16 + lane). A settling function finds the lanes still leased under the fences it is given
-- (outbox_fenced_lanes()) and settles the rows listed with them; a batch none of whose rows is left in the log
-- settles as a whole (outbox_settle_lane_if_done()). Rows off the log (a positive token) are settled by their own
-- columns.
--
-- PL/pgSQL, not SQL functions: a PL/pgSQL statement can keep its plan for the session, as a prepared statement does,
-- where a non-inlined SQL function plans its statements again at every call. The settling functions plan theirs at
-- every call all the same (plan_cache_mode): the plan PostgreSQL keeps after five calls, made without the arrays'
-- sizes and the id range, published a batch of 1,000 rows in 140 ms instead of 22. A list of fences is two arrays of
-- the same length, ids and the lease tokens they were claimed with; arrays of different lengths are refused.
CREATE FUNCTION outbox_check_fences(ids bigint[], lease_tokens bigint[]) RETURNS void
    LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF array_ndims(ids) > 1 OR array_ndims(lease_tokens) > 1 THEN
        RAISE invalid_parameter_value USING MESSAGE = 'fences are two one-dimensional arrays: ids and lease tokens';
    END IF;
    IF cardinality(ids) IS DISTINCT FROM cardinality(lease_tokens) THEN
        RAISE invalid_parameter_value USING
            MESSAGE = format('%s ids but %s lease tokens: each id needs the token it was claimed with',
                             coalesce(cardinality(ids), 0), coalesce(cardinality(lease_tokens), 0));
    END IF;
END
$$;

-- Claims up to `batch_size` due rows for `worker` of relay `relay`, leased for `lease_ms` milliseconds, skipping rows
-- that other claims hold, and returns them in id order, with the token each must be settled with. The rows off the
-- log that are due go first (outbox_claim_rows()); only when there are none, a lane's next batch of rows of the log
-- (outbox_claim_lane()), each returned as its first attempt under the lane's fence. Publish the rows of one ordering
-- key in that order, and stop at the first that fails (settle the rest of the key with outbox_hand_back): a keyed
-- row is claimed only with, or after, every older row of its key that is not published or discarded.
--
-- A relay whose name is paused claims nothing (outbox_relay_pause() says why). An empty result means that nothing is
-- due, or that what is due is held: behind rows of its key in flight, by another claim at that moment, or by a pause
-- of this relay; a relay that means to stop when the outbox is drained asks outbox_next_due_ms() and looks again
-- while it says 0. Call it in a transaction of its own (autocommit): the leases must be visible to everyone before
-- you publish.
CREATE FUNCTION outbox_claim(relay text, worker text, batch_size integer, lease_ms bigint)
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
    -- Taken before the pauses are read, in a statement of its own, so that the read's snapshot sees a pause that
    -- committed while this claim waited (outbox_relay_pause_lock()).
    PERFORM pg_advisory_xact_lock_shared(1869968496, outbox_relay_pause_lock(relay));
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
COMMENT ON FUNCTION outbox_claim(text, text, integer, bigint) IS
    'Claims up to batch_size due rows for worker of relay, leased for lease_ms; settle each with its lease_token.';

-- The rows off the log that are due (pending, or failed and due again), claimed for outbox_claim(), which asks for
-- them first: their status becomes in_flight, their lease token grows by one and their attempt is counted.
--
-- A keyed candidate is taken only if every older row of its key that is not published or discarded is a candidate
-- too: `blocker` is each key's oldest such row that is not, and the candidates of the key below it are taken. Those
-- above it are parked as `waiting`, out of outbox_due_idx: otherwise they would fill every later claim's candidates
-- while their blocker, a failed row retried later than they were due, sorts behind them. Parked only if the
-- blocker's share lock can be had: its publish or discard then waits for this statement, and releases the key's
-- waiting rows in a later statement that sees them. Behind a blocker in flight (or being changed) they stay pending:
-- it will not be long.
--
-- Pauses (outbox_pauses): candidates of a paused event type are `held`: parked as 'paused', out of outbox_due_idx,
-- and not claimed; they are left out of `due`, so the blocker search finds them and the later rows of their key wait
-- behind them. The share lock on the pause makes a resume wait for this claim's commit, so the resume lets go of the
-- rows parked here too.
--
-- Every read of the outbox is bounded by the live floor (outbox_live_floor()), which keeps the partitions below it
-- out of the plan. A claim that only parked rows claims again at once (they no longer stand in the way), up to
-- eight times in all.
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

-- The rows of the log in a leased lane batch, by the lane's state, in id order. Bitmap scans are off in the lane's
-- functions: estimated from the snapshot tests' selectivity, a range's rows look few, and a bitmap scan read every
-- row of the range and sorted it, where an index scan in id order stops at the batch's end. So are sorts (since
-- migration 0031), and every read of a lane asks for id order: on a partition not yet analyzed (a new one, for up
-- to a minute), the planner saw every index as nearly empty and took outbox_log_txid_idx, the smaller (a
-- transaction's entries deduplicated), sorting by id or not, reading every row of the lane in the log where
-- outbox_log_idx reads the batch. One worker drained 100,000 rows just written in 2.5-2.9 s, 1.5-1.7 s since, as
-- fast as after an ANALYZE (docs/benchmarks.md).
CREATE FUNCTION outbox_lane_batch(l outbox_lanes) RETURNS TABLE (id bigint, created_at timestamptz)
    LANGUAGE plpgsql STABLE SET enable_bitmapscan = off SET enable_sort = off AS $$
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

-- Why a relay claims nothing while its name is paused: who paused it and why; no row when it is not paused.
CREATE FUNCTION outbox_relay_pause(relay text) RETURNS TABLE (paused_by text, reason text)
    LANGUAGE sql STABLE
BEGIN ATOMIC
    SELECT p.paused_by, p.reason FROM outbox_pauses p
    WHERE p.scope = 'relay' AND p.target = outbox_relay_pause.relay AND p.resumed_at IS NULL;
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

-- Published: in_flight (under its token) -> published. Then lets go of the rows of their ordering keys that claims
-- parked behind them, in a statement of its own that sees the rows parked meanwhile (outbox_release_waiting()), as
-- it does in a READ COMMITTED transaction, PostgreSQL's default: call it in one. The rows of a lane batch stay in the
-- log when they are all that is left of it, which then settles; otherwise they leave it as published (see
-- outbox_settle_lane_if_done()). Returns the rows published, each with its publish latency (from its creation to
-- now, the transaction's start). The id range bounds the update of the rows off the log, so that it reads only the
-- partitions holding these ids.
CREATE FUNCTION outbox_complete(ids bigint[], lease_tokens bigint[])
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
COMMENT ON FUNCTION outbox_complete(bigint[], bigint[]) IS
    'Marks the rows published that are still in flight under the lease token given; returns them with their latency.';

-- Failed: in_flight (under its token) -> failed, due again after its backoff_ms, or dead once its attempts reach
-- max_attempts; each failure is added to outbox_attempts with its error, as attempt of `worker`. A row of a lane
-- batch leaves the log at its first attempt, failed (or dead when max_attempts is 1). Returns the rows that changed,
-- whether each is dead, and its event type.
CREATE FUNCTION outbox_fail(worker text, ids bigint[], lease_tokens bigint[], errors text[], backoff_ms bigint[],
                            max_attempts integer) RETURNS TABLE (id bigint, dead boolean, event_type text)
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
COMMENT ON FUNCTION outbox_fail(text, bigint[], bigint[], text[], bigint[], integer) IS
    'Marks the rows failed (due again after their backoff) or dead that are still in flight under the token given.';

-- Handed back: in_flight (under its token) -> as before the claim, pending if it had never been tried, failed with
-- its last error otherwise, due at once, the claim's attempt not counted; a row of a lane batch leaves the log,
-- pending and due at once. For rows not tried: the sink could not be reached, or an older row of their key failed.
-- Returns how many rows changed.
CREATE FUNCTION outbox_hand_back(ids bigint[], lease_tokens bigint[]) RETURNS integer
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

-- The heartbeat of a batch still being published: its leases run until `lease_ms` from now (a lane batch's lease is
-- its lane's, and each of its rows listed counts as extended). Returns how many rows were extended; a row rescued
-- meanwhile (its lease had expired) is not, and must not be published.
CREATE FUNCTION outbox_extend_leases(ids bigint[], lease_tokens bigint[], lease_ms bigint) RETURNS integer
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

-- Rescue: up to `batch_size` rows in flight whose lease expired (their relay died or lost its database) fail the
-- attempt they were claimed for (outbox_fail()), due again at once: failed, or dead once their attempts reach
-- max_attempts, the lost attempt added to outbox_attempts as one of `worker`. Lane batches whose lease expired go
-- first, whole: their rows left in the log fail their first attempt and leave it, and the batch settles. Returns the
-- rows rescued, whether each is dead, and its event type.
CREATE FUNCTION outbox_rescue_expired(worker text, max_attempts integer, batch_size integer DEFAULT 1000)
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

-- How long until a row is due, in milliseconds by the database's clock: 0 while a lane has rows of the log not yet
-- claimed (a range to finish, rows written since its tick, or rows behind the batch it has leased), and while rows
-- wait behind a row in flight (they go once it is published); otherwise until the earliest pending or failed row off
-- the log is due (the first entry of outbox_due_idx): 0 when one is due now, NULL when none waits. A relay whose
-- claim took nothing sleeps that long at most (or until woken on the channel outbox_due, see outbox_wake_relays());
-- 0 after an empty claim means that the due rows are held (see outbox_claim()), so it looks again soon, backing off,
-- rather than at once.
CREATE FUNCTION outbox_next_due_ms() RETURNS bigint
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
