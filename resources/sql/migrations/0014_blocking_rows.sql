-- SPDX-License-Identifier: GPL-3.0-or-later
-- The dead rows that block their ordering key (migration 0013): every later row of the key waits behind such a
-- row until an operator retries or skips it. The Overview counts them (the blocked keys), and the console's
-- "Blocking keys only" filter lists them, newest first; a failed row is not among them, since it is retried on
-- its own. Few rows, whatever the table's size: a filter that matches nothing reads an empty index.
CREATE INDEX outbox_blocking_idx ON outbox (id) WHERE status = 'dead' AND ordering_key IS NOT NULL;
