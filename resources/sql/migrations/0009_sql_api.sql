-- SPDX-License-Identifier: GPL-3.0-or-later
-- The contract as SQL functions, for services in any language: each is called inside the caller's own
-- transaction, so the caller's domain rows, the outbox row and the idempotency key commit together or not at all.
-- The C++ library calls the same functions: there is one definition of each rule.

-- Serialises everyone working on one (scope, key) for the rest of the transaction, without waiting: false when
-- another transaction holds it. A 64-bit hash collision between two keys only costs a spurious 'in_progress' that
-- the client retries. The one definition: everything that may claim a key takes this lock.
CREATE FUNCTION idempotency_try_lock(scope text, key text) RETURNS boolean
    LANGUAGE sql VOLATILE
    RETURN pg_try_advisory_xact_lock(hashtextextended(scope || chr(31) || key, 0));

-- Whether a key's record may be claimed afresh: its TTL passed, its failure released the key, or the worker that
-- held it stopped renewing its lease (crashed). The one definition, also for the library's released-failure trace.
CREATE FUNCTION idempotency_reusable(k idempotency_keys) RETURNS boolean
    LANGUAGE sql STABLE
    RETURN k.expires_at <= now() OR (k.status = 'failed' AND k.failure_retryable)
        OR (k.status = 'in_progress' AND k.locked_until <= now());

-- Replays not yet counted into idempotency_keys.replay_count: a replay only adds a row here, so it writes no row
-- version of the key and waits for no WAL flush (the table is unlogged; its transaction commits asynchronously).
-- idempotency_fold_replays() applies them in one statement; relays and orders-service call it every few seconds.
-- A crash of the server loses the rows not yet folded (an unlogged table is emptied): a few seconds of replay
-- counts, never a response.
CREATE UNLOGGED TABLE idempotency_replays (
    key_id       bigint      NOT NULL,
    replayed_at  timestamptz NOT NULL DEFAULT now()
);

-- The record of (scope, key) as idempotency_begin() judges it for a request with `fingerprint` (all NULL when
-- there is none).
CREATE FUNCTION idempotency_record(scope text, key text, fingerprint text,
                                   OUT id bigint, OUT fingerprint_matches boolean, OUT status text,
                                   OUT response_status integer, OUT response_body jsonb, OUT order_id bigint,
                                   OUT replayable boolean, OUT reusable boolean, OUT lease_left_ms bigint)
    LANGUAGE sql STABLE
BEGIN ATOMIC
    SELECT k.id, k.fingerprint = idempotency_record.fingerprint, k.status, k.response_status, k.response_body,
           k.order_id,
           k.fingerprint = idempotency_record.fingerprint AND k.expires_at > now()
               AND (k.status = 'completed' OR (k.status = 'failed' AND NOT k.failure_retryable)),
           idempotency_reusable(k), greatest(epoch_ms(k.locked_until) - epoch_ms(now()), 0)
    FROM idempotency_keys k WHERE k.scope = idempotency_record.scope AND k.idem_key = idempotency_record.key;
END;

-- Claims (scope, key) for a request whose fingerprint is `fingerprint`, or says why not:
--   'execute'     the caller owns the key now: do the work, then idempotency_complete() or idempotency_fail() in
--                 the same transaction (taken_over: an expired, released or abandoned record was reused);
--   'replay'      the same request was answered before: response_status, response_body and resource_id are that
--                 answer. One indexed read; the replay is counted through idempotency_replays;
--   'mismatch'    the key was used with a different request;
--   'in_progress' another request with this key is executing: retry after retry_after_ms.
-- A concurrent duplicate is answered 'in_progress' at once: the claim takes a transaction-scoped advisory lock
-- without waiting for it. `lease` is how long an uncommitted-then-abandoned claim blocks duplicates (the two-phase
-- form commits the claim and completes later); `ttl` how long the answer is replayed.
CREATE FUNCTION idempotency_begin(scope text, key text, fingerprint text,
                                  lease interval DEFAULT interval '30 seconds',
                                  ttl interval DEFAULT interval '24 hours',
                                  OUT outcome text, OUT record_id bigint, OUT taken_over boolean,
                                  OUT response_status integer, OUT response_body jsonb, OUT resource_id bigint,
                                  OUT retry_after_ms bigint)
    LANGUAGE plpgsql AS $$
DECLARE
    found_row record;
BEGIN
    taken_over := false;
    retry_after_ms := 0;
    SELECT * INTO found_row
    FROM idempotency_record(idempotency_begin.scope, idempotency_begin.key, idempotency_begin.fingerprint);
    IF found_row.id IS NULL THEN
        -- A new key: insert it in progress, unless a concurrent request holds the key's lock (its insert is not
        -- committed yet) or inserted it since the read above (then read it again).
        IF NOT idempotency_try_lock(idempotency_begin.scope, idempotency_begin.key) THEN
            outcome := 'in_progress';
            retry_after_ms := 1000;
            RETURN;
        END IF;
        INSERT INTO idempotency_keys AS k (scope, idem_key, fingerprint, status, locked_until, expires_at)
        VALUES (idempotency_begin.scope, idempotency_begin.key, idempotency_begin.fingerprint, 'in_progress',
                now() + idempotency_begin.lease, now() + idempotency_begin.ttl)
        ON CONFLICT ON CONSTRAINT idempotency_keys_scope_key_unique DO NOTHING
        RETURNING k.id INTO record_id;
        IF record_id IS NOT NULL THEN
            outcome := 'execute';
            RETURN;
        END IF;
        SELECT * INTO found_row
        FROM idempotency_record(idempotency_begin.scope, idempotency_begin.key, idempotency_begin.fingerprint);
        IF found_row.id IS NULL THEN
            outcome := 'in_progress';
            retry_after_ms := 1000;
            RETURN;
        END IF;
    END IF;
    record_id := found_row.id;
    IF found_row.replayable THEN
        INSERT INTO idempotency_replays (key_id) VALUES (found_row.id);
        PERFORM set_config('synchronous_commit', 'off', true);
        outcome := 'replay';
        response_status := found_row.response_status;
        response_body := found_row.response_body;
        resource_id := found_row.order_id;
        RETURN;
    END IF;
    IF found_row.reusable THEN
        UPDATE idempotency_keys k
        SET fingerprint = idempotency_begin.fingerprint, status = 'in_progress', failure_retryable = NULL,
            response_status = NULL, response_body = NULL, locked_until = now() + idempotency_begin.lease,
            expires_at = now() + idempotency_begin.ttl, created_at = now(), updated_at = now(), replay_count = 0,
            last_replayed_at = NULL, order_id = NULL
        WHERE k.id = found_row.id AND idempotency_reusable(k)
          AND idempotency_try_lock(k.scope, k.idem_key);
        IF FOUND THEN
            outcome := 'execute';
            taken_over := true;
        ELSE
            outcome := 'in_progress';
            retry_after_ms := 1000;
        END IF;
        RETURN;
    END IF;
    IF NOT found_row.fingerprint_matches THEN
        outcome := 'mismatch';
        RETURN;
    END IF;
    -- The same request, still in progress.
    outcome := 'in_progress';
    retry_after_ms := greatest(found_row.lease_left_ms, 1);
END
$$;

-- Applies the replays counted so far to replay_count and last_replayed_at, one row version per key replayed;
-- replays of a record's earlier use (before a takeover reset it) are dropped. At most one fold runs at a time;
-- another caller returns 0 at once. Returns how many replays it applied.
CREATE FUNCTION idempotency_fold_replays() RETURNS bigint
    LANGUAGE plpgsql AS $$
DECLARE
    folded bigint;
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('idempotency_fold_replays')) THEN
        RETURN 0;
    END IF;
    WITH moved AS (DELETE FROM idempotency_replays RETURNING key_id, replayed_at),
    summed AS (SELECT m.key_id, count(*) AS replays, max(m.replayed_at) AS last FROM moved m
               JOIN idempotency_keys k ON k.id = m.key_id AND m.replayed_at >= k.created_at GROUP BY m.key_id),
    applied AS (UPDATE idempotency_keys k
                SET replay_count = k.replay_count + s.replays,
                    last_replayed_at = greatest(k.last_replayed_at, s.last)
                FROM summed s WHERE k.id = s.key_id)
    SELECT coalesce(sum(replays), 0) INTO folded FROM summed;
    RETURN folded;
END
$$;

-- Settles an in-progress record for this request: the state guard every completion and failure shares. Raises
-- SQLSTATE 55000 when the key is no longer in progress for this request (its claim was lost), which rolls the
-- caller's transaction back.
CREATE FUNCTION idempotency_settle(scope text, key text, fingerprint text, outcome text, retryable boolean,
                                   status integer, body jsonb, resource_id bigint) RETURNS bigint
    LANGUAGE plpgsql AS $$
DECLARE
    settled bigint;
BEGIN
    UPDATE idempotency_keys k
    SET status = idempotency_settle.outcome, failure_retryable = idempotency_settle.retryable,
        response_status = idempotency_settle.status, response_body = idempotency_settle.body,
        order_id = idempotency_settle.resource_id, locked_until = NULL, updated_at = now()
    WHERE k.scope = idempotency_settle.scope AND k.idem_key = idempotency_settle.key
      AND k.fingerprint = idempotency_settle.fingerprint AND k.status = 'in_progress'
    RETURNING k.id INTO settled;
    IF settled IS NULL THEN
        RAISE EXCEPTION 'idempotency key "%" (scope %) is no longer in progress for this request: its claim was lost',
            idempotency_settle.key, idempotency_settle.scope USING ERRCODE = '55000';
    END IF;
    RETURN settled;
END
$$;

-- in_progress -> completed with the answer to replay; resource_id links the key to the order it created
-- (orders.id; NULL for anything else). Returns the record's id.
CREATE FUNCTION idempotency_complete(scope text, key text, fingerprint text, status integer, body jsonb,
                                     resource_id bigint DEFAULT NULL) RETURNS bigint
    LANGUAGE sql
    RETURN idempotency_settle(scope, key, fingerprint, 'completed', NULL, status, body, resource_id);

-- in_progress -> failed. A retryable failure releases the key (the next request with it executes again); a final
-- one is replayed like a success. Returns the record's id.
CREATE FUNCTION idempotency_fail(scope text, key text, fingerprint text, retryable boolean, status integer,
                                 body jsonb) RETURNS bigint
    LANGUAGE sql
    RETURN idempotency_settle(scope, key, fingerprint, 'failed', retryable, status, body, NULL);

-- Adds a message for the relay to publish when the caller's transaction commits. `dedupe_key` is the message's
-- identity for consumers (default: a new UUID); enqueueing a key that exists already adds nothing and returns the
-- existing row's id, so a retried enqueue cannot publish twice.
CREATE FUNCTION outbox_enqueue(aggregate_type text, aggregate_id text, event_type text, payload jsonb,
                               headers jsonb DEFAULT '{}', dedupe_key text DEFAULT NULL) RETURNS bigint
    LANGUAGE plpgsql AS $$
DECLARE
    message_key text := coalesce(outbox_enqueue.dedupe_key, gen_random_uuid()::text);
    added bigint;
BEGIN
    INSERT INTO outbox AS o (aggregate_type, aggregate_id, event_type, payload, headers, dedupe_key)
    VALUES (outbox_enqueue.aggregate_type, outbox_enqueue.aggregate_id, outbox_enqueue.event_type,
            outbox_enqueue.payload, coalesce(outbox_enqueue.headers, '{}'), message_key)
    ON CONFLICT ON CONSTRAINT outbox_dedupe_key_unique DO NOTHING
    RETURNING o.id INTO added;
    IF added IS NULL THEN
        SELECT o.id INTO added FROM outbox o WHERE o.dedupe_key = message_key;
    END IF;
    RETURN added;
END
$$;
