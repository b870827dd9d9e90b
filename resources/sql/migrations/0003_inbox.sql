-- SPDX-License-Identifier: GPL-3.0-or-later
-- Consumer-side deduplication. A consumer records (consumer, message id) in the same transaction as the
-- changes a message causes; a redelivered message finds its row, and the consumer skips it.
CREATE TABLE inbox (
    consumer     text        NOT NULL CHECK (consumer <> ''),
    message_id   text        NOT NULL CHECK (message_id <> ''),
    received_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_id)
);
-- Retention purge by age.
CREATE INDEX inbox_received_at_idx ON inbox (received_at);

-- The reference consumer's read model (`outboxctl consume`): orders per customer, from order.created events.
CREATE TABLE customer_order_counts (
    consumer    text        NOT NULL,
    customer    text        NOT NULL,
    orders      bigint      NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, customer)
);

-- Messages consumers applied, and deliveries they dropped as duplicates.
ALTER TABLE metric_rollups
    ADD COLUMN consumed bigint NOT NULL DEFAULT 0,
    ADD COLUMN consumer_duplicates bigint NOT NULL DEFAULT 0;
