/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The lanes of the outbox's log (migration 0028_outbox_log.sql), as a Promela model checked exhaustively by
 * tests/model/check-lanes-model; docs/lease-protocol-model.md, "The lanes of the log", says what is modelled and why.
 *
 * One lane holding N rows written in id order: r0 and r2 of ordering key A, r1 of key B. W relay workers
 * (RelayWorker::processBatch), and the rescue (outbox_rescue_expired(), which any worker runs). Every SQL function is
 * one atomic step mirroring its statements row by row (row locks serialize them per row, and under READ COMMITTED a
 * statement that waited for a lock re-checks its WHERE clause on the row's newest version); the settling
 * transaction of processBatch (outbox_complete, outbox_fail, outbox_hand_back, in that order) is one step too: a
 * crash before its commit rolls it back, the same as crashing before it.
 *
 * A row is in the log (status NULL, its fate its lane's) until it leaves it with a stored status: failed or dead (a
 * failed publish, attempt 1; a rescued lane batch), pending (handed back), waiting (behind an older row of its key off
 * the log that is not published), published (confirmed as part of a batch that did not settle whole). Off the log it
 * lives by its own columns (status, attempts, lease_token) as in migration 0027 (tests/model/lease.pml). The lane
 * has a cursor (done_id: the rows below it are settled), a leased batch [done, through) and a token.
 *
 * A claim (outbox_claim) takes the due rows off the log first (outbox_claim_rows: any set of up to B due rows, as
 * next_attempt_at, LIMIT and SKIP LOCKED may pick them; a keyed row only if its key has no older row off the log,
 * not published, outside the set; behind one not in flight it is parked as waiting; the statement is retried while it
 * parks rows and claims none), and when it returned nothing, in a step of its own (other steps may come in between),
 * the lane's next batch (outbox_claim_lane: up to B rows from the cursor, cut anywhere, as a tick or the batch size
 * may cut them; a row whose key has an older row off the log that is pending, in flight, failed, dead or waiting is
 * diverted to waiting; a batch that is all diverted moves the cursor and the next one is tried; otherwise the lane is
 * leased and its token grows).
 *
 * The worker publishes its batch in id order per key and stops a key at its first failure, then settles: complete
 * (the confirmed rows), fail (the refused ones: failed, or dead at MAX_ATTEMPTS; a row of a lane batch leaves the log
 * with attempts 1), hand back (the untried ones: pending). A lane batch settles (its cursor moves) when none of its
 * rows is left in the log: a complete that confirms every row left moves it without touching the rows, a partial one
 * marks its rows published off the log. Completing a row off the log releases the waiting rows of its key.
 *
 * Time is abstract: a lease (the lane's or a row's) may run out at any moment, also while its holder is alive and
 * publishing, and only the rescue reads it, so the rescue may take any leased lane batch or row in flight at any
 * moment (the heartbeat adds no behaviour: extending a lease only takes that chance away). next_attempt_at is
 * abstracted away: a pending or failed row is due. A worker may crash after its claim or after publishing
 * (MAX_CRASHES in all): what it did not commit is lost, its rows stay leased until the rescue, it starts afresh. The
 * broker may be unreachable (MAX_OUTAGES in all): processBatch hands the whole batch back, whatever it delivered.
 *
 * Left out: ticks and commit order (the rows are all written, in id order; a range is modelled by the cut of a batch,
 * which may fall anywhere), several lanes (a key's rows are in one lane, and lanes share nothing but the rows off the
 * log, which are modelled), paused event types, the operators' actions (requeue, discard: a dead row holds its key
 * back for good here), the purge.
 *
 * Checked (see check-lanes-model), in every reachable state:
 *   - order: a row's first delivery comes after the first delivery of every older row of its key (so the first
 *     deliveries of a key's rows are in id order, with no gap);
 *   - fencing: a settling transaction whose claim is no longer current (rescued, and maybe claimed again) changes
 *     nothing; and every guarded update of a settling call acts for the current claim (ghosts `lane_owner`, `owner`);
 *   - no loss: a row published (off the log, or in the log behind its lane's cursor) was delivered;
 *   - the lane: rows ahead of its batch are in the log, a leased batch has a row left in the log, a waiting row has an
 *     older row of its key off the log not yet published, attempts stay within MAX_ATTEMPTS;
 *   - at the end (every worker found nothing to claim with nothing in flight or due): every row was delivered at least
 *     once, or is dead, or waits behind a dead row of its key.
 *
 * Deliberately broken variants (spin -DNAME), which the check requires to fail:
 *   BROKEN_DIVERT  outbox_claim_lane without its `blocked` CTE: the lane's rows of a key with an older row off the
 *                  log (failed, in flight, ...) are published ahead of it;
 *   BROKEN_FENCE   a lane batch settled without its fence, as a lane settled by its cursor alone would be: the
 *                  settling calls take the lane leased under any token, and the batch to settle is the caller's (its
 *                  rows left in the log), not the lane's current one; a worker whose batch was rescued then settles
 *                  the next batch.
 * And one that passes (docs/lease-protocol-model.md says why), for running by hand:
 *   BROKEN_TOKEN   only `x.lease_token = ...` dropped from outbox_fenced_lanes(): the rows' filters (status IS NULL,
 *                  in the lane's current batch) keep a stale caller out on their own.
 */

#define W 2            /* relay workers */
#define N 3            /* rows of the lane, in id order */
#define B 3            /* the batch size of a claim (a lane batch may be cut shorter, by its range's tick) */
#define MAX_ATTEMPTS 2 /* RelayOptions::maxAttempts */
#define MAX_CRASHES 1  /* workers cut off after their claim or after publishing */
#define MAX_OUTAGES 1  /* batches that find the broker unreachable and are handed back whole */

#if N != 3
#error "KEY(), the rows an off-log claim may take, the publish, the settle and the rescue are written out for N == 3"
#endif

mtype = { inlog, pending, in_flight, failed, dead, waiting, published }; /* outbox.status; inlog: NULL */

#define KEY(r) ((r) & 1) /* ordering key: r0 and r2 of key A (0), r1 of key B (1) */
#define BIT(r) (1 << (r))

/* The table outbox: a row's stored status, attempts and lease_token (meaningful off the log). */
mtype status[N] = inlog;
byte attempts[N];
byte token[N];

/* The lane's row of outbox_lanes: the cursor (done_id: rows below it settled), the leased batch [lane_done,
 * lane_through) while lane_leased (claimed_through IS NOT NULL; lane_through == lane_done otherwise), the token. */
byte lane_done;
byte lane_through;
bool lane_leased;
byte lane_token;

/* The broker: whether each row's message reached it (at least once). */
bool delivered[N];

byte crashes;
byte outages;
byte running = W; /* workers that have not found the outbox drained */

/* Ghosts: 1 + the worker whose claim is the lane's current batch (0 while it is not leased), and 1 + the worker
 * whose claim is a row's current one (0 while the row is not in flight). */
byte lane_owner;
byte owner[N];

/* A settling transaction's view of the state before it, to compare with afterwards (within its d_step; zero
 * between steps). */
mtype snap_status[N];
byte snap_attempts[N], snap_token[N], snap_lane[4];

/* The rows of the batch in hand neither confirmed nor refused (a worker's locals held, ok and bad). */
#define untried (held & ~ok & ~bad)

#define NONE 0
#define LANE 1 /* a lane batch, under the lane's fence */
#define ROWS 2 /* rows off the log, each under its own fence */

/* Off the log and not yet published: what holds back the younger rows of its key (paused is not modelled). */
#define UNPUBLISHED_OFF_LOG(r) \
    (status[r] == pending || status[r] == in_flight || status[r] == failed || status[r] == dead \
     || status[r] == waiting)
#define DUE(r) (status[r] == pending || status[r] == failed)

/* outbox_fenced_lanes(): WHERE x.claimed_through IS NOT NULL AND (x.lane, x.lease_token) IN (the caller's fences),
 * with the caller's rows listed under that fence. */
#if defined(BROKEN_FENCE) || defined(BROKEN_TOKEN)
#define LANE_FENCED (lane_leased)
#else
#define LANE_FENCED (lane_leased && lane_token == fence)
#endif

/* Whether row r is one of outbox_lane_batch(l): status IS NULL, in the lane's leased batch. BROKEN_FENCE: the
 * caller's batch instead. */
#ifdef BROKEN_FENCE
#define IN_LANE_BATCH(r) (status[r] == inlog && (held & BIT(r)))
#else
#define IN_LANE_BATCH(r) (status[r] == inlog && lane_done <= (r) && (r) < lane_through)
#endif

/* outbox_settle_lane(): done_id := claimed_through, the lease cleared (the lane's token is kept). */
inline settle_lane()
{
    lane_done = lane_through;
    lane_leased = false;
    lane_owner = 0
}

/* outbox_settle_lane_if_done(): IF NOT EXISTS (SELECT FROM outbox_lane_batch(l)) THEN outbox_settle_lane(l). */
inline settle_lane_if_done()
{
    found = false;
    for (i : 0 .. N - 1) {
        if
        :: IN_LANE_BATCH(i) -> found = true
        :: else
        fi
    }
    if
    :: !found ->
        assert(lane_owner == w + 1); /* the current claim's */
        printf("w%d settles the lane: the cursor moves past row %d\n", w, lane_through - 1);
        settle_lane()
    :: else
    fi
}

/* outbox_release_waiting(keys): UPDATE outbox SET status = CASE WHEN attempts > 0 THEN 'failed' ELSE 'pending' END
 * WHERE ordering_key = ANY (keys) AND status = 'waiting'. */
inline release_waiting()
{
    for (i : 0 .. N - 1) {
        if
        :: status[i] == waiting && (keys & BIT(KEY(i))) ->
            status[i] = (attempts[i] > 0 -> failed : pending)
        :: else
        fi
    }
}

/* The broker gets row r's message. Its first delivery must come after the first delivery of every older row of its
 * key: rows of a key are published in id order, and a row not published holds its key's younger rows back. */
inline deliver(r)
{
    if
    :: !delivered[r] ->
        for (j : 0 .. N - 1) {
            if
            :: j < r && KEY(j) == KEY(r) ->
                if
                :: !delivered[j] -> printf("row %d of key %d is delivered before row %d of its key\n", r, KEY(r), j)
                :: else
                fi;
                assert(delivered[j]) /* key order */
            :: else
            fi
        };
        delivered[r] = true
    :: else
    fi;
    printf("w%d delivers row %d\n", w, r)
}

inline invariants()
{
    for (i : 0 .. N - 1) {
        /* no loss: published off the log, or in the log behind the cursor, means delivered */
        assert(!(status[i] == published || (status[i] == inlog && i < lane_done)) || delivered[i]);
        /* the rows ahead of the lane's batch are all in the log */
        assert(i < lane_through || i < lane_done || status[i] == inlog);
        assert((status[i] == in_flight) == (owner[i] != 0));
        assert(attempts[i] <= MAX_ATTEMPTS);
        assert(status[i] != dead || attempts[i] >= MAX_ATTEMPTS || MAX_ATTEMPTS <= 1);
        /* a waiting row has an older row of its key to wait for (else it would wait for good) */
        if
        :: status[i] == waiting ->
            found = false;
            for (j : 0 .. N - 1) {
                if
                :: j < i && KEY(j) == KEY(i) && UNPUBLISHED_OFF_LOG(j) -> found = true
                :: else
                fi
            };
            assert(found)
        :: else
        fi
    };
    assert(lane_leased == (lane_owner != 0));
    assert(lane_leased || lane_through == lane_done);
    /* a leased batch has a row left in the log: a stale caller's rows are never among the lane's current batch */
    found = false;
    for (i : 0 .. N - 1) {
        if
        :: status[i] == inlog && lane_done <= i && i < lane_through -> found = true
        :: else
        fi
    };
    assert(!lane_leased || found);
    i = 0;
    j = 0;
    m = 0;
    found = false
}

/* publishInKeyOrder, for row r of the batch: sent unless an older row of its key was refused; confirmed (and
 * delivered) or refused (a refused message that reached the broker all the same would add nothing the confirmed
 * branch does not: the same delivery at the same moment). With the broker unreachable, a row sent may have reached
 * it or not, and the key's younger rows are not sent. */
inline publish(r)
{
    if
    :: (held & BIT(r)) && !(halted & BIT(KEY(r))) ->
        if
        :: ok = ok | BIT(r);
            deliver(r)
        :: bad = bad | BIT(r);
            halted = halted | BIT(KEY(r));
            if
            :: unreachable -> printf("w%d: row %d does not reach the broker\n", w, r)
            :: else -> printf("w%d: row %d is refused\n", w, r)
            fi
        fi
    :: else
    fi
}

/* Forget the batch in hand (the end of processBatch, or a crash). */
inline forget()
{
    kind = NONE;
    held = 0;
    ok = 0;
    bad = 0;
    fence = 0;
    for (i : 0 .. N - 1) {
        fence_of[i] = 0
    }
}

/* outbox_claim() asks outbox_claim_rows() first, and outbox_claim_lane() when it returned nothing: two steps.
 *
 * outbox_claim_rows(), FOR try IN 1..8: the statement, retried while it parks rows and claims none. */
inline claim_rows()
{
    got = 0;
    rounds = 0;
    do
    :: rounds < 8 && got == 0 ->
        due = 0;
        for (i : 0 .. N - 1) {
            if
            :: DUE(i) -> due = due | BIT(i)
            :: else
            fi
        };
        if
        :: due == 0 -> break
        :: else
        fi;
        /* candidates: up to B due rows, ORDER BY next_attempt_at, id LIMIT B FOR UPDATE SKIP LOCKED */
        if
        :: due & 1 -> c = 1
        :: due & 2 -> c = 2
        :: due & 4 -> c = 4
        :: B >= 2 && (due & 3) == 3 -> c = 3
        :: B >= 2 && (due & 5) == 5 -> c = 5
        :: B >= 2 && (due & 6) == 6 -> c = 6
        :: B >= 3 && due == 7 -> c = 7
        fi;
        /* blocker: per key, the oldest row off the log not published (pending, in_flight, failed, dead, waiting)
         * that is not a candidate */
        blk[0] = N;
        blk[1] = N;
        for (j : 0 .. N - 1) {
            if
            :: !(c & BIT(j)) && UNPUBLISHED_OFF_LOG(j) && blk[KEY(j)] == N -> blk[KEY(j)] = j
            :: else
            fi
        };
        /* parked: younger than a blocker not in flight; claimed: no blocker, or older than it; else left due */
        pm = 0;
        cm = 0;
        for (i : 0 .. N - 1) {
            if
            :: (c & BIT(i)) && blk[KEY(i)] < N && i > blk[KEY(i)] && status[blk[KEY(i)]] != in_flight ->
                pm = pm | BIT(i)
            :: (c & BIT(i)) && (blk[KEY(i)] == N || i < blk[KEY(i)]) -> cm = cm | BIT(i)
            :: else
            fi
        };
        for (i : 0 .. N - 1) {
            if
            :: pm & BIT(i) ->
                status[i] = waiting;
                printf("w%d parks row %d behind row %d\n", w, i, blk[KEY(i)])
            :: cm & BIT(i) ->
                status[i] = in_flight;
                token[i]++;
                attempts[i]++;
                owner[i] = w + 1;
                fence_of[i] = token[i];
                printf("w%d claims row %d off the log, token %d, attempt %d\n", w, i, token[i], attempts[i])
            :: else
            fi
        };
        if
        :: cm != 0 ->
            kind = ROWS;
            held = cm
        :: else
        fi;
        got = cm;
        rounds++;
        if
        :: pm == 0 -> break
        :: else
        fi
    :: else -> break
    od
}

/* outbox_claim_lane(): the lane's next batch, when the lane is not leased (an expired lease waits for the rescue).
 * Up to B rows from the cursor, cut anywhere (the batch size, the range's tick). */
inline claim_lane()
{
    got = 0;
    if
    :: !lane_leased ->
        do
        :: lane_done < N ->
            if
            :: t = lane_done + 1
            :: B >= 2 && lane_done + 2 <= N -> t = lane_done + 2
            :: B >= 3 && lane_done + 3 <= N -> t = lane_done + 3
            fi;
            /* blocked: a row whose key has an older row off the log pending, in flight, failed, dead or waiting
             * (judged on the state before the statement) goes waiting; the others are the batch */
            pm = 0;
            m = 0;
            for (i : lane_done .. t - 1) {
                assert(status[i] == inlog);
                found = false;
#ifndef BROKEN_DIVERT
                for (j : 0 .. N - 1) {
                    if
                    :: j < i && KEY(j) == KEY(i) && UNPUBLISHED_OFF_LOG(j) -> found = true
                    :: else
                    fi
                };
#endif
                if
                :: found -> pm = pm | BIT(i)
                :: else -> m = m | BIT(i)
                fi
            };
            for (i : 0 .. N - 1) {
                if
                :: pm & BIT(i) ->
                    status[i] = waiting;
                    printf("w%d diverts row %d of the lane to waiting\n", w, i)
                :: else
                fi
            };
            if
            :: m != 0 ->
                /* the lane is leased: claimed_through, a new lease and token */
                lane_leased = true;
                lane_through = t;
                lane_token++;
                lane_owner = w + 1;
                kind = LANE;
                held = m;
                fence = lane_token;
                got = m;
                printf("w%d claims the lane's rows [%d, %d), token %d\n", w, lane_done, t, lane_token);
                break
            :: else ->
                /* every row of the batch left the log: settled already, the cursor moves and the next is tried */
                lane_done = t;
                lane_through = t
            fi
        :: else -> break
        od
    :: else
    fi
}

/* After a claim that returned rows: the batch in hand, or a crash right after the claim (the worker starts afresh). */
inline claimed()
{
    if
    :: crashes < MAX_CRASHES ->
        crashes++;
        printf("w%d crashes after its claim\n", w);
        forget();
        phase = 0
    :: phase = 1
    fi
}

/* The end of a claim's step: its scratch zeroed, the invariants checked. */
inline scratch()
{
    got = 0;
    rounds = 0;
    due = 0;
    c = 0;
    pm = 0;
    cm = 0;
    t = 0;
    blk[0] = 0;
    blk[1] = 0;
    invariants()
}

/* outbox_complete(ok): the lane's part (a lane batch), or the rows' part (rows off the log). */
inline complete()
{
    if
    :: kind == LANE ->
        if
        :: LANE_FENCED ->
            m = 0;
            for (i : 0 .. N - 1) {
                if
                :: IN_LANE_BATCH(i) -> m = m | BIT(i)
                :: else
                fi
            };
            if
            :: (m & ~ok) == 0 ->
                /* every row left in the log confirmed: the cursor moves, the rows stay in the log */
                assert(lane_owner == w + 1); /* the current claim's */
                printf("w%d settles the lane: the cursor moves past row %d\n", w, lane_through - 1);
                settle_lane()
            :: else ->
                /* the others fail or are handed back: the confirmed rows leave the log published */
                for (i : 0 .. N - 1) {
                    if
                    :: (m & ok & BIT(i)) ->
                        assert(lane_owner == w + 1);
                        status[i] = published;
                        attempts[i] = 1;
                        printf("w%d marks row %d published off the log\n", w, i)
                    :: else
                    fi
                }
            fi
        :: else -> printf("w%d: the complete of its lane batch (token %d) changed nothing\n", w, fence)
        fi
    :: else ->
        /* WHERE o.id = f.id AND o.lease_token = f.token AND o.status = 'in_flight', then release_waiting(keys) */
        keys = 0;
        for (i : 0 .. N - 1) {
            if
            :: (ok & BIT(i)) && status[i] == in_flight && token[i] == fence_of[i] ->
                assert(owner[i] == w + 1);
                status[i] = published;
                owner[i] = 0;
                keys = keys | BIT(KEY(i));
                printf("w%d marks row %d published\n", w, i)
            :: (ok & BIT(i)) && !(status[i] == in_flight && token[i] == fence_of[i]) ->
                printf("w%d: the complete of row %d (token %d) changed nothing\n", w, i, fence_of[i])
            :: else
            fi
        };
        release_waiting()
    fi
}

/* outbox_fail(bad): a lane batch's rows leave the log failed (dead when MAX_ATTEMPTS is 1) with attempts 1, and the
 * lane settles if none is left in the log; a row off the log is failed, or dead at MAX_ATTEMPTS. */
inline fail()
{
    if
    :: kind == LANE ->
        if
        :: LANE_FENCED ->
            for (i : 0 .. N - 1) {
                if
                :: (bad & BIT(i)) && IN_LANE_BATCH(i) ->
                    assert(lane_owner == w + 1);
                    status[i] = (1 >= MAX_ATTEMPTS -> dead : failed);
                    attempts[i] = 1;
                    printf("w%d marks row %d %e, off the log\n", w, i, status[i])
                :: else
                fi
            };
            settle_lane_if_done()
        :: else -> printf("w%d: the fail of its lane batch (token %d) changed nothing\n", w, fence)
        fi
    :: else ->
        for (i : 0 .. N - 1) {
            if
            :: (bad & BIT(i)) && status[i] == in_flight && token[i] == fence_of[i] ->
                assert(owner[i] == w + 1);
                status[i] = (attempts[i] >= MAX_ATTEMPTS -> dead : failed);
                owner[i] = 0;
                printf("w%d marks row %d %e\n", w, i, status[i])
            :: (bad & BIT(i)) && !(status[i] == in_flight && token[i] == fence_of[i]) ->
                printf("w%d: the fail of row %d (token %d) changed nothing\n", w, i, fence_of[i])
            :: else
            fi
        }
    fi
}

/* outbox_hand_back(untried): a lane batch's rows leave the log pending (the lane settles if none is left in it);
 * a row off the log gives its attempt back. */
inline hand_back()
{
    if
    :: kind == LANE ->
        if
        :: LANE_FENCED ->
            for (i : 0 .. N - 1) {
                if
                :: (untried & BIT(i)) && IN_LANE_BATCH(i) ->
                    assert(lane_owner == w + 1);
                    status[i] = pending;
                    printf("w%d hands row %d back, off the log\n", w, i)
                :: else
                fi
            };
            settle_lane_if_done()
        :: else -> printf("w%d: the hand-back of its lane batch (token %d) changed nothing\n", w, fence)
        fi
    :: else ->
        for (i : 0 .. N - 1) {
            if
            :: (untried & BIT(i)) && status[i] == in_flight && token[i] == fence_of[i] ->
                assert(owner[i] == w + 1);
                status[i] = (attempts[i] > 1 -> failed : pending);
                attempts[i]--;
                owner[i] = 0;
                printf("w%d hands row %d back\n", w, i)
            :: (untried & BIT(i)) && !(status[i] == in_flight && token[i] == fence_of[i]) ->
                printf("w%d: the hand-back of row %d (token %d) changed nothing\n", w, i, fence_of[i])
            :: else
            fi
        }
    fi
}

/* The state a settling transaction may change, kept aside when its claim is no longer current. */
inline snapshot()
{
    for (i : 0 .. N - 1) {
        snap_status[i] = status[i];
        snap_attempts[i] = attempts[i];
        snap_token[i] = token[i]
    };
    snap_lane[0] = lane_done;
    snap_lane[1] = lane_through;
    snap_lane[2] = lane_leased;
    snap_lane[3] = lane_token
}

inline unchanged()
{
    for (i : 0 .. N - 1) {
        assert(snap_status[i] == status[i] && snap_attempts[i] == attempts[i] && snap_token[i] == token[i])
    };
    assert(snap_lane[0] == lane_done && snap_lane[1] == lane_through && snap_lane[2] == lane_leased
           && snap_lane[3] == lane_token);
    for (i : 0 .. N - 1) {
        snap_status[i] = 0;
        snap_attempts[i] = 0;
        snap_token[i] = 0
    };
    for (i : 0 .. 3) {
        snap_lane[i] = 0
    }
}

/* Nothing left to claim and nothing in flight, for good: every row delivered, dead, or behind a dead row. */
inline final_check()
{
    printf("the outbox is drained\n");
    assert(!lane_leased && lane_done == N);
    for (i : 0 .. N - 1) {
        assert(status[i] != in_flight && !DUE(i));
        found = false;
        for (j : 0 .. N - 1) {
            if
            :: j < i && KEY(j) == KEY(i) && status[j] == dead -> found = true
            :: else
            fi
        };
        if
        :: !(delivered[i] || status[i] == dead || (status[i] == waiting && found)) ->
            printf("row %d is %e, never delivered\n", i, status[i]);
            assert(false)
        :: else
        fi
    }
}

active [W] proctype Worker()
{
    byte w = _pid;
    byte phase;       /* 0: idle, 4: claim_rows found nothing, 1: a batch claimed, 2: published, 3: drained */
    byte kind;        /* the batch in hand: NONE, LANE or ROWS */
    byte held;        /* its rows */
    byte fence;       /* a lane batch's fence: the lane's token at the claim */
    byte fence_of[N]; /* a row's fence off the log: its lease_token at the claim */
    byte ok, bad;     /* the rows confirmed and refused; the others of the batch are untried */
    /* Scratch of a step, zero between steps. */
    byte got, rounds, due, halted, i, j, m, c, pm, cm, t, keys;
    byte blk[2];
    bool current, found, unreachable;

    /* OutboxRelay::workerLoop: claim, publish, settle; a worker finding nothing to claim with nothing in flight or
     * due anywhere stops (the outbox is drained for good: nothing but a claim or the rescue changes it). */
end:
    do
    :: phase == 0 ->
        atomic {
            claim_rows();
            if
            :: got == 0 ->
                printf("w%d finds no row off the log to claim\n", w);
                phase = 4
            :: else -> claimed()
            fi;
            scratch()
        }
    :: phase == 4 ->
        atomic {
            claim_lane();
            if
            :: got != 0 -> claimed()
            :: else ->
                /* nothing claimed: is anything in flight or due? */
                found = false;
                for (i : 0 .. N - 1) {
                    if
                    :: status[i] == in_flight || DUE(i) -> found = true
                    :: else
                    fi
                };
                if
                :: !found && !lane_leased ->
                    running--;
                    if
                    :: running == 0 -> final_check()
                    :: else
                    fi;
                    phase = 3
                :: else -> phase = 0
                fi
            fi;
            scratch()
        }
    :: phase == 1 ->
        /* publishInKeyOrder: in id order, each key stopping at its first refused message; or the broker is
         * unreachable (OutboxError::Kind::Broker) */
        atomic {
            if
            :: outages < MAX_OUTAGES ->
                outages++;
                unreachable = true
            :: true
            fi;
            publish(0);
            publish(1);
            publish(2);
            if
            :: unreachable ->
                /* processBatch hands back the whole batch, whatever reached the broker */
                printf("w%d: the broker is unreachable, the batch is handed back\n", w);
                ok = 0;
                bad = 0
            :: else
            fi;
            halted = 0;
            unreachable = false;
            if
            :: crashes < MAX_CRASHES ->
                crashes++;
                printf("w%d crashes after publishing\n", w);
                forget();
                phase = 0
            :: phase = 2
            fi
        }
    :: phase == 2 ->
        /* The settling transaction: markPublished, markFailed, handBack (each skipped when it has no rows). */
        d_step {
            if
            :: kind == LANE -> current = (lane_owner == w + 1)
            :: else ->
                current = (((held & BIT(0)) && owner[0] == w + 1) || ((held & BIT(1)) && owner[1] == w + 1)
                           || ((held & BIT(2)) && owner[2] == w + 1))
            fi;
            if
            :: !current ->
                printf("w%d settles its batch, which is no longer its claim\n", w);
                snapshot()
            :: else
            fi;
            if
            :: ok != 0 -> complete()
            :: else
            fi;
            if
            :: bad != 0 -> fail()
            :: else
            fi;
            if
            :: untried != 0 -> hand_back()
            :: else
            fi;
            if
            :: !current -> unchanged()
            :: else
            fi;
            forget();
            phase = 0;
            current = false;
            keys = 0;
            invariants()
        }
    od
}

/* outbox_rescue_expired() for row r off the log in flight: outbox_fail() under its own token. */
inline rescue_row(r)
{
    status[r] = (attempts[r] >= MAX_ATTEMPTS -> dead : failed);
    owner[r] = 0;
    printf("the rescue takes row %d: %e\n", r, status[r]);
    invariants()
}

/* outbox_rescue_expired(), whose leases ran out: a lane batch whole (its rows left in the log fail the attempt, the
 * cursor moves), a row off the log (failed, or dead at MAX_ATTEMPTS). No fence: it takes them from whoever holds
 * them. One lane batch or row a step: the function's statements are those steps without others in between. */
active proctype Rescue()
{
    byte i, j, m; /* scratch of a step, zero between steps */
    bool found;

end:
    do
    :: d_step {
        lane_leased ->
        printf("the rescue takes the lane's batch [%d, %d), token %d\n", lane_done, lane_through, lane_token);
        for (i : 0 .. N - 1) {
            if
            :: status[i] == inlog && lane_done <= i && i < lane_through ->
                status[i] = (1 >= MAX_ATTEMPTS -> dead : failed);
                attempts[i] = 1
            :: else
            fi
        };
        settle_lane();
        invariants()
       }
    :: d_step { status[0] == in_flight -> rescue_row(0) }
    :: d_step { status[1] == in_flight -> rescue_row(1) }
    :: d_step { status[2] == in_flight -> rescue_row(2) }
    od
}
