-- SPDX-License-Identifier: GPL-3.0-or-later
-- The relays (outbox-relay) as the database sees them: their registry and its one definition of a relay's state,
-- the pauses an operator sets on a relay or an event type, the per-second throughput the relays add, and the floor
-- of the partitions a claim has to look at. The relays write all of it; the console (fleet view, Overview, Event
-- types tab) and outboxctl (relays, pause, resume, event-types, forget-relays) read it.

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
    gone_at        timestamptz
);
COMMENT ON COLUMN relay_nodes.failing_since IS
    'Since when the relay is failing: its sink unreachable, or publishes failed and none has succeeded since (the '
    'relay latches it at its heartbeats); NULL otherwise.';
COMMENT ON COLUMN relay_nodes.gone_at IS
    'When a running relay found this one gone (its sessions closed: its process died); NULL otherwise.';
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
-- A relay honours a pause of its name at its next claim: the claim takes nothing, the relay says so once in its log,
-- heartbeats with paused_since set (relay_node_state() says 'paused') and looks again every idle poll. The request
-- is kept by name, not by registry row, so a relay restarted under the same name stays paused.
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

-- The relay's claim, planned over the partitions that can still hold rows to publish. The claim names the outbox six
-- times (its candidates, the rows it parks or pauses, the older rows of their ordering keys, the rows it claims), and
-- PostgreSQL 15 plans each of them once per partition with all its indexes, at every claim: with a week of daily
-- partitions beside the open one, planning a claim of 1,000 rows took 5.0-7.9 ms instead of 1.1-1.5 and running it
-- 4-10 ms more, and the relay drained 0.88-0.92 times as fast as on one table. Yet every row a claim can touch is
-- not published, and the partitions behind the oldest one that holds such a row hold published rows only.
--
-- outbox_live_floor() returns the lower bound of that oldest partition (the open partition's when all closed ones
-- are published through), and the relay reads it before each claim, which adds `id >= floor` to each of the six: a
-- constant at planning time, which prunes the partitions below it. No product path changes a published row (requeues
-- and edits take failed, dead and discarded rows, releases take waiting, paused and in-flight ones) and new rows
-- draw their ids in the open partition, so the floor stays a lower bound for every row the claim may need; a floor
-- read before a roll or a purge only prunes less. A row set back from published by hand in a partition below the
-- floor, in the instant between the two statements, is missed by that claim as if the change had come just after
-- it, and found by the next one's floor.
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
