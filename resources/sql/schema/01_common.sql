-- SPDX-License-Identifier: GPL-3.0-or-later
-- The current schema, installed on an empty database in file-name order (each file one script); the migrations in
-- ../migrations bring an existing database to the same state. This file: what every subsystem shares.
--
-- Sized for ~10 million rows per table: every list, filter and background scan in these files has an index whose
-- leading columns match its predicate.

-- Instants travel to the client as milliseconds since the epoch (UTC), so no driver ever has to guess a time zone from
-- a formatted timestamp. Used by the SQL API (idempotency_begin), the console and the relays.
CREATE FUNCTION epoch_ms(ts timestamptz) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (extract(epoch FROM ts) * 1000)::bigint;

-- Search that stays fast at 10 million rows, including searches that match nothing: "error contains" (the console,
-- outboxctl) reads a trigram index on outbox.last_error (03_outbox.sql). pg_trgm ships with PostgreSQL and is
-- trusted, so a database owner may create it.
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE EXCEPTION 'the schema needs the extension pg_trgm, which this user may not create: a superuser runs '
        '"CREATE EXTENSION pg_trgm;" in database %, then outboxctl migrate again', current_database()
        USING ERRCODE = '42501';
END
$$;
