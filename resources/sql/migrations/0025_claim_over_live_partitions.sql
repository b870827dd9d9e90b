-- SPDX-License-Identifier: GPL-3.0-or-later
-- The relay's claim, planned over the partitions that can still hold rows to publish. The claim names the outbox six
-- times (its candidates, the rows it parks or pauses, the older rows of their ordering keys, the rows it claims), and
-- PostgreSQL 15 plans each of them once per partition with all its indexes, at every claim: with a week of daily
-- partitions beside the open one, planning a claim of 1,000 rows took 5.0-7.9 ms instead of 1.1-1.5 and running it
-- 4-10 ms more, and the relay drained 0.88-0.92 times as fast as on one table. Yet every row a claim can touch is
-- not published, and the partitions behind the oldest one that holds such a row hold published rows only.
--
-- outbox_live_floor() returns the lower bound of that oldest partition (the open partition's when all closed ones
-- are published through), and the relay reads it before each claim, which adds `id >= floor` to each of the six: a
-- constant at planning time, which prunes the partitions below it. No product path changes a published row (requeues
-- and edits take failed, dead and discarded rows, releases take waiting, paused and in-flight ones) and new rows
-- draw their ids in the open partition, so the floor stays a lower bound for every row the claim may need; a floor
-- read before a roll or a purge only prunes less. A row set back from published by hand in a partition below the
-- floor, in the instant between the two statements, is missed by that claim as if the change had come just after
-- it, and found by the next one's floor.
CREATE FUNCTION outbox_live_floor() RETURNS bigint
    LANGUAGE plpgsql STABLE SET search_path FROM CURRENT
    -- One plan per statement for the session: the bounds are parameters, which prune the other partitions when the
    -- plan starts, so that neither planning nor running it grows with the partitions; the open partition, whose plan
    -- would go stale as it grows, is never asked.
    SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    part outbox_partitions;
    lowest bigint;
BEGIN
    FOR part IN SELECT * FROM outbox_partitions p WHERE p.upper_id IS NOT NULL ORDER BY p.upper_id LOOP
        lowest := coalesce(part.lower_id, '-9223372036854775808'::bigint);
        -- status <> 'published' as two ranges of outbox_status_id_idx, each found or not by one descent. In index
        -- order with a LIMIT, so that the index is the cheapest plan whatever the statistics say: a plan kept this
        -- long, made while a partition still held many rows to publish, could otherwise be a sequential scan (which
        -- expects to meet one at once) reading it whole at every claim long after they were published.
        IF (SELECT o.id FROM outbox o WHERE o.status < 'published' AND o.id >= lowest AND o.id < part.upper_id
            ORDER BY o.status, o.id LIMIT 1) IS NOT NULL
           OR (SELECT o.id FROM outbox o WHERE o.status > 'published' AND o.id >= lowest AND o.id < part.upper_id
               ORDER BY o.status, o.id LIMIT 1) IS NOT NULL
        THEN
            RETURN lowest;
        END IF;
    END LOOP;
    RETURN coalesce((SELECT p.lower_id FROM outbox_partitions p WHERE p.upper_id IS NULL),
                    '-9223372036854775808'::bigint);
END
$$;
