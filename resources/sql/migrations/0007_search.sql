-- SPDX-License-Identifier: GPL-3.0-or-later
-- Search that stays fast at 10 million rows, including searches that match nothing: "error contains" reads a
-- trigram index (pg_trgm, shipped with PostgreSQL and trusted, so a database owner may create it), an event type
-- its own index within each status. Both are built once here; writers wait while they are (seconds at 10 M rows).
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE EXCEPTION 'migration 0007 needs the extension pg_trgm, which this user may not create: a superuser runs '
        '"CREATE EXTENSION pg_trgm;" in database %, then outboxctl migrate again', current_database()
        USING ERRCODE = '42501';
END
$$;

CREATE INDEX outbox_last_error_trgm_idx ON outbox USING gin (last_error gin_trgm_ops) WHERE last_error IS NOT NULL;
CREATE INDEX outbox_event_type_idx ON outbox (event_type, status, id);
