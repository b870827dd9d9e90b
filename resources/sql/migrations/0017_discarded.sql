-- SPDX-License-Identifier: GPL-3.0-or-later
-- One word for giving up on a row: an operator discards a failed or dead row (status discarded, action discard); it
-- is never published, the later rows of its ordering key flow again, and a retry brings it back to pending. Until
-- this migration the word was "skip" (status skipped, migration 0013); the rows and the audit log's entries written
-- under that word are renamed, so that one filter finds them all and no reader has to know both.
ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;
-- Few rows (an operator gave up on each), found by outbox_status_id_idx.
UPDATE outbox SET status = 'discarded' WHERE status = 'skipped';
ALTER TABLE outbox ADD CONSTRAINT outbox_status_check
    CHECK (status IN ('pending', 'in_flight', 'published', 'failed', 'dead', 'waiting', 'discarded')) NOT VALID;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_status_check;

-- The audit entries of the old action (found by audit_log_action_idx): the action's name and the state it left.
UPDATE audit_log
SET action = 'discard',
    state_after = (SELECT jsonb_object_agg(e.key, CASE WHEN e.value = '"skipped"' THEN '"discarded"'::jsonb ELSE e.value END)
                   FROM jsonb_each(state_after) AS e)
WHERE action = 'skip';

COMMENT ON COLUMN outbox.status IS
    'pending, in_flight, published, failed, dead (gave up after the maximum attempts), waiting (behind an older row '
    'of its ordering key), discarded (an operator gave up on it; never published unless retried).';
