/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The relay's lease protocol (model/relay), as a Promela model checked exhaustively by
 * tests/model/check-lease-model; docs/lease-protocol-model.md says what is modelled and why.
 *
 * W workers (RelayWorker::processBatch and RelayWorker::rescueExpiredLeases, each on a connection of its own),
 * the lease heartbeat (LeaseKeeper::extend) and N outbox rows. Every SQL function OutboxLeaseRepository calls
 * (05_relay.sql) is one atomic step mirroring its WHERE clause row by row: each statement's row locks serialize it
 * with the others per row, and under READ COMMITTED a statement that waited for a row lock re-checks its WHERE
 * clause on the row's newest version, so a statement sees each row either before or after another statement, never
 * in between.
 * The completion transaction (markPublished and markFailed in RelayWorker::processBatch) is one step too: its
 * statements touch disjoint rows, and a crash before its commit rolls it back, the same as crashing before it.
 *
 * Time is abstract: a row's lease is `live` (lease_expires_at > now()) or `expired` (< now()), and it may run
 * out at any moment (process Lease), also while its holder is alive and publishing (a slow broker, a stalled
 * process, a heartbeat that did not get through). next_attempt_at is abstracted away: a pending or failed row is
 * due (a backoff only delays it). A worker may crash after its claim and after its publish (a process kill, a
 * lost connection, a thread's exception): what it did not commit is lost, its Hold is released, it starts
 * afresh. A crash during a statement is a rollback, a crash between batches loses nothing: neither is a step.
 *
 * Left out: ordering keys (the waiting and skipped statuses, the parked rows of outbox_claim(), the release in
 * outbox_complete(), held-back rows): they decide which due rows a claim may take and in what order they are
 * published, never whether a completion is fenced; the claim here takes any non-empty set of due rows, which covers
 * every batch they would allow. Also left out: the operators' transitions (requeue, skip, release lease) and the
 * purge.
 *
 * Checked (see check-lease-model):
 *   safety (every reachable state, assertions and invalid end states):
 *     - fenced completion: markPublished, markFailed and handBack change a row only for the row's current claim
 *       (ghost `owner`), and extendLeases extends only the current claim's lease;
 *     - no loss: a row marked published was delivered to the broker at least once; duplicates: a row is
 *       delivered at most once per claim;
 *     - attempts never exceed MAX_ATTEMPTS, dead only at MAX_ATTEMPTS, in_flight exactly when leased.
 *   liveness (ltl `done`, with weak fairness): every row is eventually published or dead. Crashes and lease
 *     expiries are unbounded (a claim lost to either has used an attempt up); only broker outages are
 *     bounded (MAX_OUTAGES), since a hand-back gives the attempt back: a broker that is down forever keeps the
 *     rows pending forever, by design.
 *
 * Deliberately broken variants (spin -DNAME), which the check requires to fail:
 *   BROKEN_FENCE  the completions' WHERE clauses without `o.lease_token = f.token`: a worker whose lease ran out
 *                 and whose row was rescued and claimed again overwrites the new owner's result;
 *   BROKEN_HOLD   a crash that does not release its LeaseKeeper::Hold: the heartbeat keeps the dead worker's
 *                 leases alive, the rows are never rescued (the liveness check fails, the safety check cannot
 *                 see it).
 */

#define W 3            /* relay workers */
#define N 2            /* outbox rows */
#define MAX_ATTEMPTS 2 /* RelayOptions::maxAttempts */
#define MAX_OUTAGES 1  /* batches that find the broker unreachable and are handed back */

#if N != 2 || W != 3
#error "ANY, ANY_WORKER and the claim's choice of a batch are written out for N == 2 and W == 3"
#endif

mtype = { pending, in_flight, failed, dead, published }; /* outbox.status (no waiting, no skipped) */
mtype = { none, live, expired };                         /* lease_expires_at: NULL, > now(), < now() */

/* The outbox table. */
mtype status[N] = pending;
byte attempts[N];
byte lease_token[N];
mtype lease[N] = none;

/* The broker: how many times each row's message reached it (duplicates are allowed and counted). */
byte delivered[N];
byte outages;

/* LeaseKeeper::m_held: the fences of the batch worker w holds, at I(w, r): held, and the claim's lease_token. */
#define I(w, r) ((w) * N + (r))
bool held[W * N];
byte fence[W * N];

/* Ghost: 1 + the worker whose claim is the row's current one, 0 while the row is not in flight. */
byte owner[N];

#define ANY(P) (P(0) || P(1))
#define ANY_WORKER(P, r) (P(0, r) || P(1, r) || P(2, r))
#define DUE(r) (status[r] == pending || status[r] == failed)
#define RESCUABLE(r) (status[r] == in_flight && lease[r] == expired)
#define DONE(r) (status[r] == published || status[r] == dead)

/* The completions' guard: WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight'. */
#ifdef BROKEN_FENCE
#define FENCED(w, r) (status[r] == in_flight)
#else
#define FENCED(w, r) (status[r] == in_flight && lease_token[r] == fence[I(w, r)])
#endif

/* The ghost check of every fenced statement that passed its guard: it completes the row's current claim. */
#define CURRENT_CLAIM(w, r) assert(owner[r] == (w) + 1)

inline invariants()
{
    for (k : 0 .. N - 1) {
        assert(status[k] != published || delivered[k] > 0); /* no loss */
        assert(delivered[k] <= lease_token[k]); /* duplicates: at most one delivery per claim */
        assert((status[k] == in_flight) == (lease[k] != none)); /* CHECK outbox_lease, and only claims lease */
        assert((status[k] == in_flight) == (owner[k] != 0));
        assert(attempts[k] <= MAX_ATTEMPTS);
        assert(status[k] != dead || attempts[k] >= MAX_ATTEMPTS)
    }
    k = 0
}

/* outbox_claim(), the `claimed` CTE, for one row the `due` CTE found:
 *   due:     SELECT id ... WHERE status IN ('pending', 'failed') AND next_attempt_at <= now()
 *            ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED
 *   claimed: UPDATE outbox o SET status = 'in_flight', lease_owner = ?, lease_expires_at = now() + lease,
 *              lease_token = o.lease_token + 1, attempts = o.attempts + 1 ... WHERE o.id = due.id
 *            RETURNING o.id, o.lease_token, ...
 * and RelayWorker::processBatch's LeaseKeeper::hold(claimed). The caller checked DUE(r). */
inline claim(w, r)
{
    status[r] = in_flight;
    lease[r] = live;
    lease_token[r]++;
    attempts[r]++;
    held[I(w, r)] = true;
    fence[I(w, r)] = lease_token[r];
    owner[r] = w + 1;
    inbatch[r] = true;
    printf("w%d claims row %d, token %d, attempt %d\n", w, r, lease_token[r], attempts[r])
}

/* outbox_complete():
 *   UPDATE outbox o SET status = 'published', published_at = now(), lease_owner = NULL, lease_expires_at = NULL
 *   FROM f WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight' */
inline markPublished(w, r)
{
    if
    :: FENCED(w, r) ->
        printf("w%d marks row %d published (its token %d, the row's %d)\n", w, r, fence[I(w, r)], lease_token[r]);
        CURRENT_CLAIM(w, r);
        status[r] = published;
        lease[r] = none;
        owner[r] = 0
    :: else -> printf("w%d: markPublished of row %d (token %d) changed nothing\n", w, r, fence[I(w, r)])
    fi
}

/* outbox_fail():
 *   UPDATE outbox o SET status = CASE WHEN o.attempts >= maxAttempts THEN 'dead' ELSE 'failed' END,
 *     next_attempt_at = now() + backoff, last_error = f.error, lease_owner = NULL, lease_expires_at = NULL
 *   FROM f WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight' */
inline markFailed(w, r)
{
    if
    :: FENCED(w, r) ->
        printf("w%d marks row %d %e (its token %d, the row's %d)\n", w, r,
            (attempts[r] >= MAX_ATTEMPTS -> dead : failed), fence[I(w, r)], lease_token[r]);
        CURRENT_CLAIM(w, r);
        if
        :: attempts[r] >= MAX_ATTEMPTS -> status[r] = dead
        :: else -> status[r] = failed
        fi;
        lease[r] = none;
        owner[r] = 0
    :: else -> printf("w%d: markFailed of row %d (token %d) changed nothing\n", w, r, fence[I(w, r)])
    fi
}

/* outbox_hand_back():
 *   UPDATE outbox o SET status = CASE WHEN o.attempts > 1 THEN 'failed' ELSE 'pending' END,
 *     attempts = o.attempts - 1, lease_owner = NULL, lease_expires_at = NULL
 *   FROM f WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight' */
inline handBack(w, r)
{
    if
    :: FENCED(w, r) ->
        printf("w%d hands row %d back (its token %d, the row's %d)\n", w, r, fence[I(w, r)], lease_token[r]);
        CURRENT_CLAIM(w, r);
        if
        :: attempts[r] > 1 -> status[r] = failed
        :: else -> status[r] = pending
        fi;
        attempts[r]--;
        lease[r] = none;
        owner[r] = 0
    :: else -> printf("w%d: handBack of row %d (token %d) changed nothing\n", w, r, fence[I(w, r)])
    fi
}

/* outbox_rescue_expired(), for one row:
 *   stale: SELECT id FROM outbox WHERE status = 'in_flight' AND lease_expires_at < now()
 *          ORDER BY lease_expires_at LIMIT ? FOR UPDATE SKIP LOCKED
 *   upd:   UPDATE outbox o SET status = CASE WHEN o.attempts >= maxAttempts THEN 'dead' ELSE 'failed' END,
 *            next_attempt_at = now(), last_error = 'lease ... expired', lease_owner = NULL, lease_expires_at = NULL
 *          FROM stale WHERE o.id = stale.id AND o.status = 'in_flight'
 * No fence: it takes the row from whoever holds it. The lease_token is left as it is (the next claim moves it
 * on), so after a rescue only the status guard keeps the old holder's completion out. */
inline rescue(w, r)
{
    if
    :: status[r] == in_flight && lease[r] == expired ->
        if
        :: attempts[r] >= MAX_ATTEMPTS -> status[r] = dead
        :: else -> status[r] = failed
        fi;
        lease[r] = none;
        owner[r] = 0;
        printf("w%d rescues row %d: %e\n", w, r, status[r])
    :: else
    fi
}

/* Publishing is folded into the step that follows it (the completion, the hand-back or the crash): all it changes
 * is `delivered`, which no other step reads and which only grows, so running it right before that step loses no
 * behaviour. A crash after a publish is the crash step with the messages delivered; before it, without. */

/* Publish row r of the batch and complete it: processBatch's completion transaction, markPublished(fences) for
 * the rows the sink confirmed and markFailed(failures) for the others. A refused message may have reached the
 * broker all the same (a confirm that timed out). */
inline publishAndComplete(w, r)
{
    if
    :: inbatch[r] ->
        if
        :: deliver(r); markPublished(w, r)
        :: true -> markFailed(w, r)
        :: deliver(r); markFailed(w, r)
        fi
    :: else
    fi
}

/* The sink throws OutboxError::Kind::Broker for the batch: processBatch's catch hands every claimed row back
 * (then throws; the worker starts afresh). The messages not confirmed may have reached the broker. */
inline publishAndHandBack(w, r)
{
    if
    :: inbatch[r] ->
        if
        :: deliver(r)
        :: skip
        fi;
        handBack(w, r)
    :: else
    fi
}

/* Cut off between the claim and the completion (a process kill, a lost connection, a thread's exception), after
 * publishing some or none of the batch. */
inline publishAndCrash(w, r)
{
    if
    :: inbatch[r] ->
        if
        :: deliver(r)
        :: skip
        fi
    :: else
    fi
}

/* The broker got row r's message (once more). */
inline deliver(r)
{
    delivered[r]++
}

/* ~LeaseKeeper::Hold at the end of processBatch (also when it throws): the batch's fences leave the heartbeat. */
inline releaseHold(w, r)
{
    if
    :: inbatch[r] ->
        held[I(w, r)] = false;
        fence[I(w, r)] = 0
    :: else
    fi
}

active [W] proctype Worker()
{
    byte w = _pid;
    bool inbatch[N]; /* the rows of the batch in hand */
    byte k; /* invariants()'s loop */

    /* OutboxRelay::workerLoop: rescue every rescueIntervalMs, claim otherwise; with nothing to do it sleeps. */
end_idle:
    if
    :: atomic {
        ANY(RESCUABLE) ->
        rescue(w, 0);
        rescue(w, 1);
        invariants()
       }
    :: atomic {
        /* The claim: any non-empty set of due rows (a batch size, SKIP LOCKED, the order by next_attempt_at).
         * It commits on its own: the rows are in flight under this worker's lease before anything is published. */
        if
        :: DUE(0) -> claim(w, 0)
        :: DUE(1) -> claim(w, 1)
        :: DUE(0) && DUE(1) -> claim(w, 0); claim(w, 1)
        fi;
        invariants()
       };
       if
       :: atomic {
            publishAndComplete(w, 0);
            publishAndComplete(w, 1);
            releaseHold(w, 0);
            releaseHold(w, 1);
            inbatch[0] = false;
            inbatch[1] = false;
            invariants()
          }
       :: atomic {
            outages < MAX_OUTAGES ->
            outages++;
            printf("w%d: the broker is unreachable\n", w);
            publishAndHandBack(w, 0);
            publishAndHandBack(w, 1);
            releaseHold(w, 0);
            releaseHold(w, 1);
            inbatch[0] = false;
            inbatch[1] = false;
            invariants()
          }
       :: atomic {
            /* Whatever the worker did not commit is gone; its rows stay in flight until their lease runs out. */
            printf("w%d crashes\n", w);
            publishAndCrash(w, 0);
            publishAndCrash(w, 1);
#ifndef BROKEN_HOLD
            releaseHold(w, 0);
            releaseHold(w, 1);
#endif
            inbatch[0] = false;
            inbatch[1] = false;
            invariants()
          }
       fi
    fi;
    goto end_idle
}

/* The lease extension: LeaseKeeper::extend every third of the lease (OutboxRelay::run), from the fences of every
 * batch held, through outbox_extend_leases():
 *   UPDATE outbox o SET lease_expires_at = now() + lease
 *   FROM f WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight'
 * Only an expired lease is extended here: extending a live one changes nothing in this model of time. The one
 * statement for every held fence is a step per row here, which only allows more interleavings. */
#define EXTENDS(w, r) (held[I(w, r)] && lease_token[r] == fence[I(w, r)] && status[r] == in_flight)
#define EXTENDABLE(r) (lease[r] == expired && ANY_WORKER(EXTENDS, r))

/* Row r's lease: it runs out at any moment, and the heartbeat may extend it again while it is held. */
active [N] proctype Lease()
{
    byte r = _pid - W;

end:
    do
    :: d_step {
        status[r] == in_flight && lease[r] == live ->
        lease[r] = expired;
        printf("the lease of row %d runs out\n", r)
       }
    :: d_step {
        EXTENDABLE(r) ->
        assert(owner[r] != 0 && EXTENDS(owner[r] - 1, r)); /* the current claim's lease */
        lease[r] = live;
        printf("the heartbeat extends the lease of row %d\n", r)
       }
    od
}

/* Every row is eventually published or dead (checked with weak fairness: pan -a -f). */
ltl done { <> (DONE(0) && DONE(1)) }
