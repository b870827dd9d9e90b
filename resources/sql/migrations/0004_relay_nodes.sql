-- SPDX-License-Identifier: GPL-3.0-or-later
-- The relay registry. Every relay process inserts a row when it starts, heartbeats it every heartbeat_ms with
-- what it did so far, and sets stopped_at when it stops gracefully. A row whose heartbeat is older than three
-- intervals is stale: the process is presumed dead (killed, its host gone, or cut off from the database).
-- `outboxctl purge --relays --older-than D` deletes stopped and stale rows; nothing else ever deletes one.
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
    -- Whether the relay could reach its sink at the last heartbeat, and the last problem it had with either peer.
    sink_up        boolean     NOT NULL DEFAULT true,
    last_error     text,
    last_error_at  timestamptz,
    -- Totals since the process started, and rows published per second over the last heartbeat interval.
    published      bigint      NOT NULL DEFAULT 0,
    failed         bigint      NOT NULL DEFAULT 0,
    dead           bigint      NOT NULL DEFAULT 0,
    rescued        bigint      NOT NULL DEFAULT 0,
    fenced         bigint      NOT NULL DEFAULT 0,
    publish_rate   double precision NOT NULL DEFAULT 0
);
-- The fleet view and `outboxctl relays` list the most recently seen relays; the purge walks the oldest.
CREATE INDEX relay_nodes_last_seen_idx ON relay_nodes (last_seen);

-- The one definition of a relay's state, for every client in any language: 'stopped' once it said so,
-- 'stale' when its last heartbeat is more than three intervals old at `at`, else 'alive'.
CREATE FUNCTION relay_node_state(stopped_at timestamptz, last_seen timestamptz, heartbeat_ms integer,
                                 at timestamptz DEFAULT now()) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN CASE
        WHEN stopped_at IS NOT NULL THEN 'stopped'
        WHEN last_seen < at - 3 * heartbeat_ms * interval '1 millisecond' THEN 'stale'
        ELSE 'alive'
    END;
