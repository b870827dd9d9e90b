-- SPDX-License-Identifier: GPL-3.0-or-later
-- Optional: the console's two group roles. Applied by `outboxctl migrate --grant-roles`; re-running it is harmless.
-- Grant membership to login roles yourself, e.g. GRANT outbox_operator TO alice;
--   outbox_viewer   reads everything, changes nothing.
--   outbox_operator reads everything, requeues, discards or edits failed outbox rows, releases leases, pauses and
--                   resumes relays and event types, and writes the audit log.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'outbox_viewer') THEN
        CREATE ROLE outbox_viewer NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'outbox_operator') THEN
        CREATE ROLE outbox_operator NOLOGIN;
    END IF;
END
$$;

DO $$
BEGIN
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO outbox_viewer, outbox_operator', current_database());
END
$$;
GRANT USAGE ON SCHEMA public TO outbox_viewer, outbox_operator;
GRANT SELECT ON orders, idempotency_keys, outbox, outbox_attempts, audit_log, metric_rollups, backlog_samples,
    schema_migrations, inbox, customer_order_counts, relay_nodes, outbox_failure_counts, outbox_pauses,
    outbox_throughput_seconds, outbox_partitions, outbox_messages, outbox_lanes, outbox_ticks, outbox_lane_batches
    TO outbox_viewer, outbox_operator;
GRANT EXECUTE ON FUNCTION epoch_ms(timestamptz), relay_node_state(relay_nodes, timestamptz),
    outbox_error_signature(text), outbox_signature_id(text), outbox_failure_event_types(text),
    outbox_failure_group_sizes(text[], integer) TO outbox_viewer, outbox_operator;
-- The backlog a console shows raises its minute's peaks (migration 0026), for viewers too.
GRANT EXECUTE ON FUNCTION outbox_note_backlog(bigint, boolean, bigint, timestamptz) TO outbox_viewer, outbox_operator;
-- Column-level: an operator can move a row's state and, to edit and retry it, change what it carries (payload,
-- headers; each edit audited with both versions), never its identity (event type, aggregate, dedupe or ordering key).
GRANT UPDATE (status, attempts, next_attempt_at, last_error, lease_owner, lease_expires_at, updated_at, payload,
    headers)
    ON outbox TO outbox_operator;
GRANT INSERT ON audit_log TO outbox_operator;
-- Forgetting a relay that no longer runs (the console's fleet list, outboxctl forget-relays) deletes its registry row.
GRANT DELETE ON relay_nodes TO outbox_operator;
-- A requeue or discard changes the failure-group sizes (migration 0008's trigger runs as the operator).
GRANT INSERT ON outbox_failure_counts TO outbox_operator;
-- Pausing and resuming (migration 0019): the pause rows, and the release of a resumed type's parked rows.
GRANT INSERT, DELETE, UPDATE (paused_by, reason, paused_at, resumed_at) ON outbox_pauses TO outbox_operator;
GRANT EXECUTE ON FUNCTION outbox_release_resumed(integer) TO outbox_operator;
