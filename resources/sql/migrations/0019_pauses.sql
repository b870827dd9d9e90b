-- SPDX-License-Identifier: GPL-3.0-or-later
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

-- paused: a row of a paused event type, parked by a claim until the type is resumed. It is unpublished and counts
-- in the backlog and the lag: consumers feel the pause.
ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_status_check
    CHECK (status IN ('pending', 'in_flight', 'published', 'failed', 'dead', 'waiting', 'discarded', 'paused'))
    NOT VALID;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_status_check;
COMMENT ON COLUMN outbox.status IS
    'pending, in_flight, published, failed, dead (gave up after the maximum attempts), waiting (behind an older row '
    'of its ordering key), discarded (an operator gave up on it; never published unless retried), paused (its event '
    'type is paused; back to pending or failed when it is resumed).';

-- The backlog and the rows a key's later rows wait behind include the paused rows.
CREATE INDEX outbox_backlog_created_idx ON outbox (created_at, id)
    WHERE status IN ('pending', 'in_flight', 'failed', 'waiting', 'paused');
DROP INDEX outbox_unpublished_created_idx;
ALTER INDEX outbox_backlog_created_idx RENAME TO outbox_unpublished_created_idx;
CREATE INDEX outbox_key_rows_idx ON outbox (ordering_key, id)
    WHERE ordering_key IS NOT NULL AND status IN ('pending', 'in_flight', 'failed', 'dead', 'waiting', 'paused');
DROP INDEX outbox_ordering_idx;
ALTER INDEX outbox_key_rows_idx RENAME TO outbox_ordering_idx;

-- The relay's heartbeat says since when it honours a pause of its name (NULL: it claims).
ALTER TABLE relay_nodes ADD COLUMN paused_since timestamptz;

-- relay_node_state() as in migration 0011, with 'paused': heartbeating, and claiming nothing because its name is
-- paused. A paused relay publishes nothing, so it cannot be failing.
CREATE OR REPLACE FUNCTION relay_node_state(node relay_nodes, at timestamptz DEFAULT now()) RETURNS text
    LANGUAGE sql STABLE PARALLEL RESTRICTED
    RETURN CASE
        WHEN node.stopped_at IS NOT NULL THEN 'stopped'
        WHEN node.last_seen > pg_postmaster_start_time() AND cardinality(node.backend_pids) > 0
             AND NOT EXISTS (SELECT FROM unnest(node.backend_pids) AS p(pid), pg_stat_get_activity(p.pid))
             THEN 'gone'
        WHEN node.last_seen < at - 3 * node.heartbeat_ms * interval '1 millisecond' THEN 'stale'
        WHEN node.paused_since IS NOT NULL THEN 'paused'
        WHEN node.failing_since IS NOT NULL THEN 'failing'
        ELSE 'alive'
    END;

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
