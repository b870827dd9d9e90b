-- SPDX-License-Identifier: GPL-3.0-or-later
-- The transactional outbox: a service adds the messages a transaction publishes to `outbox` in that same transaction
-- (outbox_enqueue(), or a plain INSERT in any language), and the relays (outbox-relay) claim the due rows, publish
-- them to the sink and record the outcome; the console and outboxctl list, search, requeue, discard and edit rows.
-- This file: the table and its attempts, a row's lane in the log (outbox_lane()), its partitions and their
-- registry, the dedupe window, ordering keys, the wake-up of sleeping relays, and the SQL API's enqueue. Rolling and
-- dropping partitions: 04_partitions.sql; the log's ticks, its lanes' cursors and the relay's protocol: 05_relay.sql.
--
-- The outbox is a log: a row that the relay publishes at its first try is written once, by its writer, and never
-- updated. Its status stays NULL ("in the log") and its fate is its lane's: the relay claims a lane's rows a batch at
-- a time and settles the batch by moving the lane's cursor (one row of outbox_lanes), not the rows. A row that leaves
-- that path (a failed publish, a hand-back, a wait behind an older row of its key, a paused event type, an
-- operator's action) gets a status and lives from then on by its own columns. outbox_messages (05_relay.sql) shows
-- every row with its state, in the log or not.
--
-- The outbox is partitioned by ranges of id, so that retention drops whole partitions instead of deleting rows
-- (docs/architecture.md, "Retention by partition", says why this layout and not another). Partitions: closed ones,
-- [lower, upper), and exactly one open one, [lower, MAXVALUE), that every new row goes to, whatever its created_at
-- (an import or a skewed clock lands where retention reaches it). There is no default partition: a range up to
-- MAXVALUE cannot miss a row. outbox_partitions lists them.

CREATE TABLE outbox (
    id                bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    aggregate_type    text        NOT NULL,
    aggregate_id      text        NOT NULL,
    event_type        text        NOT NULL,
    payload           jsonb       NOT NULL,
    headers           jsonb       NOT NULL DEFAULT '{}'::jsonb,
    -- The message's identity for consumers, unique within the dedupe window (see outbox_define_dedupe_window()).
    dedupe_key        text        NOT NULL,
    -- NULL: a row in the log, pending, in flight or published by its lane's cursor (outbox_log_status()).
    -- waiting: a keyed row that a claim found behind an older row of its key which was neither claimed with it nor
    -- in flight (failing, dead, delayed, itself waiting, or due but further back in the claim's order), parked so
    -- that it leaves the claim's index instead of filling every claim's candidates; published or discarded, that
    -- older row lets the key's waiting rows go (outbox_release_waiting). discarded: an operator gave up on the row
    -- (dead or failed) so that its key flows again; it is never published unless retried. paused: a row of a paused
    -- event type, parked by a claim until the type is resumed (see outbox_pauses).
    status            text        CHECK (status IN ('pending', 'in_flight', 'published', 'failed', 'dead', 'waiting',
                                                    'discarded', 'paused')),
    attempts          integer     NOT NULL DEFAULT 0,
    next_attempt_at   timestamptz NOT NULL DEFAULT now(),
    last_error        text,
    lease_owner       text,
    lease_expires_at  timestamptz,
    -- Fencing token: incremented by every claim; a completion must present the token it claimed with.
    lease_token       bigint      NOT NULL DEFAULT 0,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    published_at      timestamptz,
    -- outbox_error_signature(last_error), written by the trigger outbox_sign_last_error (06_failures.sql).
    error_signature   text,
    -- Rows that share an ordering key reach the sink in the order of their ids; rows without one are unordered.
    ordering_key      text,
    -- The writing transaction: a row in the log belongs to the lane range of the first tick that sees it.
    txid              xid8        DEFAULT pg_current_xact_id(),
    CONSTRAINT outbox_lease CHECK (status <> 'in_flight' OR (lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL))
) PARTITION BY RANGE (id);
COMMENT ON COLUMN outbox.status IS
    'NULL: in the log, its fate its lane''s (pending, in flight or published: see the view outbox_messages); otherwise '
    'pending, in_flight, published, failed, dead (gave up after the maximum attempts), waiting (behind an older row '
    'of its ordering key), discarded (an operator gave up on it; never published unless retried), paused (its event '
    'type is paused; back to pending or failed when it is resumed).';
COMMENT ON COLUMN outbox.ordering_key IS
    'Rows with the same key are published in id order (outbox_enqueue: aggregate_type:aggregate_id); NULL: unordered.';
COMMENT ON COLUMN outbox.txid IS
    'The writing transaction (pg_current_xact_id()): a row in the log belongs to the lane range of the first tick '
    'whose snapshot sees it.';

-- The lanes of the log: its rows are published by 16 lanes, each claimed by one relay worker at a time, a key's rows
-- all by one lane so that they go in id order (05_relay.sql holds the lanes' cursors).
CREATE FUNCTION outbox_lane(ordering_key text, id bigint) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN ordering_key IS NULL THEN (id & 15)::integer ELSE hashtext(ordering_key) & 15 END;
COMMENT ON FUNCTION outbox_lane(text, bigint) IS
    'The lane (0-15) of a row in the log: its ordering key''s, so that a key''s rows are published by one lane.';

-- Every index below is declared on the partitioned table, so each partition gets its own copy. A unique index must
-- contain the partition key, so dedupe_key's is per partition (outbox_open_partition()).

-- The relay's claim of the rows off the log: due rows only, so published and dead rows never enter the scan.
CREATE INDEX outbox_due_idx ON outbox (next_attempt_at, id) WHERE status IN ('pending', 'failed');
-- Lease rescue and stuck in-flight detection.
CREATE INDEX outbox_lease_idx ON outbox (lease_expires_at) WHERE status = 'in_flight';
-- Console listing by status (keyset on id) and requeue by status; outbox_live_floor() finds a partition's rows not
-- yet published as two ranges of it.
CREATE INDEX outbox_status_id_idx ON outbox (status, id);
-- Retention of published rows by age: a partition's rows published before or after the cutoff.
CREATE INDEX outbox_published_at_idx ON outbox (published_at) WHERE status = 'published';
-- "Aggregate id" filter and the order -> events link.
CREATE INDEX outbox_aggregate_id_idx ON outbox (aggregate_id, id);
-- The failure groups: rows that need an operator, by signature (counts read this index only) and, within a
-- group, by event type (the event types affected, read by skipping through it).
CREATE INDEX outbox_failure_groups_idx ON outbox (error_signature, event_type, status)
    WHERE status IN ('failed', 'dead');
-- A group's rows, newest first (the list filtered to a group, Retry group's frozen set).
CREATE INDEX outbox_failure_group_rows_idx ON outbox (error_signature, status, id)
    WHERE status IN ('failed', 'dead');
-- Search: "error contains" reads a trigram index (pg_trgm, 01_common.sql), an event type its own index within each
-- status. outbox_release_resumed() finds a resumed event type's paused rows by the latter.
CREATE INDEX outbox_last_error_trgm_idx ON outbox USING gin (last_error gin_trgm_ops) WHERE last_error IS NOT NULL;
CREATE INDEX outbox_event_type_idx ON outbox (event_type, status, id);
-- "Created between", newest first, within each status (one branch per status, merged); outbox_describe_partitions()
-- reads a closed partition's created range through it.
CREATE INDEX outbox_status_created_idx ON outbox (status, created_at, id);
-- The dead rows that block their ordering key: every later row of the key waits behind such a row until an operator
-- retries or discards it. The Overview counts them (the blocked keys), and the console's "Blocking keys only" filter
-- lists them, newest first; a failed row is not among them, since it is retried on its own. Few rows, whatever the
-- table's size: a filter that matches nothing reads an empty index.
CREATE INDEX outbox_blocking_idx ON outbox (id) WHERE status = 'dead' AND ordering_key IS NOT NULL;
-- The backlog (its count and the age of its oldest row: the outbox lag) off the log: every row not yet published or
-- given up on. It includes the waiting and paused rows: they are not published, and a key held up behind a dead row,
-- or an event type paused, is lag that consumers feel. The log's backlog is outbox_log_unpublished()'s.
CREATE INDEX outbox_unpublished_created_idx ON outbox (created_at, id)
    WHERE status IN ('pending', 'in_flight', 'failed', 'waiting', 'paused');
-- The rows of a key not yet published or discarded, oldest first: a claim finds each key's oldest row that it did
-- not take, and a completion the key's waiting rows. Unkeyed rows are not in it.
CREATE INDEX outbox_ordering_idx ON outbox (ordering_key, id)
    WHERE ordering_key IS NOT NULL AND status IN ('pending', 'in_flight', 'failed', 'dead', 'waiting', 'paused');
-- The rows of the log, by lane: a lane's range in id order (a claim's batch, outbox_lane_batch()), and the rows
-- written since a tick (outbox_log_floor(), outbox_log_unpublished(): the transactions at or after the tick's xmin).
CREATE INDEX outbox_log_idx ON outbox (outbox_lane(ordering_key, id), id) WHERE status IS NULL;
CREATE INDEX outbox_log_txid_idx ON outbox (outbox_lane(ordering_key, id), txid) WHERE status IS NULL;

-- Every failed attempt to publish a row. No foreign key to outbox: one to a partitioned table would forbid dropping a
-- partition while any attempt points into it. Attempts are deleted with their range by outboxctl purge
-- (outbox_purge_attempts(), 04_partitions.sql).
CREATE TABLE outbox_attempts (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    outbox_id   bigint      NOT NULL,
    attempt     integer     NOT NULL,
    worker      text        NOT NULL,
    error       text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    -- outbox_error_signature(error), written by the trigger outbox_attempts_sign_error (06_failures.sql).
    signature   text
);
CREATE INDEX outbox_attempts_outbox_idx ON outbox_attempts (outbox_id, id);
-- Error grouping over a time window.
CREATE INDEX outbox_attempts_created_idx ON outbox_attempts (created_at);
-- When a failure group was first and last seen.
CREATE INDEX outbox_attempts_signature_idx ON outbox_attempts (signature, created_at);

-- The partitions: outbox_roll() (04_partitions.sql) closes the open partition and opens the next;
-- outbox_detach_partition() and outbox_drop_detached() drop a closed one whose rows were published long enough ago.
CREATE TABLE outbox_partitions (
    name      text        PRIMARY KEY,
    -- NULL: MINVALUE (outbox_from_min, the table a database upgraded to partitions kept its rows in).
    lower_id  bigint,
    -- NULL: the open partition (MAXVALUE).
    upper_id  bigint,
    opened_at timestamptz NOT NULL DEFAULT now(),
    closed_at timestamptz,
    -- Set by outbox_roll()'s first step: the bound the open partition is being closed at.
    closing_at_id bigint,
    -- The created_at of the oldest and newest rows of a closed partition, once outbox_describe_partitions() read
    -- them (NULL: not yet): a search of a created range skips the partitions that end before it. Rows only leave a
    -- closed partition, so the range stays true.
    min_created_at timestamptz,
    max_created_at timestamptz,
    CONSTRAINT outbox_partitions_closed CHECK ((upper_id IS NULL) = (closed_at IS NULL))
);
-- At most one open partition.
CREATE UNIQUE INDEX outbox_partitions_open_idx ON outbox_partitions ((true)) WHERE upper_id IS NULL;
COMMENT ON TABLE outbox_partitions IS
    'The partitions of outbox (migration 0021): closed ones [lower_id, upper_id) and one open one [lower_id, MAXVALUE).';

-- Opens the partition [lower, MAXVALUE): its indexes come from the parent; its own unique index on dedupe_key is the
-- one outbox_check_dedupe_keys() relies on for the rows written next to each other.
CREATE FUNCTION outbox_open_partition(lower bigint) RETURNS text
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    name text := 'outbox_from_' || lower;
BEGIN
    EXECUTE format('CREATE TABLE %I PARTITION OF outbox FOR VALUES FROM (%s) TO (MAXVALUE)', name, lower);
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I UNIQUE (dedupe_key)', name, name || '_dedupe_key_unique');
    INSERT INTO outbox_partitions (name, lower_id) VALUES (name, lower);
    RETURN name;
END
$$;
-- The first partition: every id from 1 on, until the first roll.
SELECT outbox_open_partition(1);

-- The dedupe key's window: a key is refused while a row with it is in the open partition or in the partition closed
-- last, that is for at least the time between two rolls (a day with the purge's default --partition-age). Looking in
-- every partition instead cost a probe of each one's index per insert: with eight closed partitions single-row
-- inserts went from 2,000-2,600 to 1,400-1,500 per second, and more once those indexes no longer fit in memory.
--
-- The open partition's own unique index on dedupe_key refuses a key written twice in it (two writers of one key
-- racing there too). outbox_check_dedupe_keys(), a statement trigger, looks for each inserted key in the closed part
-- of the window (the partition closed last), probing it once per inserted row (a LATERAL subquery with a LIMIT, which
-- the planner cannot turn into a join), since a join planned for one statement's row count (a hash over the whole
-- partition, for a bulk insert) would be reused for the next statement's. outbox_find_dedupe_key() looks in the
-- closed part the same way (outbox_find_closed_dedupe_key()), and in the open partition with a statement planned at
-- each call (EXECUTE), on the partition's size at that moment. outbox_enqueue() looks in the closed part before its
-- insert and in the open partition only when the insert met the key (ON CONFLICT: the unique index's own probe), so a
-- new key costs no planning.
--
-- The window's bounds are written into those three functions as constants, so that their plans reach only the
-- partitions in it; outbox_define_dedupe_window() writes them again whenever a roll moves the window, under the
-- roll's exclusive lock. Their cached plans stay right while the open partition grows: a PL/pgSQL statement without
-- parameters keeps the plan made at its first run in a session, and one planned over the open partition while it
-- had a page or two read it sequentially, ever slower as it grew (single-row inserts fell from 4,400-6,100 to 400-540
-- per second), whereas the closed part's size no longer changes once a roll has rewritten the functions.
--
-- The partitions in the window behind the open one hold only committed rows, since a partition is closed under an
-- exclusive lock: a writer in READ COMMITTED (PostgreSQL's default) sees every one of them. A writer whose snapshot
-- is older than the close (REPEATABLE READ) might not, so the guarantee is for READ COMMITTED writers;
-- docs/architecture.md says so. The check runs as the writer, who needs SELECT on outbox (as outbox_enqueue does):
-- as SECURITY DEFINER with its own search_path it halved the rate of single-row inserts.
CREATE FUNCTION outbox_define_dedupe_window() RETURNS bigint
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    first_id bigint;
    open_lower bigint;
    -- The window's closed part, as a condition on o.id: false while no partition is closed, no lower bound for the
    -- partition the outbox was before 0021.
    closed_ids text;
BEGIN
    SELECT p.lower_id INTO first_id FROM outbox_partitions p
    ORDER BY p.upper_id IS NULL, p.upper_id DESC LIMIT 1;
    SELECT p.lower_id INTO STRICT open_lower FROM outbox_partitions p WHERE p.upper_id IS NULL;
    closed_ids := CASE
        WHEN first_id = open_lower THEN 'false'
        WHEN first_id IS NULL THEN format('o.id < %s', open_lower)
        ELSE format('o.id >= %s AND o.id < %s', first_id, open_lower) END;
    EXECUTE format($definition$
CREATE OR REPLACE FUNCTION outbox_check_dedupe_keys() RETURNS trigger
    LANGUAGE plpgsql AS $body$
DECLARE
    duplicate text;
BEGIN
    SELECT i.dedupe_key INTO duplicate
    FROM outbox_inserted i
    CROSS JOIN LATERAL (SELECT FROM outbox o WHERE %1$s AND o.dedupe_key = i.dedupe_key AND o.id <> i.id LIMIT 1) found
    LIMIT 1;
    IF FOUND THEN
        RAISE unique_violation USING
            MESSAGE = 'duplicate key value violates unique constraint "outbox_dedupe_key_unique"',
            DETAIL = format('Key (dedupe_key)=(%%s) already exists.', duplicate),
            CONSTRAINT = 'outbox_dedupe_key_unique', TABLE = 'outbox', COLUMN = 'dedupe_key';
    END IF;
    RETURN NULL;
END
$body$
$definition$, closed_ids);
    EXECUTE format($definition$
CREATE OR REPLACE FUNCTION outbox_find_closed_dedupe_key(key text) RETURNS bigint
    LANGUAGE plpgsql STABLE AS $body$
BEGIN
    RETURN (SELECT o.id FROM outbox o WHERE %s AND o.dedupe_key = key LIMIT 1);
END
$body$
$definition$, closed_ids);
    EXECUTE format($definition$
CREATE OR REPLACE FUNCTION outbox_find_dedupe_key(key text) RETURNS bigint
    LANGUAGE plpgsql STABLE AS $body$
DECLARE
    found bigint := outbox_find_closed_dedupe_key(key);
BEGIN
    IF found IS NULL THEN
        EXECUTE 'SELECT o.id FROM outbox o WHERE o.id >= %s AND o.dedupe_key = $1 LIMIT 1' INTO found USING key;
    END IF;
    RETURN found;
END
$body$
$definition$, open_lower);
    COMMENT ON FUNCTION outbox_find_closed_dedupe_key(text) IS
        'The row with this dedupe key in the partition closed last, or NULL; rewritten by outbox_define_dedupe_window().';
    COMMENT ON FUNCTION outbox_find_dedupe_key(text) IS
        'The row with this dedupe key in the dedupe window, or NULL; rewritten by outbox_define_dedupe_window().';
    RETURN first_id;
END
$$;
-- Writes outbox_check_dedupe_keys(), outbox_find_closed_dedupe_key() and outbox_find_dedupe_key() for the window of
-- the first partition.
SELECT outbox_define_dedupe_window();
CREATE TRIGGER outbox_check_dedupe_keys AFTER INSERT ON outbox REFERENCING NEW TABLE AS outbox_inserted
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_check_dedupe_keys();

-- A dedupe key is the message's identity (consumers deduplicate on it): it never changes, which also spares every
-- update the check above.
CREATE FUNCTION outbox_keep_dedupe_key() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.dedupe_key IS DISTINCT FROM OLD.dedupe_key THEN
        RAISE feature_not_supported USING
            MESSAGE = format('the dedupe key of outbox row %s cannot change: it is the message''s identity', OLD.id);
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER outbox_keep_dedupe_key BEFORE UPDATE OF dedupe_key ON outbox
    FOR EACH ROW EXECUTE FUNCTION outbox_keep_dedupe_key();

-- Ordering keys. The guarantee: a keyed row is handed to a sink only when every older row of its key is published or
-- discarded, or is claimed in the same batch (the relay then publishes the key's rows of the batch in id order and
-- stops at the first that fails). So for any key the first deliveries are increasing in id; a redelivery (a relay
-- killed after the broker confirmed) can repeat a row, never overtake one.
--
-- Ids in commit order within a key. An identity value is drawn before the row is written, so two writers of one
-- key could commit their rows in the opposite order of their ids, and a relay would publish the later id first
-- (the older one was not visible yet). The writer therefore takes the key's turn (writers of one key commit one at
-- a time) and, if any id was drawn after its own meanwhile, draws a new one: a writer that waited for the key gets
-- an id above every row written while it waited. Without such a draw (a writer that did not wait, or one that nobody
-- overtook) ids stay contiguous. Another key (or an unkeyed row) never waits.
--
-- A writer takes its key's turn by inserting the key's hash into outbox_key_turns and deleting that row again at
-- once, not with an advisory lock per key: each of those is an entry in the lock table that every session of the
-- cluster shares (max_locks_per_transaction times max_connections: 6,400 by default), so one transaction enqueuing
-- 20,000 events of distinct keys failed with "out of shared memory" and starved every other session's lock requests.
-- The index entry stays, and points at a row that only the writer's end settles: a second writer of the key,
-- inserting the same hash, finds a row "in insertion by another transaction" (the unique check looks no further)
-- and waits for that transaction to end, holding one lock while it waits; it then finds the row deleted (or never
-- committed) and goes on. So writers of one key still commit one at a time, while a writer holds no lock per key:
-- a transaction of any size holds two (the table's and its index's), and writers of other keys never wait for it.
-- Two keys whose hashes collide (64 bits) share a turn, which costs only waiting. The table is unlogged: its rows
-- matter only while their transaction runs, so it writes no WAL, and a crash or a failover that leaves it empty
-- loses nothing. Autovacuum removes the dead rows; a row of a transaction that wrote the same key twice is its own
-- to see through (deleted by itself), so a key repeated in one transaction does not wait for itself.
CREATE UNLOGGED TABLE outbox_key_turns (
    key_hash bigint PRIMARY KEY
);
COMMENT ON TABLE outbox_key_turns IS
    'Whose turn it is to write an ordering key: rows inserted and deleted at once by outbox_order_by_key(); empty '
    'but for dead rows (migration 0026).';

-- SECURITY DEFINER: a service's role may insert rows without any right on the id's sequence.
CREATE FUNCTION outbox_order_by_key() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
    turn tid;
BEGIN
    INSERT INTO outbox_key_turns (key_hash) VALUES (hashtextextended(NEW.ordering_key, 0)) RETURNING ctid INTO turn;
    DELETE FROM outbox_key_turns WHERE ctid = turn;
    IF NEW.id <> (SELECT last_value FROM outbox_id_seq) THEN
        NEW.id := nextval('outbox_id_seq'::regclass);
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER outbox_order_by_key BEFORE INSERT ON outbox
    FOR EACH ROW WHEN (NEW.ordering_key IS NOT NULL) EXECUTE FUNCTION outbox_order_by_key();

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

-- Lets the waiting rows of `keys` go: they are claimable again (failed if they were tried before), and the next
-- claim parks again those still behind an older row of their key that it does not claim with them. Call it in the
-- transaction that published or discarded rows of these keys, as a statement of its own after that change: it must
-- see the rows that claims parked behind them meanwhile (a claim that parks a row holds a share lock on the row it
-- parks behind, so the change waits for that claim to commit, and a later statement sees its parked rows). Returns
-- the number of rows let go.
CREATE FUNCTION outbox_release_waiting(keys text[]) RETURNS integer
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    WITH released AS (
        UPDATE outbox o SET status = CASE WHEN o.attempts > 0 THEN 'failed' ELSE 'pending' END, updated_at = now()
        WHERE o.ordering_key = ANY (keys) AND o.status = 'waiting'
        RETURNING 1)
    SELECT count(*)::integer FROM released;
END;

-- Relays wake within milliseconds of a row becoming due, instead of at their next poll.
--
-- A relay with nothing to do holds the due-watch lock, the advisory lock (1869968482, 1) in exclusive mode, on its
-- session that LISTENs on the channel outbox_due. A transaction that makes rows due (any INSERT into outbox, in any
-- language, outbox_enqueue() included; an operator's requeue; rows handed back or rescued) notifies that channel
-- only when it cannot take the lock in shared mode, that is only while some relay sleeps (or waits to).
--
-- Why not NOTIFY always: a transaction that notified takes a database-wide lock at commit and holds it through the
-- commit's WAL flush, so notifying transactions commit one at a time. Measured with pgbench creating orders (key,
-- order and outbox row in one statement, fsync on): plain NOTIFY on every insert cost 36 % of the creates at
-- 4 clients and 54-61 % at 16. The shared try-lock costs no more than the measurement's noise; the relay
-- benchmark (outbox-bench wakeup) measures the create path with a relay running.
--
-- Why it loses nothing: a writer that took the lock in shared mode holds it until its commit, so a relay that
-- goes to sleep gets the lock only after that commit, and looks for due rows once more after getting it. A writer
-- that found the lock taken notifies, and the notification is delivered at its commit. A notification lost with a
-- connection costs at most the relay's fallback poll.
CREATE FUNCTION outbox_wake_relays() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock_shared(1869968482, 1) THEN
        PERFORM pg_notify('outbox_due', '');
    END IF;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION outbox_wake_relays() IS
    'Notifies outbox_due when a sleeping relay holds the due-watch lock (advisory lock 1869968482, 1).';

-- Once per INSERT statement, whatever it inserts: a new row is due at once unless its next_attempt_at says later,
-- and a relay that wakes for a row due later only looks and goes back to sleep.
CREATE TRIGGER outbox_wake_on_insert AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_wake_relays();

-- Per row, but only for a row that was not due and now is: an operator's requeue, a hand-back, a rescue. A row of
-- the log that leaves it due (handed back, failed with no backoff, rescued) counts too: a NULL status before the
-- change is not due. The relay's own claims and completions never match, so they pay for the WHEN clause alone.
CREATE TRIGGER outbox_wake_on_due AFTER UPDATE OF status, next_attempt_at ON outbox
    FOR EACH ROW
    WHEN (NEW.status IN ('pending', 'failed') AND NEW.next_attempt_at <= now()
          AND NOT coalesce(OLD.status IN ('pending', 'failed') AND OLD.next_attempt_at <= now(), false))
    EXECUTE FUNCTION outbox_wake_relays();

-- The SQL API: adds a message for the relay to publish when the caller's transaction commits. `dedupe_key` is the
-- message's identity for consumers (default: a new UUID); enqueueing a key that exists already in the dedupe window
-- adds nothing and returns the existing row's id, so a retried enqueue cannot publish twice. The ordering key
-- defaults to the aggregate's (aggregate_type:aggregate_id), so one aggregate's events are published in order;
-- `ordered => false` leaves the row unordered (published as soon as possible, in parallel).
CREATE FUNCTION outbox_enqueue(aggregate_type text, aggregate_id text, event_type text, payload jsonb,
                               headers jsonb DEFAULT '{}', dedupe_key text DEFAULT NULL,
                               ordering_key text DEFAULT NULL, ordered boolean DEFAULT true) RETURNS bigint
    LANGUAGE plpgsql AS $$
DECLARE
    message_key text := coalesce(outbox_enqueue.dedupe_key, gen_random_uuid()::text);
    key text := CASE WHEN outbox_enqueue.ordered
                     THEN coalesce(outbox_enqueue.ordering_key,
                                   outbox_enqueue.aggregate_type || ':' || outbox_enqueue.aggregate_id) END;
    added bigint;
BEGIN
    IF outbox_enqueue.dedupe_key IS NOT NULL THEN
        added := outbox_find_closed_dedupe_key(message_key);
        IF added IS NOT NULL THEN
            RETURN added;
        END IF;
    END IF;
    INSERT INTO outbox AS o (aggregate_type, aggregate_id, event_type, payload, headers, dedupe_key, ordering_key)
    VALUES (outbox_enqueue.aggregate_type, outbox_enqueue.aggregate_id, outbox_enqueue.event_type,
            outbox_enqueue.payload, coalesce(outbox_enqueue.headers, '{}'), message_key, key)
    ON CONFLICT DO NOTHING
    RETURNING o.id INTO added;
    IF added IS NULL THEN
        added := outbox_find_dedupe_key(message_key);
    END IF;
    RETURN added;
END
$$;
