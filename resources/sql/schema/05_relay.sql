-- SPDX-License-Identifier: GPL-3.0-or-later
-- The relays (outbox-relay) as the database sees them: their registry and its one definition of a relay's state,
-- the pauses an operator sets on a relay or an event type, the per-second throughput the relays add, the floor of
-- the partitions a claim has to look at, and the relay's protocol (claim, complete, fail, hand back, extend, rescue)
-- that a relay in any language calls. The relays write all of it; the console (fleet view, Overview, Event
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
-- are published through), and outbox_claim() reads it first and adds `id >= floor` to each of the six, which prunes
-- the partitions below it (when the plan starts, for a plan kept with the floor as a parameter). No product path changes a published row (requeues
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

-- The relay's side of the contract, for a relay in any language (docs/sql-api.md, "Writing a relay"): claim the due
-- rows, publish them, then settle each with the fencing token it was claimed with, in one transaction: published
-- (outbox_complete), failed with a backoff or dead (outbox_fail), or handed back untried (outbox_hand_back); extend
-- the leases of a batch that takes long (outbox_extend_leases); rescue the rows of relays that died
-- (outbox_rescue_expired). Every settling function changes only the rows still in flight under the token given, so a
-- relay whose lease was taken over changes nothing; each returns or counts the rows it did change. outbox-relay calls
-- these functions, so they are the one definition of the relay's protocol (tests/model/lease.pml models it).
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

-- Claims up to `batch_size` due rows (pending, or failed and due again) for `worker` of relay `relay`, leased for
-- `lease_ms` milliseconds, skipping rows that other claims hold: their status becomes in_flight, their lease token
-- grows by one and their attempt is counted. Returns them in id order, with the token each must be settled with.
-- Publish the rows of one ordering key in that order, and stop at the first that fails (settle the rest of the key
-- with outbox_hand_back): a keyed row is claimed only with, or after, every older row of its key that is not
-- published or discarded.
--
-- A keyed candidate is taken only if every older row of its key that is not published or discarded is a candidate
-- too: `blocker` is each key's oldest such row that is not, and the candidates of the key below it are taken. Those
-- above it are parked as `waiting`, out of outbox_due_idx: otherwise they would fill every later claim's candidates
-- while their blocker, a failed row retried later than they were due, sorts behind them. Parked only if the
-- blocker's share lock can be had: its publish or discard then waits for this statement, and releases the key's
-- waiting rows in a later statement that sees them. Behind a blocker in flight (or being changed) they stay pending:
-- it will not be long.
--
-- Pauses (outbox_pauses): a relay whose name is paused claims nothing (outbox_relay_pause() says why). Candidates of
-- a paused event type are `held`: parked as 'paused', out of outbox_due_idx, and not claimed; they are left out of
-- `due`, so the blocker search finds them and the later rows of their key wait behind them. The share lock on the
-- pause makes a resume wait for this claim's commit, so the resume lets go of the rows parked here too.
--
-- Every read of the outbox is bounded by the live floor (outbox_live_floor()), which keeps the partitions below it
-- out of the plan. A claim that only parked rows claims again at once (they no longer stand in the way), up to
-- eight times in all. An empty result means that nothing is due, or that what is due is held: behind rows of its
-- key in flight, by another claim at that moment, or by a pause of this relay (outbox_relay_pause()); a relay that
-- means to stop when the outbox is drained asks outbox_next_due_ms() and looks again while it says 0.
-- Call it in a transaction of its own (autocommit): the leases must be visible to everyone before you publish.
CREATE FUNCTION outbox_claim(relay text, worker text, batch_size integer, lease_ms bigint)
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
    IF batch_size IS NULL OR batch_size < 1 OR lease_ms IS NULL OR lease_ms < 1 THEN
        RAISE invalid_parameter_value USING
            MESSAGE = format('a claim needs a batch size and a lease of at least 1 (got %s rows, %s ms)',
                             batch_size, lease_ms);
    END IF;
    IF coalesce(relay, '') = '' OR coalesce(worker, '') = '' THEN
        RAISE invalid_parameter_value USING
            MESSAGE = 'a claim needs the relay''s name (its pauses) and the worker''s (the lease owner)';
    END IF;
    FOR try IN 1..8 LOOP
        FOR message IN
            WITH relay_pause AS MATERIALIZED (
                SELECT FROM outbox_pauses
                WHERE scope = 'relay' AND target = outbox_claim.relay AND resumed_at IS NULL),
            candidates AS MATERIALIZED (
                SELECT o.id, o.ordering_key, o.event_type FROM outbox o
                WHERE o.id >= live_floor AND o.status IN ('pending', 'failed') AND o.next_attempt_at <= now()
                  AND NOT EXISTS (SELECT FROM relay_pause)
                ORDER BY o.next_attempt_at, o.id LIMIT outbox_claim.batch_size FOR UPDATE SKIP LOCKED),
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
                UPDATE outbox o SET status = 'in_flight', lease_owner = outbox_claim.worker,
                    lease_expires_at = now() + outbox_claim.lease_ms * interval '1 millisecond',
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
COMMENT ON FUNCTION outbox_claim(text, text, integer, bigint) IS
    'Claims up to batch_size due rows for worker of relay, leased for lease_ms; settle each with its lease_token.';

-- Why a relay claims nothing while its name is paused: who paused it and why; no row when it is not paused.
CREATE FUNCTION outbox_relay_pause(relay text) RETURNS TABLE (paused_by text, reason text)
    LANGUAGE sql STABLE
BEGIN ATOMIC
    SELECT p.paused_by, p.reason FROM outbox_pauses p
    WHERE p.scope = 'relay' AND p.target = outbox_relay_pause.relay AND p.resumed_at IS NULL;
END;

-- Published: in_flight (under its token) -> published. Then lets go of the rows of their ordering keys that claims
-- parked behind them, in a statement of its own that sees the rows parked meanwhile (outbox_release_waiting()), as
-- it does in a READ COMMITTED transaction, PostgreSQL's default: call it in one. Returns the rows published, each
-- with its publish latency (from its creation to now, the transaction's start). The id range bounds the update, so
-- that it reads only the partitions holding these ids.
CREATE FUNCTION outbox_complete(ids bigint[], lease_tokens bigint[]) RETURNS TABLE (id bigint, latency_ms bigint)
    LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
#variable_conflict use_column
DECLARE
    lowest bigint;
    highest bigint;
    published bigint[];
    latencies bigint[];
    keys text[];
BEGIN
    PERFORM outbox_check_fences(ids, lease_tokens);
    SELECT min(f), max(f) INTO lowest, highest FROM unnest(ids) f;
    WITH done AS (
        UPDATE outbox o SET status = 'published', published_at = now(), lease_owner = NULL, lease_expires_at = NULL,
            updated_at = now()
        FROM unnest(ids, lease_tokens) AS f(id, token)
        WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight' AND o.id BETWEEN lowest AND highest
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
-- max_attempts; each failure is added to outbox_attempts with its error, as attempt of `worker`. Returns the rows
-- that changed, whether each is dead, and its event type.
CREATE FUNCTION outbox_fail(worker text, ids bigint[], lease_tokens bigint[], errors text[], backoff_ms bigint[],
                            max_attempts integer) RETURNS TABLE (id bigint, dead boolean, event_type text)
    LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
#variable_conflict use_column
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
    RETURN QUERY
    WITH failed AS (
        UPDATE outbox o SET status = CASE WHEN o.attempts >= outbox_fail.max_attempts THEN 'dead' ELSE 'failed' END,
            next_attempt_at = now() + f.backoff_ms * interval '1 millisecond', last_error = f.error,
            lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
        FROM unnest(ids, lease_tokens, errors, backoff_ms) AS f(id, token, error, backoff_ms)
        WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight'
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
-- its last error otherwise, due at once, the claim's attempt not counted. For rows not tried: the sink could not be
-- reached, or an older row of their key failed. Returns how many rows changed.
CREATE FUNCTION outbox_hand_back(ids bigint[], lease_tokens bigint[]) RETURNS integer
    LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
DECLARE
    changed integer;
BEGIN
    PERFORM outbox_check_fences(ids, lease_tokens);
    UPDATE outbox o SET status = CASE WHEN o.attempts > 1 THEN 'failed' ELSE 'pending' END,
        attempts = o.attempts - 1, lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
    FROM unnest(ids, lease_tokens) AS f(id, token)
    WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight';
    GET DIAGNOSTICS changed = ROW_COUNT;
    RETURN changed;
END
$$;

-- The heartbeat of a batch still being published: its leases run until `lease_ms` from now. Returns how many rows
-- were extended; a row rescued meanwhile (its lease had expired) is not, and must not be published.
CREATE FUNCTION outbox_extend_leases(ids bigint[], lease_tokens bigint[], lease_ms bigint) RETURNS integer
    LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
DECLARE
    changed integer;
BEGIN
    PERFORM outbox_check_fences(ids, lease_tokens);
    IF lease_ms IS NULL OR lease_ms < 1 THEN
        RAISE invalid_parameter_value USING MESSAGE = format('a lease runs for 1 ms or more (got %s)', lease_ms);
    END IF;
    UPDATE outbox o SET lease_expires_at = now() + outbox_extend_leases.lease_ms * interval '1 millisecond'
    FROM unnest(ids, lease_tokens) AS f(id, token)
    WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight';
    GET DIAGNOSTICS changed = ROW_COUNT;
    RETURN changed;
END
$$;

-- Rescue: up to `batch_size` rows in flight whose lease expired (their relay died or lost its database) fail the
-- attempt they were claimed for (outbox_fail()), due again at once: failed, or dead once their attempts reach
-- max_attempts, the lost attempt added to outbox_attempts as one of `worker`. Returns the rows rescued, whether each
-- is dead, and its event type.
CREATE FUNCTION outbox_rescue_expired(worker text, max_attempts integer, batch_size integer DEFAULT 1000)
    RETURNS TABLE (id bigint, dead boolean, event_type text)
    LANGUAGE plpgsql AS $$
DECLARE
    ids bigint[];
    tokens bigint[];
    errors text[];
BEGIN
    IF batch_size IS NULL OR batch_size < 1 THEN
        RAISE invalid_parameter_value USING MESSAGE = format('a rescue needs a batch size of at least 1 (got %s)',
                                                             batch_size);
    END IF;
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

-- How long until the earliest pending or failed row is due, in milliseconds by the database's clock: 0 when one is
-- due now, NULL when none waits. A relay whose claim took nothing sleeps that long at most (or until woken on the
-- channel outbox_due, see outbox_wake_relays()); 0 after an empty claim means that the due rows are held (see
-- outbox_claim()), so it looks again soon, backing off, rather than at once. The first entry of outbox_due_idx.
CREATE FUNCTION outbox_next_due_ms() RETURNS bigint
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    SELECT greatest(0, epoch_ms(o.next_attempt_at) - epoch_ms(clock_timestamp())) FROM outbox o
    WHERE o.status IN ('pending', 'failed') ORDER BY o.next_attempt_at LIMIT 1;
END;
