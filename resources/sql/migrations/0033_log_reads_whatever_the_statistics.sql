-- SPDX-License-Identifier: GPL-3.0-or-later
-- Migration 0033: the reads of the log's backlog go through its indexes in lane and id order whatever the planner's
-- statistics say, as a lane's batch does since 0031. A partition analyzed before it held any row of the log (every
-- partition of a database upgraded from before schema 28, until autovacuum analyzes it again after a tenth of its
-- rows changed: days for a big partition of a quiet service) tells the planner that no row has a NULL status, and
-- it read a lane's rows through another index of the partition, sorting them: the backlog's sample took 2.5-3.5 s
-- with 100,000 rows waiting in a 10-million-row partition, outbox_log_floor() 1.6-1.9 s. With sorts off, the
-- indexes of the log are the one plan without a sort. What sorts cannot settle (a probe for the rows of a transaction
-- in progress took another index and read every row of the log: the relay drained at a ninth of its rate) needs
-- the statistics themselves: outbox_analyze_for_the_log(), which the relays call with their heartbeats, analyzes
-- such a partition again once it holds rows of the log. resources/sql/schema/04_partitions.sql and 05_relay.sql
-- hold the same definitions.
ALTER FUNCTION outbox_log_floor(bigint) SET enable_sort = off;
ALTER FUNCTION outbox_log_unpublished(integer) SET enable_sort = off;
ALTER FUNCTION outbox_log_unpublished_within(integer) SET enable_sort = off;

-- Analyzes again each partition whose statistics were taken before it held any row of the log, once it holds one;
-- the relays call it with their heartbeats (migration 0033). Statistics taken while every row of a partition had a
-- status (those of each partition of a database upgraded from before schema 28, until autovacuum analyzes it after
-- a tenth of its rows changed: days, for a big partition of a quiet service) tell the planner that no row is in the
-- log, and it then probed the log through other indexes: a relay drained 100,000 rows at 3,400 rows/s in a
-- 10-million-row partition so analyzed, at 31,000 rows/s once it was analyzed again. Costs a read of the statistics
-- and, for a partition whose statistics see no row of the log, one index probe; a partition is analyzed once
-- (30,000 rows sampled), not again while a sample misses its few rows of the log. A partition that another holds
-- (autovacuum, a migration's index build) is left to the next call. Returns how many partitions it analyzed.
-- SECURITY DEFINER: only the table's owner may analyze it.
CREATE FUNCTION outbox_analyze_for_the_log() RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT SET lock_timeout = '100ms' AS $$
DECLARE
    part regclass;
    first_in_log timestamptz;
    analyzed integer := 0;
BEGIN
    FOR part IN
        SELECT c.oid::regclass FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = 'status'
        WHERE i.inhparent = 'outbox'::regclass AND s.null_frac = 0
    LOOP
        EXECUTE format('SELECT min(created_at) FROM %s WHERE status IS NULL', part) INTO first_in_log;
        CONTINUE WHEN first_in_log IS NULL
            OR greatest(pg_stat_get_last_analyze_time(part), pg_stat_get_last_autoanalyze_time(part)) > first_in_log;
        BEGIN
            EXECUTE format('ANALYZE %s', part);
            analyzed := analyzed + 1;
        EXCEPTION WHEN lock_not_available THEN
            NULL;
        END;
    END LOOP;
    RETURN analyzed;
END
$$;
