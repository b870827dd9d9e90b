-- SPDX-License-Identifier: GPL-3.0-or-later
-- Figures that stay true during an incident.

-- A backlog sample no longer overwrites its minute: the minute keeps the peak of every gauge (pending,
-- pending_capped, oldest_pending_ms) and, beside it, the last sample (last_*). A peak that ends before its minute
-- does survives in the charts and the CSV. One row per minute, so the UPDATE below is small.
ALTER TABLE backlog_samples
    ADD COLUMN last_pending bigint,
    ADD COLUMN last_pending_capped boolean,
    ADD COLUMN last_oldest_pending_ms bigint;
UPDATE backlog_samples
SET last_pending = pending, last_pending_capped = pending_capped, last_oldest_pending_ms = oldest_pending_ms;
ALTER TABLE backlog_samples
    ALTER COLUMN last_pending SET NOT NULL,
    ALTER COLUMN last_pending_capped SET NOT NULL,
    ALTER COLUMN last_oldest_pending_ms SET NOT NULL;
COMMENT ON COLUMN backlog_samples.pending IS 'the largest sample of the minute';
COMMENT ON COLUMN backlog_samples.oldest_pending_ms IS 'the largest sample of the minute';
COMMENT ON COLUMN backlog_samples.last_pending IS 'the last sample of the minute';

-- failing_since: set while the relay's sink is unreachable or, over its last heartbeat interval, it had failed
-- publishes and no successful one (the relay judges this at each heartbeat); NULL otherwise. last_error and
-- last_error_at are its newest problem: current while failing_since is set, past otherwise.
-- backend_pids: the server processes of the relay's database sessions (its supervisor's and its workers'), as of
-- its last heartbeat. When none of them is left on this server, the relay process has closed its sessions (it
-- died): relay_node_state() says 'gone' at once instead of waiting three heartbeats for 'stale'.
ALTER TABLE relay_nodes
    ADD COLUMN failing_since timestamptz,
    ADD COLUMN backend_pids integer[] NOT NULL DEFAULT '{}';

-- The one definition of a relay's state, for every client in any language, by the database's clock at `at`:
--   stopped  it signed off;
--   gone     it heartbeat after this server started, and none of the sessions it named is left: its process died
--            (seen within seconds; behind a connection pooler a dead relay is seen only when it turns stale);
--   stale    no heartbeat for three intervals, its sessions still open or unknown: presumed dead, or cut off from
--            the database (a partition leaves its sessions open until TCP gives up on them);
--   failing  heartbeating, but its sink is unreachable or its recent publishes all fail;
--   alive    otherwise.
-- pg_stat_activity lists the pid of every session to every role, so any role that may read relay_nodes can tell.
-- The sessions are looked up by pid (pg_stat_get_activity(pid), the function behind the view): 200 relays are read
-- in about 1 ms, where a scan of pg_stat_activity per relay took 12 ms.
DROP FUNCTION relay_node_state(timestamptz, timestamptz, integer, timestamptz);
CREATE FUNCTION relay_node_state(node relay_nodes, at timestamptz DEFAULT now()) RETURNS text
    -- Restricted, not safe: pg_stat_activity is read in the leader only.
    LANGUAGE sql STABLE PARALLEL RESTRICTED
    RETURN CASE
        WHEN node.stopped_at IS NOT NULL THEN 'stopped'
        WHEN node.last_seen > pg_postmaster_start_time() AND cardinality(node.backend_pids) > 0
             -- pg_stat_get_activity(pid) forms the row of that one session (none if it is gone); the view
             -- pg_stat_activity would form every session's row for each relay.
             AND NOT EXISTS (SELECT FROM unnest(node.backend_pids) AS p(pid), pg_stat_get_activity(p.pid))
             THEN 'gone'
        WHEN node.last_seen < at - 3 * node.heartbeat_ms * interval '1 millisecond' THEN 'stale'
        WHEN node.failing_since IS NOT NULL THEN 'failing'
        ELSE 'alive'
    END;
