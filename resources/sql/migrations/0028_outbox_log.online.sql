-- SPDX-License-Identifier: GPL-3.0-or-later
-- Run by `outboxctl migrate` before migration 0028, outside its transaction, one step at a time (each is harmless to
-- repeat: a migration killed midway simply starts again).
--
-- Migration 0028 indexes the rows of the log (status NULL) twice. Created on the partitioned table inside the
-- migration, each index would be built on every partition under a SHARE lock, which makes writers wait while it
-- reads the partition whole (none of the rows written before 0028 is in the log, but every one is read to find that
-- out). So the indexes are built here first, on each partition, with CREATE INDEX CONCURRENTLY, which writers do not
-- wait for; the migration then creates them on the partitioned table, which attaches these instead of building
-- anything. Their column and function come first: the column with an instant's lock (no row is rewritten), taken
-- with a short lock_timeout so that writers do not queue behind it for long (the migration stops with
-- lock_not_available if a long transaction holds the table: run it again). From schema 21, the partitioned outbox,
-- on: the migrations between (0022-0027) do not depend on the outbox's list of columns, so the column may come
-- before them. (This was from schema 27 only at first: an upgrade from 25 built the indexes inside the
-- migration, under a lock that kept writers waiting 2.6 s at 10 million rows.) An upgrade from an older schema
-- builds them in the migration.
-- step
DO $$
BEGIN
    IF to_regclass('outbox') IS NULL OR to_regclass('schema_migrations') IS NULL
       OR (SELECT max(version) FROM schema_migrations) < 21
       OR EXISTS (SELECT FROM pg_attribute WHERE attrelid = 'outbox'::regclass AND attname = 'txid') THEN
        RETURN;
    END IF;
    PERFORM set_config('lock_timeout',
        (extract(epoch FROM current_setting('deadlock_timeout')::interval) * 1000 + 200)::bigint || 'ms', true);
    ALTER TABLE outbox ADD COLUMN txid xid8;
END
$$;
-- step
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_attribute WHERE attrelid = to_regclass('outbox') AND attname = 'txid') THEN
        RETURN;
    END IF;
    CREATE OR REPLACE FUNCTION outbox_lane(ordering_key text, id bigint) RETURNS integer
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        RETURN CASE WHEN ordering_key IS NULL THEN (id & 15)::integer ELSE hashtext(ordering_key) & 15 END;
END
$$;
-- step
-- statements
-- Per partition and index: an index a killed run left invalid is dropped first; one already built stays.
SELECT s.statement
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
CROSS JOIN (VALUES ('id', 1), ('txid', 2)) AS k(key, n)
LEFT JOIN pg_class x ON x.relname = c.relname || '_outbox_lane_' || k.key || '_idx' AND x.relkind = 'i'
LEFT JOIN pg_index xi ON xi.indexrelid = x.oid
CROSS JOIN LATERAL (VALUES
    (1, CASE WHEN x.oid IS NOT NULL AND NOT xi.indisvalid
             THEN format('DROP INDEX CONCURRENTLY %I', x.relname) END),
    (2, CASE WHEN x.oid IS NULL OR NOT xi.indisvalid
             THEN format('CREATE INDEX CONCURRENTLY %I ON %I (outbox_lane(ordering_key, id), %I) WHERE status IS NULL',
                         c.relname || '_outbox_lane_' || k.key || '_idx', c.relname, k.key) END)) AS s(step, statement)
WHERE i.inhparent = to_regclass('outbox') AND s.statement IS NOT NULL
  AND EXISTS (SELECT FROM pg_attribute WHERE attrelid = to_regclass('outbox') AND attname = 'txid')
  AND to_regprocedure('outbox_lane(text, bigint)') IS NOT NULL
ORDER BY c.relname, k.n, s.step;
