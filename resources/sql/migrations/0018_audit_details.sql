-- SPDX-License-Identifier: GPL-3.0-or-later
-- What an audited action changed besides a row's state. An edit-and-retry (outboxctl edit, the console's Edit and
-- retry) keeps the payload and headers before and after here, as the database held them:
--   {"payload": {"before": …, "after": …}, "headers": {"before": …, "after": …}}
-- NULL for the actions that only move states. A column without a default: added without rewriting the table.
ALTER TABLE audit_log ADD COLUMN details jsonb;

COMMENT ON COLUMN audit_log.details IS
    'What the action changed besides the states (NULL when nothing): for an edit, the payload and headers before and '
    'after, {"payload": {"before": …, "after": …}, "headers": {"before": …, "after": …}}.';
