-- SPDX-License-Identifier: GPL-3.0-or-later
-- The consumer side: deduplication of delivered messages, and the reference consumer's read model. A consumer
-- (`outboxctl consume`, or one written against the same contract in any language) records (consumer, message id) in
-- the same transaction as the changes a message causes; a redelivered message finds its row, and the consumer skips
-- it. What consumers applied and dropped is counted in metric_rollups (consumed, consumer_duplicates).

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
