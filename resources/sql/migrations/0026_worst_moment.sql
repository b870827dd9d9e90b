-- SPDX-License-Identifier: GPL-3.0-or-later
-- Figures and locks that hold at the worst moment (issue 48):
-- - writers of one ordering key take turns without an entry in the lock table per key;
-- - a relay found gone stays gone (a later session with one of its pids, a restart of the server);
-- - one operator action is one audit entry with its full count (continuations of its later batches);
-- - a backlog figure a console shows raises its minute's peaks (outbox_note_backlog).

-- Until now a writer of a keyed row took a transaction-scoped advisory lock per ordering key (migration 0013). Each
-- is an entry in the lock table that every session of the cluster shares (max_locks_per_transaction times
-- max_connections: 6,400 by default), so one transaction enqueuing 20,000 events of distinct keys failed with "out
-- of shared memory" (5,000 passed), and while it ran it starved every other session's lock requests.
--
-- A writer now takes its key's turn by inserting the key's hash into outbox_key_turns and deleting that row again at
-- once. The index entry stays, and points at a row that only the writer's end settles: a second writer of the key,
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

-- As in migration 0013, with the key's turn taken through outbox_key_turns instead of an advisory lock. The id drawn
-- before the row was written is kept unless another was drawn meanwhile (a writer that waited for the key): then a
-- new one, above every row written while it waited.
CREATE OR REPLACE FUNCTION outbox_order_by_key() RETURNS trigger
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

-- A relay found gone stays gone. relay_node_state() as in migration 0019, with two changes:
-- - the sessions of a relay are told from later sessions that the server gave the same pid: a session that began
--   after the relay's last heartbeat is not one it named there (each of its sessions connected before the heartbeat
--   that reported its pid);
-- - gone_at: every running relay records with its heartbeat the relays it finds gone (RelayRegistry::markGone), and
--   a recorded relay stays gone once nothing can prove it any more: after a restart of the server (every pid is
--   new, and it would read 'stale') or once one of its pids serves another session. A heartbeat of the relay itself
--   (its sessions were ended, not its process) clears it.
-- A killed relay read 'gone', then 'stale' two minutes later; it now stays 'gone' until it is purged.
ALTER TABLE relay_nodes ADD COLUMN gone_at timestamptz;
COMMENT ON COLUMN relay_nodes.gone_at IS
    'When a running relay found this one gone (its sessions closed: its process died); NULL otherwise.';
CREATE OR REPLACE FUNCTION relay_node_state(node relay_nodes, at timestamptz DEFAULT now()) RETURNS text
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

COMMENT ON COLUMN relay_nodes.failing_since IS
    'Since when the relay is failing: its sink unreachable, or publishes failed and none has succeeded since (the '
    'relay latches it at its heartbeats); NULL otherwise.';

-- One operator action, one audit entry with its full count. An action over more rows than one transaction should
-- lock (a bulk retry goes in batches of 1,000, each its own transaction with its state guard) wrote an entry per
-- batch: a retry of 1,270 rows read as two actions, and the Overview's last actions said "requeue 270 row(s)". Now
-- the first batch's entry is the action's, and each later batch writes a continuation: an entry with action_id set
-- to the action's entry, holding that batch's rows and states (so a row's own history still says when it changed)
-- but listed with the action, not as an action of its own. row_count is the action's rows: its own ids, raised by
-- every continuation as it is written (a trigger, so the count is the database's, in the continuation's
-- transaction: at every moment it says what has committed). A resume sets it to the rows it let go. Entries older
-- than this migration have none: their count is their ids'.
ALTER TABLE audit_log
    ADD COLUMN action_id bigint,
    ADD COLUMN row_count bigint;
COMMENT ON COLUMN audit_log.action_id IS
    'A continuation (a later batch) of the action whose entry this is; NULL for an action''s own entry.';
COMMENT ON COLUMN audit_log.row_count IS
    'The action''s rows: its ids and its continuations'' (or the rows a resume let go); NULL before migration 0026.';
CREATE INDEX audit_log_continuations_idx ON audit_log (action_id, id) WHERE action_id IS NOT NULL;

CREATE FUNCTION audit_log_count_rows() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
    IF NEW.action_id IS NULL THEN
        NEW.row_count := coalesce(NEW.row_count, cardinality(NEW.entity_ids));
        RETURN NEW;
    END IF;
    NEW.row_count := cardinality(NEW.entity_ids);
    -- Only the same actor's same action, and only an action's own entry, takes continuations.
    UPDATE audit_log a SET row_count = coalesce(a.row_count, cardinality(a.entity_ids)) + NEW.row_count
    WHERE a.id = NEW.action_id AND a.action_id IS NULL AND a.actor = NEW.actor AND a.action = NEW.action
      AND a.entity = NEW.entity;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'audit entry % is no action of %''s %', NEW.action_id, NEW.actor, NEW.action
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER audit_log_count_rows BEFORE INSERT ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_count_rows();

-- A backlog figure shown to an operator is a sample of its minute. The relays sample the backlog every 10 s, and the
-- console's Overview counts it live between those samples: during a broker outage it showed 608 unpublished rows
-- while the minute's peak in the charts and the CSV said 540 (a pause: 617 held, 579 charted). Whoever shows the
-- backlog notes it here, and the minute's peaks are raised to it (never lowered; the minute's last sample stays the
-- relays'), so no chart shows a lower peak than a figure the console showed in that minute. `at` is when the figure
-- was read (the database's clock), so a figure read in the last moment of a minute raises that minute; a time outside
-- the last two minutes is refused. SECURITY DEFINER: a viewer may not write backlog_samples, and this only raises
-- peaks. On a standby, or in a read-only transaction, it does nothing: a console may read from a replica.
CREATE FUNCTION outbox_note_backlog(unpublished bigint, capped boolean, oldest_ms bigint, at timestamptz)
    RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
    IF pg_is_in_recovery() OR current_setting('transaction_read_only')::boolean THEN
        RETURN;
    END IF;
    -- A millisecond of slack: the figure's time comes in whole milliseconds, rounded (epoch_ms).
    IF unpublished < 0 OR oldest_ms < 0 OR at > now() + interval '1 millisecond' OR at < now() - interval '2 minutes'
    THEN
        RAISE EXCEPTION 'not a backlog figure of the last two minutes: % rows, % ms, at %', unpublished, oldest_ms, at
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO backlog_samples AS b (bucket, sampled_at, pending, pending_capped, oldest_pending_ms, last_pending,
                                      last_pending_capped, last_oldest_pending_ms)
    VALUES (date_trunc('minute', at), at, unpublished, capped, oldest_ms, unpublished, capped, oldest_ms)
    ON CONFLICT (bucket) DO UPDATE SET pending = greatest(b.pending, EXCLUDED.pending),
                                       pending_capped = b.pending_capped OR EXCLUDED.pending_capped,
                                       oldest_pending_ms = greatest(b.oldest_pending_ms, EXCLUDED.oldest_pending_ms);
END
$$;
REVOKE EXECUTE ON FUNCTION outbox_note_backlog(bigint, boolean, bigint, timestamptz) FROM PUBLIC;
