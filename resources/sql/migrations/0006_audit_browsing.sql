-- SPDX-License-Identifier: GPL-3.0-or-later
-- The Audit tab and `outboxctl audit` page through the log newest first (by id), filtered by who and what.
-- A time range needs no index of its own: the log gets one row per operator batch, and its ids grow with time.
CREATE INDEX audit_log_actor_idx ON audit_log (actor, id);
CREATE INDEX audit_log_action_idx ON audit_log (action, id);
