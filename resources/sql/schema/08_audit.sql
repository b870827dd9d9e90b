-- SPDX-License-Identifier: GPL-3.0-or-later
-- The operator audit log: every change an operator makes through the console or outboxctl (requeue, discard, edit and
-- retry, release, pause, resume, ...) writes one entry in the same transaction. The Audit tab and `outboxctl audit`
-- page through it; the Overview shows the last actions.
--
-- One operator action, one entry with its full count. An action over more rows than one transaction should lock (a
-- bulk retry goes in batches of 1,000, each its own transaction with its state guard) writes the action's entry with
-- its first batch, and each later batch writes a continuation: an entry with action_id set to the action's entry,
-- holding that batch's rows and states (so a row's own history still says when it changed) but listed with the
-- action, not as an action of its own. row_count is the action's rows: its own ids, raised by every continuation as it
-- is written (a trigger, so the count is the database's, in the continuation's transaction: at every moment it says
-- what has committed). A resume sets it to the rows it let go. Entries without one (written before row_count
-- existed) count their ids.
CREATE TABLE audit_log (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at          timestamptz NOT NULL DEFAULT now(),
    actor       text        NOT NULL DEFAULT session_user,
    action      text        NOT NULL,
    reason      text        NOT NULL CHECK (length(btrim(reason)) > 0),
    entity      text        NOT NULL,
    entity_ids  bigint[]    NOT NULL,
    -- {"<id>": "<status>"} before and after the change, for exactly the rows that changed.
    state_before jsonb      NOT NULL,
    state_after  jsonb      NOT NULL,
    -- What the action changed besides a row's state. An edit-and-retry (outboxctl edit, the console's Edit and retry)
    -- keeps the payload and headers before and after here, as the database held them:
    --   {"payload": {"before": …, "after": …}, "headers": {"before": …, "after": …}}
    -- NULL for the actions that only move states.
    details     jsonb,
    action_id   bigint,
    row_count   bigint
);
COMMENT ON COLUMN audit_log.details IS
    'What the action changed besides the states (NULL when nothing): for an edit, the payload and headers before and '
    'after, {"payload": {"before": …, "after": …}, "headers": {"before": …, "after": …}}.';
COMMENT ON COLUMN audit_log.action_id IS
    'A continuation (a later batch) of the action whose entry this is; NULL for an action''s own entry.';
COMMENT ON COLUMN audit_log.row_count IS
    'The action''s rows: its ids and its continuations'' (or the rows a resume let go); NULL before migration 0026.';
CREATE INDEX audit_log_at_idx ON audit_log (at);
-- A row's own history: the entries that name its id.
CREATE INDEX audit_log_entity_ids_idx ON audit_log USING gin (entity_ids);
-- The Audit tab and `outboxctl audit` page through the log newest first (by id), filtered by who and what.
-- A time range needs no index of its own: the log gets one row per operator batch, and its ids grow with time.
CREATE INDEX audit_log_actor_idx ON audit_log (actor, id);
CREATE INDEX audit_log_action_idx ON audit_log (action, id);
-- An action's continuations, listed with it.
CREATE INDEX audit_log_continuations_idx ON audit_log (action_id, id) WHERE action_id IS NOT NULL;

-- Sets row_count: an action's own entry counts its ids (unless the writer gave the count, as a resume does); a
-- continuation counts its ids and adds them to its action's entry. SECURITY DEFINER: an operator may insert entries,
-- not update them.
CREATE FUNCTION audit_log_count_rows() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
    IF NEW.action_id IS NULL THEN
        NEW.row_count := coalesce(NEW.row_count, cardinality(NEW.entity_ids));
        RETURN NEW;
    END IF;
    NEW.row_count := cardinality(NEW.entity_ids);
    -- Only the same actor's same action, and only an action's own entry, takes continuations.
    UPDATE audit_log a SET row_count = coalesce(a.row_count, cardinality(a.entity_ids)) + NEW.row_count
    WHERE a.id = NEW.action_id AND a.action_id IS NULL AND a.actor = NEW.actor AND a.action = NEW.action
      AND a.entity = NEW.entity;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'audit entry % is no action of %''s %', NEW.action_id, NEW.actor, NEW.action
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER audit_log_count_rows BEFORE INSERT ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_count_rows();
