-- SPDX-License-Identifier: GPL-3.0-or-later
-- Indexes for the operations console's filters.

-- "Aggregate id" filter and the order -> events link; the old (type, id) index served only the latter.
DROP INDEX outbox_aggregate_idx;
CREATE INDEX outbox_aggregate_id_idx ON outbox (aggregate_id, id);

-- Key prefix search: byte-wise ordering makes "starts with" a plain range scan in any database collation.
CREATE INDEX idempotency_keys_key_prefix_idx ON idempotency_keys ((idem_key COLLATE "C"));
