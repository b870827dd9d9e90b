-- SPDX-License-Identifier: GPL-3.0-or-later
-- The size of every failure group kept up to date by the transactions that change a row's state, so the Failures
-- tab and the Overview read a handful of rows instead of grouping 400 k failed and dead ones; and a created-time
-- index within each status, so "created between" finds its rows whatever the status filter.

-- One row per change: writers only ever INSERT here, so two transactions failing rows of the same group never wait
-- for each other and never deadlock, whatever the order of their rows. A group's size is the sum of its deltas;
-- outbox_fold_failure_counts() compacts them (the relay calls it with every heartbeat).
CREATE TABLE outbox_failure_counts (
    signature  text   NOT NULL,
    status     text   NOT NULL CHECK (status IN ('failed', 'dead')),
    delta      bigint NOT NULL
);

CREATE FUNCTION outbox_count_failures() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.status IN ('failed', 'dead') AND OLD.error_signature IS NOT NULL THEN
        INSERT INTO outbox_failure_counts (signature, status, delta) VALUES (OLD.error_signature, OLD.status, -1);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.status IN ('failed', 'dead') AND NEW.error_signature IS NOT NULL THEN
        INSERT INTO outbox_failure_counts (signature, status, delta) VALUES (NEW.error_signature, NEW.status, 1);
    END IF;
    RETURN NULL;
END
$$;
-- The WHEN clauses keep the relay's hot path (pending -> in_flight -> published) free of any trigger call.
CREATE TRIGGER outbox_count_failures_insert AFTER INSERT ON outbox FOR EACH ROW
    WHEN (NEW.status IN ('failed', 'dead')) EXECUTE FUNCTION outbox_count_failures();
CREATE TRIGGER outbox_count_failures_update AFTER UPDATE OF status, last_error, error_signature ON outbox FOR EACH ROW
    WHEN ((OLD.status IN ('failed', 'dead') OR NEW.status IN ('failed', 'dead'))
          AND (OLD.status, OLD.error_signature) IS DISTINCT FROM (NEW.status, NEW.error_signature))
    EXECUTE FUNCTION outbox_count_failures();
CREATE TRIGGER outbox_count_failures_delete AFTER DELETE ON outbox FOR EACH ROW
    WHEN (OLD.status IN ('failed', 'dead')) EXECUTE FUNCTION outbox_count_failures();

CREATE FUNCTION outbox_reset_failure_counts() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE outbox_failure_counts;
    RETURN NULL;
END
$$;
CREATE TRIGGER outbox_count_failures_truncate AFTER TRUNCATE ON outbox FOR EACH STATEMENT
    EXECUTE FUNCTION outbox_reset_failure_counts();

-- Replaces the deltas every transaction committed so far by one row per group and status. Deltas of transactions
-- still running are invisible to the DELETE and stay. At most one fold runs at a time; another caller returns 0
-- at once. Returns the number of rows it folded away.
CREATE FUNCTION outbox_fold_failure_counts() RETURNS integer
    LANGUAGE plpgsql AS $$
DECLARE
    folded integer;
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('outbox_fold_failure_counts')) THEN
        RETURN 0;
    END IF;
    WITH moved AS (DELETE FROM outbox_failure_counts RETURNING signature, status, delta),
    summed AS (SELECT signature, status, sum(delta) AS delta, count(*) AS deltas FROM moved GROUP BY 1, 2),
    kept AS (INSERT INTO outbox_failure_counts (signature, status, delta)
             SELECT signature, status, delta FROM summed WHERE delta <> 0)
    SELECT coalesce(sum(deltas), 0) INTO folded FROM summed;
    RETURN folded;
END
$$;

-- The groups and their sizes right now, largest first, counting rows in `statuses` only: what the Failures tab and
-- the Overview show.
CREATE FUNCTION outbox_failure_group_sizes(statuses text[] DEFAULT ARRAY['failed', 'dead'],
                                           max_groups integer DEFAULT 100,
                                           OUT signature text, OUT failed bigint, OUT dead bigint)
    RETURNS SETOF record
    LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
    SELECT c.signature, coalesce(sum(c.delta) FILTER (WHERE c.status = 'failed'), 0)::bigint,
           coalesce(sum(c.delta) FILTER (WHERE c.status = 'dead'), 0)::bigint
    FROM outbox_failure_counts c WHERE c.status = ANY(statuses)
    GROUP BY c.signature HAVING sum(c.delta) > 0
    ORDER BY sum(c.delta) DESC, c.signature LIMIT max_groups;
END;

-- The rows failed or dead when this migration runs. The trigger above exists already and the table is locked
-- against writers until the migration commits, so no change is counted twice or missed.
INSERT INTO outbox_failure_counts (signature, status, delta)
SELECT error_signature, status, count(*) FROM outbox
WHERE status IN ('failed', 'dead') AND error_signature IS NOT NULL GROUP BY 1, 2;

-- "Created between", newest first, within each status (one branch per status, merged).
CREATE INDEX outbox_status_created_idx ON outbox (status, created_at, id);
