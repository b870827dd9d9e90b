-- SPDX-License-Identifier: GPL-3.0-or-later
-- What the relays did in each of the last minutes, second by second and per event type: the live view of the
-- console's Event types tab and `outboxctl event-types --per-second`. The per-minute rollups (metric_rollups) cannot
-- give it, and reading published_at over the last minutes would read every row published in them, up to millions.
--
-- Each relay counts in memory and adds the seconds it has finished once a second (a crash loses at most the
-- seconds not yet added, as with the rollups). A relay stamps its seconds by the database's clock: a second the
-- relay finished k seconds before it adds them is date_trunc('second', now()) - k seconds, whatever the relay
-- host's clock says. Rows older than 15 minutes are deleted by the relays as they add new ones: the table holds
-- at most 900 seconds times the event types, whatever the traffic.
CREATE TABLE outbox_throughput_seconds (
    second      timestamptz NOT NULL,
    event_type  text        NOT NULL,
    published   integer     NOT NULL DEFAULT 0,
    failed      integer     NOT NULL DEFAULT 0, -- failed attempts, retry scheduled or not
    dead        integer     NOT NULL DEFAULT 0, -- of those, the attempts that left the row dead
    PRIMARY KEY (second, event_type)
);
COMMENT ON TABLE outbox_throughput_seconds IS
    'Published rows and failed attempts per second and event type, the last 15 minutes; see migration 0020.';

-- The seconds before this instant are all added by this relay: a second is complete once every running relay
-- counted past it. Set when the relay registers (it counted nothing before it ran), then with every addition; one
-- second short of the addition's own second, since the relay's and the database's second boundaries lie apart.
ALTER TABLE relay_nodes ADD COLUMN counted_until timestamptz;
