-- SPDX-License-Identifier: GPL-3.0-or-later
-- Which broker nodes a relay publishes to (issue 51): a relay given a cluster's nodes moves to another when its node
-- dies or is cut off, and an operator asks where each relay is now. A nullable column without a default: adding it
-- rewrites nothing.
ALTER TABLE relay_nodes ADD COLUMN publishing_to text;
COMMENT ON COLUMN relay_nodes.publishing_to IS
    'The broker nodes (host:port, comma-separated) the relay''s workers were connected to at its last heartbeat; '
    'NULL while none is, or for a sink without nodes.';
