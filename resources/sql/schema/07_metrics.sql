-- SPDX-License-Identifier: GPL-3.0-or-later
-- Metrics: per-minute counters that services, relays and consumers add to, and the backlog sampled by the relays (and
-- raised by whoever shows it). The console's charts and CSV export, the Prometheus endpoint and `outboxctl stats`
-- read them.

-- Per-minute counters. Each writer process adds into its own shard so concurrent writers never
-- contend on one hot row; readers sum the shards.
CREATE TABLE metric_rollups (
    bucket                  timestamptz NOT NULL CHECK (date_trunc('minute', bucket) = bucket),
    shard                   smallint    NOT NULL CHECK (shard BETWEEN 0 AND 63),
    requests                bigint      NOT NULL DEFAULT 0,
    executions              bigint      NOT NULL DEFAULT 0,
    replays                 bigint      NOT NULL DEFAULT 0,
    mismatches              bigint      NOT NULL DEFAULT 0,
    in_progress_rejections  bigint      NOT NULL DEFAULT 0,
    published               bigint      NOT NULL DEFAULT 0,
    publish_latency_sum_ms  bigint      NOT NULL DEFAULT 0,
    publish_latency_max_ms  bigint      NOT NULL DEFAULT 0,
    -- Fixed log2-scale histogram of publish latency; see LatencyHistogram for the bucket bounds.
    publish_latency_hist    bigint[]    NOT NULL DEFAULT '{}',
    failed_attempts         bigint      NOT NULL DEFAULT 0,
    dead_letters            bigint      NOT NULL DEFAULT 0,
    lease_rescues           bigint      NOT NULL DEFAULT 0,
    -- Messages consumers applied, and deliveries they dropped as duplicates (09_inbox.sql).
    consumed                bigint      NOT NULL DEFAULT 0,
    consumer_duplicates     bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (bucket, shard)
);

-- The backlog sampled by the relays, one row per minute. A sample does not overwrite its minute: the minute keeps the
-- peak of every gauge (pending, pending_capped, oldest_pending_ms) and, beside it, the last sample (last_*), so a
-- peak that ends before its minute does survives in the charts and the CSV.
CREATE TABLE backlog_samples (
    bucket                  timestamptz PRIMARY KEY CHECK (date_trunc('minute', bucket) = bucket),
    sampled_at              timestamptz NOT NULL,
    pending                 bigint      NOT NULL,
    pending_capped          boolean     NOT NULL,
    oldest_pending_ms       bigint      NOT NULL,
    last_pending            bigint      NOT NULL,
    last_pending_capped     boolean     NOT NULL,
    last_oldest_pending_ms  bigint      NOT NULL
);
COMMENT ON COLUMN backlog_samples.pending IS 'the largest sample of the minute';
COMMENT ON COLUMN backlog_samples.oldest_pending_ms IS 'the largest sample of the minute';
COMMENT ON COLUMN backlog_samples.last_pending IS 'the last sample of the minute';

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
