-- SPDX-License-Identifier: GPL-3.0-or-later
-- Migration 0030: a relay's pause and its claims take turns. outbox_claim() read the pauses in one statement and
-- claimed in later ones, each with its own snapshot, so a claim that had read them just before a pause committed
-- could claim rows written after the pause had returned. Now a claim holds an advisory lock on its relay's name
-- shared until it commits, and a pause of the relay takes it exclusively: the pause waits for the claims under way,
-- and every later claim sees it. resources/sql/schema/05_relay.sql holds the same definitions.

-- The trigger below needs outbox_pauses locked against writes (a pause or resume at that moment), taken in short
-- tries (outbox_lock_briefly()); claims only read the table and go on.
SELECT outbox_lock_briefly(ARRAY['outbox_pauses'], 'SHARE ROW EXCLUSIVE');

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
CREATE OR REPLACE FUNCTION outbox_claim(relay text, worker text, batch_size integer, lease_ms bigint)
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
