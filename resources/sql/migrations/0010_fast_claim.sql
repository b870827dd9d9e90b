-- SPDX-License-Identifier: GPL-3.0-or-later
-- idempotency_begin() reads the key's record with its own cached plan. Through idempotency_record(), an SQL
-- function that PostgreSQL plans afresh on every call, the read cost more than the rest of a create; measured with
-- pgbench on a new key, 16 clients: 4,770 calls/s before, 8,500 after.
--
-- A replay now names the use of the record it replayed (its created_at, which a takeover renews), and the fold
-- counts exactly those. Before, it compared the replay's now() with the record's created_at, and a replay whose
-- transaction started a moment before the record's creator did (but read it after that committed) was dropped.
ALTER TABLE idempotency_replays ADD COLUMN record_created_at timestamptz;

-- How a claim for this transaction only (idempotency_begin with a NULL lease) names itself in the transaction-local
-- setting idempotency.pending, followed by its TTL in milliseconds.
CREATE FUNCTION idempotency_pending_claim(scope text, key text, fingerprint text) RETURNS text
    LANGUAGE sql IMMUTABLE
    RETURN scope || chr(31) || key || chr(31) || fingerprint || chr(31);

CREATE OR REPLACE FUNCTION idempotency_begin(scope text, key text, fingerprint text,
                                  lease interval DEFAULT interval '30 seconds',
                                  ttl interval DEFAULT interval '24 hours',
                                  OUT outcome text, OUT record_id bigint, OUT taken_over boolean,
                                  OUT response_status integer, OUT response_body jsonb, OUT resource_id bigint,
                                  OUT retry_after_ms bigint)
    LANGUAGE plpgsql AS $$
DECLARE
    k idempotency_keys;
    pending text;
BEGIN
    taken_over := false;
    retry_after_ms := 0;
    SELECT * INTO k FROM idempotency_keys r
    WHERE r.scope = idempotency_begin.scope AND r.idem_key = idempotency_begin.key;
    IF NOT FOUND THEN
        -- A new key, unless a concurrent request holds the key's lock (its insert is not committed yet).
        IF NOT idempotency_try_lock(idempotency_begin.scope, idempotency_begin.key) THEN
            outcome := 'in_progress';
            retry_after_ms := 1000;
            RETURN;
        END IF;
        IF idempotency_begin.lease IS NULL THEN
            -- Claimed for this transaction only. With the lock held nobody else can add the record, so it is read
            -- once more (it may have been committed between the read above and the lock) and, still absent, left
            -- unwritten: idempotency_complete() or idempotency_fail() inserts it settled, one row version instead of
            -- an in-progress one and its update. One such claim per transaction waits in idempotency.pending;
            -- another is written as usual.
            SELECT * INTO k FROM idempotency_keys r
            WHERE r.scope = idempotency_begin.scope AND r.idem_key = idempotency_begin.key;
            IF NOT FOUND THEN
                pending := coalesce(current_setting('idempotency.pending', true), '');
                IF pending = '' THEN
                    PERFORM set_config('idempotency.pending',
                        idempotency_pending_claim(idempotency_begin.scope, idempotency_begin.key,
                                                  idempotency_begin.fingerprint)
                        || (extract(epoch FROM idempotency_begin.ttl) * 1000)::bigint, true);
                    outcome := 'execute';
                    RETURN;
                END IF;
                IF starts_with(pending, idempotency_begin.scope || chr(31) || idempotency_begin.key || chr(31)) THEN
                    outcome := 'execute'; -- claimed already in this transaction
                    RETURN;
                END IF;
            END IF;
        END IF;
        IF k.id IS NULL THEN
            -- Written in progress, unless a concurrent request inserted it since the read above (then read it
            -- again).
            INSERT INTO idempotency_keys AS r (scope, idem_key, fingerprint, status, locked_until, expires_at)
            VALUES (idempotency_begin.scope, idempotency_begin.key, idempotency_begin.fingerprint, 'in_progress',
                    now() + coalesce(idempotency_begin.lease, interval '30 seconds'), now() + idempotency_begin.ttl)
            ON CONFLICT ON CONSTRAINT idempotency_keys_scope_key_unique DO NOTHING
            RETURNING r.id INTO record_id;
            IF record_id IS NOT NULL THEN
                outcome := 'execute';
                RETURN;
            END IF;
            SELECT * INTO k FROM idempotency_keys r
            WHERE r.scope = idempotency_begin.scope AND r.idem_key = idempotency_begin.key;
            IF NOT FOUND THEN
                outcome := 'in_progress';
                retry_after_ms := 1000;
                RETURN;
            END IF;
        END IF;
    END IF;
    record_id := k.id;
    IF k.fingerprint = idempotency_begin.fingerprint AND k.expires_at > now()
       AND (k.status = 'completed' OR (k.status = 'failed' AND NOT k.failure_retryable)) THEN
        INSERT INTO idempotency_replays (key_id, record_created_at) VALUES (k.id, k.created_at);
        PERFORM set_config('synchronous_commit', 'off', true);
        outcome := 'replay';
        response_status := k.response_status;
        response_body := k.response_body;
        resource_id := k.order_id;
        RETURN;
    END IF;
    IF idempotency_reusable(k) THEN
        UPDATE idempotency_keys r
        SET fingerprint = idempotency_begin.fingerprint, status = 'in_progress', failure_retryable = NULL,
            response_status = NULL, response_body = NULL,
            locked_until = now() + coalesce(idempotency_begin.lease, interval '30 seconds'),
            expires_at = now() + idempotency_begin.ttl, created_at = now(), updated_at = now(), replay_count = 0,
            last_replayed_at = NULL, order_id = NULL
        WHERE r.id = k.id AND idempotency_reusable(r) AND idempotency_try_lock(r.scope, r.idem_key);
        IF FOUND THEN
            outcome := 'execute';
            taken_over := true;
        ELSE
            outcome := 'in_progress';
            retry_after_ms := 1000;
        END IF;
        RETURN;
    END IF;
    IF k.fingerprint <> idempotency_begin.fingerprint THEN
        outcome := 'mismatch';
        RETURN;
    END IF;
    -- The same request, still in progress.
    outcome := 'in_progress';
    retry_after_ms := greatest(epoch_ms(k.locked_until) - epoch_ms(now()), 1);
END
$$;

DROP FUNCTION idempotency_record(text, text, text);

-- The settlement of a claim for this transaction only inserts the record, settled; any other updates the record in
-- progress, under the same guard as before.
CREATE OR REPLACE FUNCTION idempotency_settle(scope text, key text, fingerprint text, outcome text, retryable boolean,
                                              status integer, body jsonb, resource_id bigint) RETURNS bigint
    LANGUAGE plpgsql AS $$
DECLARE
    settled bigint;
    pending text := coalesce(current_setting('idempotency.pending', true), '');
    claim text := idempotency_pending_claim(idempotency_settle.scope, idempotency_settle.key,
                                            idempotency_settle.fingerprint);
BEGIN
    IF starts_with(pending, claim) THEN
        PERFORM set_config('idempotency.pending', '', true);
        INSERT INTO idempotency_keys AS k (scope, idem_key, fingerprint, status, failure_retryable, response_status,
                                           response_body, order_id, expires_at)
        VALUES (idempotency_settle.scope, idempotency_settle.key, idempotency_settle.fingerprint,
                idempotency_settle.outcome, idempotency_settle.retryable, idempotency_settle.status,
                idempotency_settle.body, idempotency_settle.resource_id,
                now() + substr(pending, length(claim) + 1)::bigint * interval '1 millisecond')
        RETURNING k.id INTO settled;
        RETURN settled;
    END IF;
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

-- Replays of a record's earlier use (before a takeover renewed it) are dropped; those recorded before this
-- migration, without record_created_at, are judged as before.
CREATE OR REPLACE FUNCTION idempotency_fold_replays() RETURNS bigint
    LANGUAGE plpgsql AS $$
DECLARE
    folded bigint;
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('idempotency_fold_replays')) THEN
        RETURN 0;
    END IF;
    WITH moved AS (DELETE FROM idempotency_replays RETURNING key_id, record_created_at, replayed_at),
    summed AS (SELECT m.key_id, count(*) AS replays, max(m.replayed_at) AS last FROM moved m
               JOIN idempotency_keys k ON k.id = m.key_id
                AND coalesce(m.record_created_at = k.created_at, m.replayed_at >= k.created_at)
               GROUP BY m.key_id),
    applied AS (UPDATE idempotency_keys k
                SET replay_count = k.replay_count + s.replays,
                    last_replayed_at = greatest(k.last_replayed_at, s.last)
                FROM summed s WHERE k.id = s.key_id)
    SELECT coalesce(sum(replays), 0) INTO folded FROM summed;
    RETURN folded;
END
$$;
